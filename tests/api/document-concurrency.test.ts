import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { personas, TYPE, VALID_DATA } from '../support/documents';

describe.each(databaseKinds())('concurrent actions on one document on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  it('lets exactly one of 50 simultaneous updates with the same version through', async () => {
    const { owner } = await personas(api);
    const doc = (
      await api.call('POST', `/api/evisa/${TYPE}`, { token: owner, body: { data: VALID_DATA } })
    ).json();
    const attempts = Array.from({ length: 50 }, (_, i) =>
      api.call('POST', `/api/evisa/${TYPE}/${doc.id}/actions/update`, {
        token: owner,
        body: {
          version: 1,
          data: { applicant: { name: `Writer ${i}`, email: 'ana@example.org' } },
        },
      }),
    );
    const responses = await Promise.all(attempts);
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    expect(
      new Set(responses.filter((r) => r.statusCode === 409).map((r) => r.json().error.code)),
    ).toEqual(new Set(['STALE_VERSION']));
    const winner = responses.find((r) => r.statusCode === 200)!.json();
    const current = (
      await api.call('GET', `/api/evisa/${TYPE}/${doc.id}`, { token: owner })
    ).json();
    expect(current).toMatchObject({ version: 2, data: winner.data });
    const history = (
      await api.call('GET', `/api/evisa/${TYPE}/${doc.id}/history`, { token: owner })
    ).json();
    expect(history.filter((h: { action: string }) => h.action === 'update')).toHaveLength(1);
  });
});
