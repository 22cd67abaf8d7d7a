import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

/**
 * Editing and deleting catalogue entries: the version read is required, a stale one is a 409 and
 * changes nothing, a new period must not overlap another of the same key, and only managers may.
 */
describe.each(databaseKinds())('catalogue entry edits and deletions on %s', (kind) => {
  let api: ApiHarness;
  let reader: string;
  let manager: string;
  const base = '/api/catalog/v1/country';

  beforeAll(async () => {
    // An empty catalogue to start from: the seeded ISO countries would hold these codes.
    api = await startApiServer(kind, { referenceData: false });
    reader = await api.tokenFor(['catalog-read']);
    manager = await api.tokenFor(['catalog-manage']);
  });
  afterAll(async () => api?.close());

  const create = async (code: string, name: string, startTime: string, endTime?: string) => {
    const response = await api.call('POST', base, {
      token: manager,
      body: { code, name, startTime, ...(endTime ? { endTime } : {}) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; version: number; data: Record<string, unknown> };
  };
  const read = async (id: string) =>
    (await api.call('GET', `${base}/${id}`, { token: reader })).json();

  it('edits an entry with the version read: closes its period, keeps who and when', async () => {
    const entry = await create('WS', 'Samoa', '2020-01-01T00:00:00Z');
    const closed = await api.call('PUT', `${base}/${entry.id}`, {
      token: manager,
      body: {
        version: 1,
        data: { ...entry.data, endTime: '2026-01-01T00:00:00Z' },
      },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      version: 2,
      createdBy: 'tester',
      updatedBy: 'tester',
      data: { code: 'WS', endTime: '2026-01-01T00:00:00.000Z' },
    });
    // The successor starts where the old period ends: no overlap.
    await create('WS', 'Independent State of Samoa', '2026-01-01T00:00:00Z');

    const stale = await api.call('PUT', `${base}/${entry.id}`, {
      token: manager,
      body: { version: 1, data: { ...entry.data, name: 'Lost update' } },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('STALE_VERSION');
    expect((await read(entry.id)).data.name).toBe('Samoa');
  });

  it('refuses an edit that would overlap another period of the same key, and bad input', async () => {
    const first = await create('TO', 'Tonga', '2020-01-01T00:00:00Z', '2024-01-01T00:00:00Z');
    await create('TO', 'Kingdom of Tonga', '2024-01-01T00:00:00Z');
    const overlap = await api.call('PUT', `${base}/${first.id}`, {
      token: manager,
      body: { version: 1, data: { ...first.data, endTime: '2025-01-01T00:00:00Z' } },
    });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().error.code).toBe('OVERLAPPING_PERIOD');
    const invalid = await api.call('PUT', `${base}/${first.id}`, {
      token: manager,
      body: { version: 1, data: { ...first.data, code: 'TOO-LONG-A-CODE' } },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields[0].path).toBe('/code');
    const noVersion = await api.call('PUT', `${base}/${first.id}`, {
      token: manager,
      body: { data: first.data },
    });
    expect(noVersion.statusCode).toBe(400);
    expect((await read(first.id)).version).toBe(1);
  });

  it('deletes with the version read; readers may neither edit nor delete', async () => {
    const entry = await create('FJ', 'Fiji', '2020-01-01T00:00:00Z');
    const asReader = await api.call('DELETE', `${base}/${entry.id}?version=1`, { token: reader });
    expect(asReader.statusCode).toBe(403);
    const editAsReader = await api.call('PUT', `${base}/${entry.id}`, {
      token: reader,
      body: { version: 1, data: entry.data },
    });
    expect(editAsReader.statusCode).toBe(403);
    const stale = await api.call('DELETE', `${base}/${entry.id}?version=7`, { token: manager });
    expect(stale.statusCode).toBe(409);
    const deleted = await api.call('DELETE', `${base}/${entry.id}?version=1`, { token: manager });
    expect(deleted.statusCode).toBe(204);
    expect((await api.call('GET', `${base}/${entry.id}`, { token: reader })).statusCode).toBe(404);
    const again = await api.call('DELETE', `${base}/${entry.id}?version=1`, { token: manager });
    expect(again.statusCode).toBe(404);
  });
});
