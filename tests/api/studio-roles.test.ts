import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { readProjectJson } from '../support/definitions-dir';

/**
 * The studio's roles: every role the definitions use, where, and which access units in the
 * database grant it; a publisher who may also change access units grants a role to a unit as
 * the identity administrator would (validation, history, version), and the check stops warning.
 */

const ROLES = '/api/definitions/roles';
const UNITS = '/api/connectid/access-unit';
const ISLAND = 'catalogs/island.json';

interface Unit {
  id: string;
  code: string;
  name: string;
  version: number;
}
interface Role {
  code: string;
  name: string;
  units: string[];
  uses: Array<{ part: string; name?: string; owner: string; title: string }>;
}
interface Listing {
  mayGrant: boolean;
  grantRoles: string[];
  units: Unit[];
  roles: Role[];
}
type Problem = { file: string; message: string };

/** A draft adding a catalogue whose two roles no unit grants. */
async function islandDraft() {
  const island: CatalogDefinition = {
    ...(await readProjectJson<CatalogDefinition>('catalogs/country.json')),
    id: 'island',
    category: 'configuration',
    searcherRoles: 'island-read',
    managerRoles: 'island-manage',
  };
  return { base: 1, changes: { [ISLAND]: JSON.stringify(island, null, 2) } };
}

