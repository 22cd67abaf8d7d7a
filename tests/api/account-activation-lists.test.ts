import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import type { WorkflowList } from '../../src/core/documents/workflow';
import { listWhere } from '../../src/server/documents/list-where';

/**
 * A list's `where` conditions (workflows/account.json): the active accounts' list holds the
 * accounts whose activation is `active`, the inactive accounts' list every other one, whatever
 * the search body asks for on top.
 */
type Doc = {
  id: string;
  version: number;
  status: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON, read freely
  data: Record<string, any>;
};

describe.each(databaseKinds())('account activation lists on %s', (kind) => {
  let api: ApiHarness;
  let admin: string;
  const base = '/api/connectid/account';

  beforeAll(async () => {
    api = await startApiServer(kind);
    admin = await api.issuer.token({
      sub: 'admin-1',
      name: 'Ida Admin',
      groups: ['search', 'create', 'update'].map((s) => `connectid-account-${s}`),
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const account = (login: string) => ({
    identity: { loginIdentifier: login, firstName: 'Ana', lastName: 'Tuilagi' },
    contact: { emailAddress: `${login}@example.org`, primaryMobileNo: '+685 7210001' },
    organisation: { userType: 'INDIVIDUAL' },
    access: { userGroup: 'PUBLIC', accessUnits: [] },
  });
  const create = async (login: string) => {
    const response = await api.call('POST', base, {
      token: admin,
      body: { action: 'create', data: account(login) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Doc;
  };
  const list = async (id: string, filter: unknown[] = []) => {
    const response = await api.call('PATCH', base, {
      token: admin,
      body: { list: id, filter, options: { itemsPerPage: -1 } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().items as Array<{ id: string }>).map((i) => i.id);
  };

  it('shows an active account in /active only and an inactive one in /inactive only', async () => {
    const active = await create('lists.active');
    expect(active).toMatchObject({
      status: 'ACCEPTED',
      data: { access: { activationStatus: 'active' } },
    });
    const created = await create('lists.inactive');
    const deactivated = await api.call('POST', `${base}/${created.id}/actions/update`, {
      token: admin,
      body: {
        version: created.version,
        data: { ...created.data, access: { ...created.data.access, activationStatus: 'inactive' } },
      },
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    const inactive = deactivated.json() as Doc;
    expect(inactive).toMatchObject({
      status: 'ACCEPTED',
      data: { access: { activationStatus: 'inactive' } },
    });

    const activeList = await list('active');
    const inactiveList = await list('inactive');
    expect(activeList).toContain(active.id);
    expect(activeList).not.toContain(inactive.id);
    expect(inactiveList).toContain(inactive.id);
    expect(inactiveList).not.toContain(active.id);
    // Both are in the finder without a list.
    const all = await list('accounts');
    expect(all).toEqual(expect.arrayContaining([active.id, inactive.id]));
    // The search body narrows a list; it never widens it past the list's conditions.
    expect(
      await list('inactive', [
        { field: 'loginIdentifier', criterion: 'startsWith', value: 'lists.' },
      ]),
    ).toEqual([inactive.id]);
    expect(
      await list('inactive', [{ field: 'activationStatus', criterion: 'equals', value: 'active' }]),
    ).toEqual([]);
    // No account of the seed is in both lists.
    expect(activeList.filter((id) => inactiveList.includes(id))).toEqual([]);
  });

  it('compares a flag or a number as the schema declares it, skipping other values', async () => {
    const flagged = await create('lists.flagged');
    const forced = await api.call('POST', `${base}/${flagged.id}/actions/update`, {
      token: admin,
      body: {
        version: flagged.version,
        data: { ...flagged.data, security: { forcePasswordChange: true } },
      },
    });
    expect(forced.statusCode, forced.body).toBe(200);
    const entity = api.server.definitions.schemas.find((s) => s.id === 'account')!;
    const matching = async (where: WorkflowList['where']) =>
      (
        await api.tables
          .selectFrom('document')
          .select('id')
          .where('type', '=', 'account')
          .where(listWhere({ where } as WorkflowList, entity.schema))
          .execute()
      ).map((r) => r.id);
    expect(
      await matching([
        { pointer: '/security/forcePasswordChange', criterion: 'equals', value: true },
      ]),
    ).toEqual([flagged.id]);
    expect(
      await matching([
        { pointer: '/security/forcePasswordChange', criterion: 'equals', value: 'true' },
        { pointer: '/identity/loginIdentifier', criterion: 'startsWith', value: 'lists.' },
      ]),
    ).toEqual([flagged.id]);
  });
});
