import { afterEach, describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { schemaHasField } from '../../src/server/definitions/check-records';
import { recordDeclarations } from '../../src/modules/connectid/server/declarations';
import { loadDefinitions, type DefinitionProblem } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson, refusalOf } from '../support/definitions-dir';

/**
 * The record declarations of the workflows (`key`, `account`, `userGroup`, `passwordPolicy`,
 * `accessUnit`): the loader refuses one naming a field its schema lacks, and the directory's
 * view of them is gathered from the loaded workflows.
 */
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

type Json = Record<string, unknown>;

async function problemsWithWorkflow(id: string, change: (w: Json) => void) {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const workflow = await readProjectJson<Json>(`workflows/${id}.json`);
  change(workflow);
  await copy.write(`workflows/${id}.json`, workflow);
  return refusalOf(copy.dir);
}

const account = (w: Json) => w.account as Json;

describe('record declarations', () => {
  it('refuses an account declaration naming a field the schema lacks', async () => {
    const problems = await problemsWithWorkflow('account', (w) => {
      account(w).email = '/contact/emailAdress';
      (account(w).security as Json).forceTotp = '/safety/forceTotp';
    });
    expect(problems).toEqual(
      expect.arrayContaining<DefinitionProblem>([
        {
          file: 'workflows/account.json',
          pointer: '/account/email',
          message: '"/contact/emailAdress" is not a field of schema "account"',
        },
        {
          file: 'workflows/account.json',
          pointer: '/account/security/forceTotp',
          message: '"/safety/forceTotp" is not a field of schema "account"',
        },
      ]),
    );
  });

  it('refuses a key, a user-type check and a group field the schema lacks', async () => {
    const account = await problemsWithWorkflow('account', (w) => {
      w.key = { pointer: '/identity/login', keptWhenDeleted: true };
      const userType = (w.account as Json).userType as Json;
      (userType.checks as Json).checkAgency = '/organisation/agency';
    });
    expect(account.map((p) => p.pointer)).toEqual(
      expect.arrayContaining(['/key/pointer', '/account/userType/checks/checkAgency']),
    );
    const group = await problemsWithWorkflow('user-group', (w) => {
      (w.userGroup as Json).parent = '/group/parent';
    });
    expect(group).toContainEqual({
      file: 'workflows/user-group.json',
      pointer: '/userGroup/parent',
      message: '"/group/parent" is not a field of schema "user-group"',
    });
  });

  it('refuses sign-in statuses the machine lacks and an account without a key', async () => {
    const problems = await problemsWithWorkflow('account', (w) => {
      (account(w).signIn as Json).statuses = ['ACCEPTED', 'ACTIVE'];
      delete w.key;
    });
    expect(problems).toEqual(
      expect.arrayContaining<DefinitionProblem>([
        {
          file: 'workflows/account.json',
          pointer: '/account/signIn/statuses/1',
          message: 'no status "ACTIVE" in the machine',
        },
        {
          file: 'workflows/account.json',
          pointer: '',
          message: 'records found by their key must declare "key"',
        },
      ]),
    );
  });

  it('refuses a declaration the meta-schema does not allow', async () => {
    const problems = await problemsWithWorkflow('access-role', (w) => {
      w.key = { pointer: '/role/roleCode' };
    });
    expect(problems).toContainEqual({
      file: 'workflows/access-role.json',
      pointer: '/key/keptWhenDeleted',
      message: "must have required property 'keptWhenDeleted'",
    });
  });

  it('gathers each type’s key and the account, group, policy and unit declarations', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const bundle = await loadDefinitions(copy.dir, serverModules);
    const records = recordDeclarations(bundle.workflows);
    expect(Object.fromEntries(records.keys)).toMatchObject({
      account: { pointer: '/identity/loginIdentifier', keptWhenDeleted: true },
      'user-group': { pointer: '/group/code', keptWhenDeleted: false },
    });
    expect(records.account).toMatchObject({ type: 'account', language: '/preferences/language' });
    expect(records.userGroup?.type).toBe('user-group');
    expect(records.passwordPolicy).toMatchObject({ type: 'password-policy', default: 'DEFAULT' });
    expect(records.accessUnit?.type).toBe('access-unit');
    const twice = bundle.workflows.map((w) =>
      w.id === 'access-role'
        ? ({ ...w, accessUnit: { roles: '/role/roleCode' } } as WorkflowDefinition)
        : w,
    );
    expect(() => recordDeclarations(twice)).toThrow(
      /access-role, access-unit all declare "accessUnit"/,
    );
  });

  it('finds fields through conditionals, combinators and array items', () => {
    const schema = {
      type: 'object',
      properties: {
        organisation: {
          type: 'object',
          properties: { userType: { type: 'string' } },
          if: { properties: { userType: { const: 'SERVICE' } } },
          then: { properties: { serviceName: { type: 'string' } } },
          allOf: [{ properties: { badge: { type: 'string' } } }],
        },
        addresses: { type: 'array', items: { properties: { city: { type: 'string' } } } },
      },
    };
    expect(schemaHasField(schema, '/organisation/userType')).toBe(true);
    expect(schemaHasField(schema, '/organisation/serviceName')).toBe(true);
    expect(schemaHasField(schema, '/organisation/badge')).toBe(true);
    expect(schemaHasField(schema, '/addresses')).toBe(true);
    expect(schemaHasField(schema, '/addresses/0/city')).toBe(true);
    expect(schemaHasField(schema, '/organisation/name')).toBe(false);
    expect(schemaHasField(schema, '/contact')).toBe(false);
  });
});