describe.each(databaseKinds())('the studio’s roles on %s', (kind) => {
  let api: ApiHarness;
  let granter: string;
  let publisherOnly: string;
  let unitAdminOnly: string;
  let editor: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    granter = await api.tokenFor(['definitions-publish', 'connectid-unit-update'], {
      preferred_username: 'analyst',
    });
    publisherOnly = await api.tokenFor(['definitions-publish']);
    unitAdminOnly = await api.tokenFor(['connectid-unit-update', 'connectid-unit-read']);
    editor = await api.tokenFor(['definitions-edit']);
  });
  afterAll(async () => {
    await api?.close();
  });

  const listing = async (token: string, query = '', language = 'en') => {
    const response = await api.call('GET', `${ROLES}${query}`, {
      token,
      headers: { 'accept-language': language },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Listing;
  };
  const unitNamed = (units: Unit[], code: string) => units.find((unit) => unit.code === code)!;
  const grant = (role: string, body: unknown, token = granter) =>
    api.call('POST', `${ROLES}/${role}/grants`, { token, body });
  const checkDraft = async () => {
    const response = await api.call('POST', '/api/definitions/sets/check', {
      token: editor,
      body: await islandDraft(),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { valid: boolean; version: string; warnings: Problem[] };
  };

  it('offers the designer every guard and effect the engine and the modules implement, with a guard’s parameters', async () => {
    const response = await api.call('GET', '/api/definitions/implementations', { token: editor });
    expect(response.statusCode, response.body).toBe(200);
    const offered = response.json() as {
      guards: Array<{ name: string; owner: string; parameters: unknown[] }>;
      effects: Array<{ name: string; owner: string; derives: boolean }>;
      rules: Array<{ name: string; owner: string }>;
    };
    expect(offered.guards.find((guard) => guard.name === 'dataEquals')).toEqual({
      name: 'dataEquals',
      owner: 'engine',
      parameters: [
        { name: 'pointer', kind: 'pointer', required: true },
        { name: 'value', kind: 'value', required: true },
      ],
    });
    expect(offered.guards.find((guard) => guard.name === 'isAssigned')?.parameters).toEqual([]);
    // The identity module's own effects are named as its own.
    expect(offered.effects.filter((effect) => effect.owner === 'module connectid')).not.toEqual([]);
    expect(offered.effects.length).toBeGreaterThan(10);
    // Only the studio's people read it.
    const applicant = await api.tokenFor(['visa-application-apply']);
    const refused = await api.call('GET', '/api/definitions/implementations', {
      token: applicant,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('lists every role the definitions use, where, and the units granting it, in words', async () => {
    const read = await listing(editor);
    expect(read.mayGrant).toBe(false);
    expect(read.grantRoles).toEqual(['connectid-unit-update']);
    const grantRole = read.roles.find((role) => role.code === 'visa-application-grant');
    expect(grantRole).toMatchObject({
      name: expect.stringMatching(/visa/i),
      units: ['VERIFICATION'],
    });
    expect(grantRole?.uses).toContainEqual(
      expect.objectContaining({ part: 'action', name: 'grant', owner: 'visa-application' }),
    );
    expect(unitNamed(read.units, 'VERIFICATION')).toMatchObject({
      name: 'Verification officers: visa and sponsor applications, invoices',
      version: expect.any(Number),
    });
    // A catalogue's role: used to search it, named with the catalogue's title.
    expect(read.roles.find((role) => role.code === 'sso-catalog-read')?.units).toEqual(
      expect.arrayContaining(['CATALOGUE_MANAGER', 'CATALOGUE_READER']),
    );
    // The reader's language: a role's name comes from the texts of what names it.
    const french = await listing(editor, '', 'fr');
    const frenchGrant = french.roles.find((role) => role.code === 'visa-application-grant');
    expect(frenchGrant?.name).not.toBe(grantRole?.name);
    expect((await listing(granter)).mayGrant).toBe(true);
  });

  it('is for the studio’s people only', async () => {
    const other = await api.tokenFor(['connectid-unit-update']);
    expect((await api.call('GET', ROLES, { token: other })).statusCode).toBe(403);
    expect((await api.call('GET', ROLES)).statusCode).toBe(401);
    expect(
      (await api.call('GET', `${ROLES}?draft=0123456789abcdef`, { token: editor })).statusCode,
    ).toBe(404);
  });

  it('grants a role to a unit as the identity administrator would, and the check stops warning', async () => {
    // A draft naming two roles nobody holds: the check warns of both, and the roles say so.
    const checked = await checkDraft();
    const warned = (problems: Problem[]) =>
      problems.filter((p) => p.file === ISLAND).map((p) => /"([^"]+)"/.exec(p.message)?.[1]);
    expect(warned(checked.warnings)).toEqual(['island-read', 'island-manage']);
    const draftRoles = await listing(granter, `?draft=${checked.version}`);
    expect(draftRoles.roles.find((role) => role.code === 'island-read')).toMatchObject({
      units: [],
      uses: [expect.objectContaining({ part: 'catalogSearch', owner: 'island' })],
    });
    const reader = unitNamed(draftRoles.units, 'CATALOGUE_READER');

    // Both roles are needed: the publisher's and the one changing access units.
    const body = { unit: reader.id, version: reader.version };
    for (const token of [publisherOnly, unitAdminOnly, editor])
      expect((await grant('island-read', body, token)).statusCode).toBe(403);

    // The unit's own rule: a role must exist as an access role; nothing changes otherwise.
    const unknown = await grant('island-manage', body);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [expect.objectContaining({ path: '/access/roles' })],
    });
    const bad = await grant('Not A Role', body);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    expect((await grant('island-read', { unit: reader.id })).statusCode).toBe(400);
    expect(
      (await grant('island-read', { unit: '00000000-0000-4000-8000-000000000000', version: 1 }))
        .statusCode,
    ).toBe(404);
    expect(unitNamed((await listing(granter)).units, 'CATALOGUE_READER').version).toBe(
      reader.version,
    );

    // The role exists once the identity administrator (or a publish) records it.
    const roleAdmin = await api.tokenFor(['connectid-role-create']);
    const role = await api.call('POST', '/api/connectid/access-role', {
      token: roleAdmin,
      body: {
        action: 'create',
        data: { role: { roleCode: 'island-read', roleDescription: 'Islands' } },
      },
    });
    expect(role.statusCode, role.body).toBe(201);

    // Granted on the version read; an older one is refused, naming the unit's version.
    const granted = await grant('island-read', body);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ code: 'CATALOGUE_READER', version: reader.version + 1 });
    const stale = await grant('island-read', body);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('STALE_VERSION');
    const again = await grant('island-read', { ...body, version: reader.version + 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONFLICT');

    // Kept in the unit as its own screens keep it, with a line in its history.
    const unitReader = await api.tokenFor(['connectid-unit-read']);
    const stored = (await api.call('GET', `${UNITS}/${reader.id}`, { token: unitReader })).json();
    expect(stored.data.access.roles).toEqual(
      expect.arrayContaining(['catalog-read', 'sso-catalog-read', 'island-read']),
    );
    const history = (
      await api.call('GET', `${UNITS}/${reader.id}/history`, { token: unitReader })
    ).json() as Array<{ action: string; version: number; name: string }>;
    expect(history.at(-1)).toMatchObject({ action: 'edit-roles', version: reader.version + 1 });

    // The roles read the database, and so does the check: one warning is gone.
    const after = await listing(granter, `?draft=${checked.version}`);
    expect(after.roles.find((r) => r.code === 'island-read')?.units).toEqual(['CATALOGUE_READER']);
    expect(warned((await checkDraft()).warnings)).toEqual(['island-manage']);
  });
});
