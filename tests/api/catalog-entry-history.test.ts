import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

/**
 * Every change of a catalogue entry leaves a history line (who, when, the changed fields before
 * and after); a deletion is soft: the entry leaves every finder and select, is listed among the
 * deleted entries, and a manager restores it.
 */
describe.each(databaseKinds())('catalogue entry history on %s', (kind) => {
  let api: ApiHarness;
  let reader: string;
  let alice: string;
  let bruno: string;
  const base = '/api/catalog/v1/country';

  beforeAll(async () => {
    api = await startApiServer(kind, { referenceData: false });
    reader = await api.tokenFor(['catalog-read']);
    alice = await api.tokenFor(['catalog-manage'], { preferred_username: 'alice' });
    bruno = await api.tokenFor(['catalog-manage'], { preferred_username: 'bruno' });
  });
  afterAll(async () => api?.close());

  it('a catalogue entry edited twice and deleted shows three history lines with who, when and the changed fields, and is restored', async () => {
    const created = await api.call('POST', base, {
      token: alice,
      body: { code: 'KI', name: 'Kiribati', startTime: '2020-01-01T00:00:00Z' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const entry = created.json() as { id: string; data: Record<string, unknown> };
    const edit = async (token: string, version: number, data: Record<string, unknown>) => {
      const response = await api.call('PUT', `${base}/${entry.id}`, {
        token,
        body: { version, data: { ...entry.data, ...data } },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await edit(alice, 1, { name: 'Republic of Kiribati' });
    await edit(bruno, 2, { name: 'Republic of Kiribati', endTime: '2030-01-01T00:00:00Z' });
    const deleted = await api.call('DELETE', `${base}/${entry.id}?version=3`, { token: bruno });
    expect(deleted.statusCode, deleted.body).toBe(204);

    const history = await api.call('GET', `${base}/${entry.id}/history`, { token: reader });
    expect(history.statusCode, history.body).toBe(200);
    const lines = history.json().items as Array<Record<string, unknown>>;
    expect(lines).toHaveLength(3);
    expect(lines).toMatchObject([
      {
        version: 2,
        action: 'updated',
        changedBy: 'alice',
        changes: [{ field: 'name', before: 'Kiribati', after: 'Republic of Kiribati' }],
      },
      {
        version: 3,
        action: 'updated',
        changedBy: 'bruno',
        changes: [{ field: 'endTime', before: null, after: '2030-01-01T00:00:00.000Z' }],
      },
      { version: 4, action: 'deleted', changedBy: 'bruno', changes: [] },
    ]);
    for (const line of lines)
      expect(Date.now() - Date.parse(String(line.changedAt))).toBeLessThan(60_000);

    // Gone from the finder and the reads, listed among the deleted entries for managers.
    expect((await api.call('GET', `${base}/${entry.id}`, { token: reader })).statusCode).toBe(404);
    const found = await api.call('PATCH', base, { token: reader, body: {} });
    expect(found.json().items.map((e: { id: string }) => e.id)).not.toContain(entry.id);
    expect((await api.call('GET', `${base}/deleted`, { token: reader })).statusCode).toBe(403);
    const listed = await api.call('GET', `${base}/deleted`, { token: alice });
    // With when and by whom, as the Deleted entries dialog says it.
    expect(listed.json().items).toMatchObject([
      {
        id: entry.id,
        version: 4,
        updatedBy: 'bruno',
        deletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    // Restored with the version read: a stale one changes nothing.
    const stale = await api.call('POST', `${base}/${entry.id}/restore`, {
      token: alice,
      body: { version: 3 },
    });
    expect(stale.statusCode).toBe(409);
    const restored = await api.call('POST', `${base}/${entry.id}/restore`, {
      token: alice,
      body: { version: 4 },
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ version: 5, data: { name: 'Republic of Kiribati' } });
    expect((await api.call('GET', `${base}/${entry.id}`, { token: reader })).statusCode).toBe(200);
    const after = (await api.call('GET', `${base}/${entry.id}/history`, { token: reader })).json();
    expect(after.items.at(-1)).toMatchObject({
      version: 5,
      action: 'restored',
      changedBy: 'alice',
    });
    expect((await api.call('GET', `${base}/deleted`, { token: alice })).json().items).toEqual([]);
  });

  it('frees a deleted period for a new entry, and then refuses to restore over it', async () => {
    const first = await api.call('POST', base, {
      token: alice,
      body: { code: 'NR', name: 'Nauru', startTime: '2020-01-01T00:00:00Z' },
    });
    const { id } = first.json() as { id: string };
    await api.call('DELETE', `${base}/${id}?version=1`, { token: alice });
    const successor = await api.call('POST', base, {
      token: alice,
      body: { code: 'NR', name: 'Republic of Nauru', startTime: '2020-01-01T00:00:00Z' },
    });
    expect(successor.statusCode, successor.body).toBe(201);
    const restore = await api.call('POST', `${base}/${id}/restore`, {
      token: alice,
      body: { version: 2 },
    });
    expect(restore.statusCode).toBe(409);
    expect(restore.json().error.code).toBe('OVERLAPPING_PERIOD');
  });

  it('records what a CSV import changes, as its importer', async () => {
    const created = await api.call('POST', base, {
      token: alice,
      body: { code: 'TV', name: 'Tuvalu', startTime: '2020-01-01T00:00:00Z' },
    });
    const { id } = created.json() as { id: string };
    const imported = await api.call('POST', `${base}/import`, {
      token: bruno,
      body: {
        dryRun: false,
        entries: [{ code: 'TV', name: 'Tuvalu Islands', startTime: '2020-01-01T00:00:00Z' }],
      },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({ updated: 1 });
    const history = (await api.call('GET', `${base}/${id}/history`, { token: reader })).json();
    expect(history.items).toMatchObject([
      {
        version: 2,
        changedBy: 'bruno',
        changes: [{ field: 'name', before: 'Tuvalu', after: 'Tuvalu Islands' }],
      },
    ]);
  });
});
