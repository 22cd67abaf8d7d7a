import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowStatistics } from '../../src/core/dashboard/types';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { OWNER, TYPE, VALID_DATA } from '../support/documents';

const STATISTICS = `/api/evisa/statistics/${TYPE}`;
const role = (suffix: string) => `test-document-${suffix}`;

interface Planted {
  owner: string;
  status: string;
  createdAt: Date;
}

/** What the endpoint should answer for these documents, computed the plain way. */
function expected(documents: Planted[], now: Date): WorkflowStatistics {
  const year = now.getUTCFullYear();
  const byStatus = new Map<string, number>();
  for (const d of documents.filter((d) => d.createdAt.getUTCFullYear() === year))
    byStatus.set(d.status, (byStatus.get(d.status) ?? 0) + 1);
  const monthKey = (d: Date) =>
    `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  const months = [5, 4, 3, 2, 1, 0].map((back) => {
    const month = monthKey(new Date(Date.UTC(year, now.getUTCMonth() - back, 1)));
    return { month, count: documents.filter((d) => monthKey(d.createdAt) === month).length };
  });
  return {
    year,
    byStatus: [...byStatus]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([status, count]) => ({ status, count })),
    months,
  };
}

describe.each(databaseKinds())('workflow statistics on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let owner: string;
  let stranger: string;
  let officer: string;
  const now = new Date();
  const planted: Planted[] = [];
  /** Mid-month, `back` months ago (UTC), so no boundary is near. */
  const monthsAgo = (back: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 15, 12));

  const statistics = (token: string | undefined, url = STATISTICS) =>
    api.call('GET', url, { token });

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    owner = await api.issuer.token({ sub: OWNER, groups: [role('submit'), role('delete')] });
    stranger = await api.issuer.token({ sub: 'applicant-2', groups: [role('submit')] });
    // `search` is a see-all role of the workflow.
    officer = await api.issuer.token({ sub: 'officer-1', groups: [role('search')] });
    const plant = async (token: string, sub: string, createdAt: Date, how?: string) => {
      const created = await api.call('POST', `/api/evisa/${TYPE}`, {
        token,
        body: { data: VALID_DATA },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = (created.json() as { id: string }).id;
      let status = 'STORED';
      if (how) {
        const body = how === 'submit' ? { version: 1, data: VALID_DATA } : { version: 1 };
        const acted = await api.call('POST', `/api/evisa/${TYPE}/${id}/actions/${how}`, {
          token,
          body,
        });
        expect(acted.statusCode, acted.body).toBe(200);
        status = (acted.json() as { status: string }).status;
      }
      await api.tables
        .updateTable('document')
        .set({ created_at: createdAt })
        .where('id', '=', id)
        .execute();
      // Deleted documents are hidden from lists, and so from their counts.
      if (status !== 'DELETED') planted.push({ owner: sub, status, createdAt });
    };
    await plant(owner, OWNER, now);
    await plant(owner, OWNER, now, 'submit');
    await plant(owner, OWNER, monthsAgo(2));
    await plant(owner, OWNER, monthsAgo(2), 'submit');
    await plant(owner, OWNER, monthsAgo(8));
    await plant(owner, OWNER, new Date(Date.UTC(now.getUTCFullYear() - 1, 6, 15)));
    await plant(owner, OWNER, now, 'delete');
    await plant(stranger, 'applicant-2', now);
    await plant(stranger, 'applicant-2', monthsAgo(5), 'submit');
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  const read = async (token: string) => {
    const response = await statistics(token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as WorkflowStatistics;
  };

  it('counts every document for a see-all role: per status this year, per month for six months', async () => {
    const all = await read(officer);
    expect(all).toEqual(expected(planted, now));
    expect(all.months).toHaveLength(6);
    expect(all.months.at(-1)!.month).toBe(now.toISOString().slice(0, 7));
    expect(all.months.reduce((sum, m) => sum + m.count, 0)).toBe(6);
  });

  it('counts only their own documents for the others', async () => {
    expect(await read(owner)).toEqual(
      expected(
        planted.filter((d) => d.owner === OWNER),
        now,
      ),
    );
    expect(await read(stranger)).toEqual(
      expected(
        planted.filter((d) => d.owner === 'applicant-2'),
        now,
      ),
    );
    const newcomer = await api.issuer.token({ sub: 'newcomer', groups: ['view-profile'] });
    const none = await read(newcomer);
    expect(none.byStatus).toEqual([]);
    expect(none.months.map((m) => m.count)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('is 401 unsigned, and 404 for an unknown workflow or one without statistics', async () => {
    const anonymous = await statistics(undefined);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('NOT_SIGNED_IN');
    for (const url of [
      '/api/evisa/statistics/no-such-workflow',
      '/api/evisa/statistics/sample-permit',
    ]) {
      const missing = await statistics(officer, url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json().error.code).toBe('NOT_FOUND');
    }
  });
});
