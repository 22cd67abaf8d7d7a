import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryRow } from '../../src/core/dashboard/types';
import type { SearchResult } from '../../src/core/search/protocol';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { OWNER, TYPE, VALID_DATA } from '../support/documents';

const LIBRARY = '/api/evisa/dashboard/library';
const OWNER_ROLES = ['submit', 'cancel', 'delete', 'read'].map((s) => `test-document-${s}`);

describe.each(databaseKinds())('My Library on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let owner: string;
  let stranger: string;
  const mine: string[] = [];
  let strangers: string;
  let permit: string;

  const library = (token: string | undefined, body: unknown = {}) =>
    api.call('PATCH', LIBRARY, { token, body });
  const page = async (token: string, body: unknown = {}) => {
    const response = await library(token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SearchResult<LibraryRow>;
  };

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    owner = await api.issuer.token({
      sub: OWNER,
      groups: [...OWNER_ROLES, 'sample-permit-submit', 'view-profile'],
    });
    stranger = await api.issuer.token({
      sub: 'applicant-2',
      groups: ['test-document-submit', 'manage-account'],
    });
    const store = async (token: string, type = TYPE, data: unknown = VALID_DATA) => {
      const created = await api.call('POST', `/api/evisa/${type}`, { token, body: { data } });
      expect(created.statusCode, created.body).toBe(201);
      return created.json() as { id: string; version: number };
    };
    for (let i = 0; i < 3; i++) mine.push((await store(owner)).id);
    // One submitted (numbered), one of another workflow, one deleted (hidden from every list).
    const submitted = await api.call('POST', `/api/evisa/${TYPE}/${mine[0]}/actions/submit`, {
      token: owner,
      body: { version: 1, data: VALID_DATA },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    permit = (await store(owner, 'sample-permit', { applicant: { familyName: 'Doe' } })).id;
    const deleted = await store(owner);
    const removed = await api.call('POST', `/api/evisa/${TYPE}/${deleted.id}/actions/delete`, {
      token: owner,
      body: { version: 1 },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    strangers = (await store(stranger)).id;
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  it('lists every own document of every evisa workflow, newest change first, and nothing else', async () => {
    const result = await page(owner);
    expect(result).toMatchObject({ total: 4, page: 1, itemsPerPage: -1, capped: false });
    expect(result.items.map((r) => r.id).sort()).toEqual([...mine, permit].sort());
    const updated = result.items.map((r) => r.updatedAt);
    expect(updated).toEqual([...updated].sort().reverse());
    const submitted = result.items.find((r) => r.id === mine[0])!;
    expect(submitted).toEqual({
      workflow: TYPE,
      documentType: TYPE,
      id: mine[0],
      number: `TD-${new Date().getUTCFullYear()}-00001`,
      reference: null,
      status: 'SUBMITTED FOR VERIFICATION',
      updatedAt: expect.any(String),
      submittedAt: expect.any(String),
    });
    expect(result.items.find((r) => r.id === permit)).toMatchObject({
      workflow: 'sample-permit',
      documentType: 'sample-permit',
      status: 'STORED',
      number: null,
      submittedAt: null,
    });
    const other = await page(stranger);
    expect(other.items.map((r) => r.id)).toEqual([strangers]);
  });

  it('pages in the database: a page of two, then the rest', async () => {
    const sort = [{ field: 'updatedAt', direction: 'asc' }];
    const first = await page(owner, { options: { page: 1, itemsPerPage: 2, sort } });
    const second = await page(owner, { options: { page: 2, itemsPerPage: 2, sort } });
    const third = await page(owner, { options: { page: 3, itemsPerPage: 2, sort } });
    expect(first).toMatchObject({ total: 4, page: 1, itemsPerPage: 2 });
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(2);
    expect(third).toMatchObject({ total: 4, items: [] });
    const ids = [...first.items, ...second.items].map((r) => r.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.sort()).toEqual([...mine, permit].sort());
  });

  it('filters and sorts on the row fields with the search protocol', async () => {
    const byWorkflow = await page(owner, {
      filter: [{ field: 'workflow', criterion: 'equals', value: 'sample-permit' }],
    });
    expect(byWorkflow.items.map((r) => r.id)).toEqual([permit]);
    const numbered = await page(owner, {
      filter: [{ field: 'number', criterion: 'startsWith', value: 'td-' }],
    });
    expect(numbered.items.map((r) => r.id)).toEqual([mine[0]]);
    const byType = await page(owner, {
      filter: [{ field: 'documentType', criterion: 'equals', value: TYPE }],
      options: { sort: [{ field: 'status', direction: 'asc' }] },
    });
    expect(byType.total).toBe(3);
    expect(byType.items.map((r) => r.status)).toEqual([
      'STORED',
      'STORED',
      'SUBMITTED FOR VERIFICATION',
    ]);
    const unknown = await library(owner, {
      filter: [{ field: 'owner', criterion: 'equals', value: 'applicant-2' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({
      code: 'UNKNOWN_FIELD',
      fields: [{ path: '/filter/0/field', rule: 'unknownField' }],
    });
  });

  it('needs a signed-in caller (401) holding view-profile or manage-account (403)', async () => {
    const anonymous = await library(undefined);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('NOT_SIGNED_IN');
    const noDashboardRole = await api.issuer.token({ sub: OWNER, groups: OWNER_ROLES });
    const refused = await library(noDashboardRole);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
    const french = await api.call('PATCH', LIBRARY, {
      token: noDashboardRole,
      body: {},
      headers: { 'accept-language': 'fr' },
    });
    expect(french.json().error.message).not.toBe(refused.json().error.message);
  });

  it('shows the documents of a caller holding no role of their workflows any more', async () => {
    const onlyDashboard = await api.issuer.token({ sub: OWNER, groups: ['view-profile'] });
    expect((await page(onlyDashboard)).total).toBe(4);
  });
});
