import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredListIndexes, foldedText } from '../../src/server/db/list-indexes';
import {
  HEADER_FIELDS,
  dataText,
  searchRows,
  type SearchLimits,
} from '../../src/server/documents/store/lists';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { allTables } from '../support/all-tables';

const TYPE = 'visa-application';
const SEARCH = '/api/evisa/visa-application';

/** Family names with the cases a finder must get right: case, `%` and `_`, absent. */
const NAMES = [
  'Tuala',
  'tupou',
  'TURNER',
  'Atu',
  'Smith',
  'Ta%ble',
  'T_x',
  'Tux',
  'Émile',
  'de la Cruz',
  null,
  'Tuilagi',
];

interface Seeded {
  id: string;
  familyName: string | null;
  number: string | null;
  updatedAt: string;
  status: string;
}

describe.each(databaseKinds())('list paging and counts on %s', (kind) => {
  let api: ApiHarness;
  let token: string;
  const seeded: Seeded[] = [];

  const search = (body: unknown) => api.call('PATCH', SEARCH, { token, body });
  const page = async (body: unknown) => {
    const response = await search(body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      items: Array<{ id: string; fields: { familyName?: string } }>;
      total: number;
      totalIsLowerBound?: boolean;
      nextCursor?: string | null;
    };
  };
  /** Every row of a search, page by page through the cursors, and the pages' sizes. */
  const walk = async (options: Record<string, unknown>, filter: unknown[] = []) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let n = 1; n <= 50; n++) {
      const answer = await page({
        list: 'find',
        filter,
        options: { ...options, page: n, itemsPerPage: 4, ...(cursor ? { cursor } : {}) },
      });
      ids.push(...answer.items.map((item) => item.id));
      if (!answer.nextCursor) return ids;
      cursor = answer.nextCursor;
    }
    throw new Error('the cursors never ended');
  };

  beforeAll(async () => {
    api = await startApiServer(kind, {
      searchExactCountLimit: 5,
      searchMaxOffset: 8,
      referenceData: false,
    });
    token = await api.tokenFor(['visa-application-search']);
    const db = api.server.database.db;
    // Four rows share each change time, so pages end inside ties on updated_at.
    const times = ['2026-01-01T10:00:00Z', '2026-01-02T10:00:00.123456Z', '2026-01-03T10:00:00Z'];
    for (let i = 0; i < 24; i++) {
      const familyName = NAMES[i % NAMES.length] ?? null;
      const status = i === 23 ? 'DELETED' : i % 3 === 0 ? 'GRANTED' : 'SUBMITTED';
      const row = await allTables(db)
        .insertInto('document')
        .values({
          type: TYPE,
          status,
          version: 1,
          owner: `applicant-${i}`,
          number: i % 4 === 0 ? null : `VA-2026-${String(i).padStart(5, '0')}`,
          data: JSON.stringify({ applicant: familyName === null ? {} : { familyName } }),
          created_by: 'test',
          updated_by: 'test',
          updated_at: times[i % times.length]!,
        })
        .returning(['id', 'number', 'updated_at'])
        .executeTakeFirstOrThrow();
      seeded.push({
        id: row.id,
        familyName,
        number: row.number,
        updatedAt: times[i % times.length]!,
        status,
      });
    }
  });
  afterAll(async () => api?.close());

  const shown = () => seeded.filter((row) => row.status !== 'DELETED');
  const byId = (a: Seeded, b: Seeded) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  it('gives every row once, in order, across cursor pages, through ties on the change time', async () => {
    const expected = shown()
      .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || -byId(a, b))
      .map((row) => row.id);
    expect(await walk({})).toEqual(expected);
  });

  it('pages by cursor on a name (case-insensitive, absent first) and on a number (nulls last descending)', async () => {
    const folded = (row: Seeded) => (row.familyName ?? '').toLowerCase();
    const byName = shown()
      .sort((a, b) => (folded(a) < folded(b) ? -1 : folded(a) > folded(b) ? 1 : byId(a, b)))
      .map((row) => row.id);
    expect(await walk({ sort: [{ field: 'familyName', direction: 'asc' }] })).toEqual(byName);
    const number = (row: Seeded) => row.number ?? '';
    const byNumber = shown()
      .sort((a, b) => {
        if (a.number === null || b.number === null)
          return a.number === b.number ? -byId(a, b) : a.number === null ? 1 : -1;
        return number(a) < number(b) ? 1 : number(a) > number(b) ? -1 : -byId(a, b);
      })
      .map((row) => row.id);
    expect(await walk({ sort: [{ field: 'number', direction: 'desc' }] })).toEqual(byNumber);
  });

  it('still pages by offset, and a cursor page starts where the offset page would', async () => {
    const first = await page({ list: 'find', options: { page: 1, itemsPerPage: 4 } });
    const second = await page({ list: 'find', options: { page: 2, itemsPerPage: 4 } });
    const byCursor = await page({
      list: 'find',
      options: { page: 2, itemsPerPage: 4, cursor: first.nextCursor },
    });
    expect(byCursor.items.map((item) => item.id)).toEqual(second.items.map((item) => item.id));
  });

  it('refuses a page by number past the rows a search may skip, and serves it by cursor', async () => {
    // Eight rows may be skipped (the test server's SEARCH_MAX_OFFSET): page 3 of 4 rows is the last.
    await page({ list: 'find', options: { page: 3, itemsPerPage: 4 } });
    const refused = await api.call('PATCH', SEARCH, {
      token,
      body: { list: 'find', options: { page: 4, itemsPerPage: 4 } },
      headers: { 'accept-language': 'fr' },
    });
    expect(refused.statusCode).toBe(400);
    const { error } = refused.json();
    expect(error.code).toBe('PAGE_TOO_DEEP');
    expect(error.message).toContain('Affinez la recherche');
    expect(error.message).toContain('8 premiers résultats');
    expect(error.fields[0]).toMatchObject({ path: '/options/page', rule: 'pageTooDeep' });
    // The same page, reached from the one before it, is served.
    const third = await page({ list: 'find', options: { page: 3, itemsPerPage: 4 } });
    const fourth = await page({
      list: 'find',
      options: { page: 4, itemsPerPage: 4, cursor: third.nextCursor },
    });
    expect(fourth.items).toHaveLength(4);
  });

  it('refuses a tampered or foreign cursor with a 400 naming it', async () => {
    const first = await page({ list: 'find', options: { itemsPerPage: 4 } });
    const cursor = first.nextCursor!;
    const payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const forged = (change: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...payload, ...change })).toString('base64url');
    const refused = [
      `${cursor.slice(0, -3)}!!!`,
      'bm90IGpzb24',
      forged({ v: ['2026-02-30T10:00:00+00:00'] }),
      forged({ v: ['not a time'] }),
      forged({ v: [] }),
      forged({ id: "x' or 1=1 --" }),
      forged({ s: 'familyName:asc' }),
      'A'.repeat(5000),
    ];
    for (const bad of refused) {
      const response = await search({ list: 'find', options: { itemsPerPage: 4, cursor: bad } });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().error.fields[0]).toMatchObject({ path: '/options/cursor' });
    }
    // A cursor belongs to its sort: another sort refuses it.
    const other = await search({
      list: 'find',
      options: { cursor, sort: [{ field: 'familyName', direction: 'asc' }] },
    });
    expect(other.statusCode).toBe(400);
  });

  it('counts exactly up to the limit, and says "more than" past it', async () => {
    // 23 documents shown, 5 counted (the test server's SEARCH_EXACT_COUNT_LIMIT).
    const all = await page({ list: 'find', options: { itemsPerPage: 4 } });
    expect(all).toMatchObject({ total: 5, totalIsLowerBound: true });
    const granted = await page({
      list: 'find',
      filter: [
        { field: 'status', criterion: 'equals', value: 'GRANTED' },
        { field: 'number', criterion: 'startsWith', value: 'VA-2026-0000' },
      ],
      options: { itemsPerPage: 4 },
    });
    // GRANTED with a number below 10: documents 3, 6 and 9.
    expect(granted).toMatchObject({ total: 3, totalIsLowerBound: false });
    // A condition on the data counts to a hundredth of the limit (each counted row is read).
    const smiths = await page({
      list: 'find',
      filter: [{ field: 'familyName', criterion: 'equals', value: 'Smith' }],
      options: { itemsPerPage: 4 },
    });
    expect(smiths).toMatchObject({ total: 1, totalIsLowerBound: true, nextCursor: null });
    expect(smiths.items).toHaveLength(2);
  });

  it('matches names case-insensitively, taking % and _ literally', async () => {
    const names = async (criterion: string, value: string) => {
      const answer = await page({
        list: 'find',
        filter: [{ field: 'familyName', criterion, value }],
        options: { itemsPerPage: 50, sort: [{ field: 'familyName', direction: 'asc' }] },
      });
      return [...new Set(answer.items.map((item) => item.fields.familyName))];
    };
    expect(await names('startsWith', 'tU')).toEqual(['Tuala', 'Tuilagi', 'tupou', 'TURNER', 'Tux']);
    expect(await names('startsWith', 'T_')).toEqual(['T_x']);
    expect(await names('contains', '%')).toEqual(['Ta%ble']);
    expect(await names('contains', 'ALA')).toEqual(['Tuala']);
    expect(await names('endsWith', 'TU')).toEqual(['Atu']);
    expect(await names('startsWith', 'ÉMI')).toEqual(['Émile']);
    expect(await names('equals', 'Tuala')).toEqual(['Tuala']);
    expect(await names('equals', 'tuala')).toEqual([]);
  });

  it('has the declared indexes after start, and the finder queries use them', async () => {
    const db = api.server.database.db;
    const declared = declaredListIndexes(api.server.definitions.workflows)
      .filter((i) => i.kind === 'index')
      .map((i) => i.name);
    const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes
      where schemaname = current_schema() and tablename = 'document'`.execute(db);
    const present = new Set(rows.map((r) => r.indexname));
    expect(declared.filter((name) => !present.has(name))).toEqual([]);

    // Twenty thousand rows more, so an index is worth reading at all.
    await sql`insert into document (type, status, version, owner, data, created_by, updated_by,
        updated_at)
      select ${TYPE}, case when g % 10 = 0 then 'GRANTED' else 'STORED' end, 1, 'owner-' || g,
        jsonb_build_object('applicant', jsonb_build_object('familyName', 'Name' || g)), 't', 't',
        timestamptz '2025-01-01' + g * interval '1 minute'
      from generate_series(1, 20000) g`.execute(db);
    // As autovacuum would: the trigram index's pending list merged, the statistics taken.
    await sql`vacuum analyze document`.execute(db);

    const fields = {
      ...HEADER_FIELDS,
      familyName: {
        kind: 'text' as const,
        sql: dataText('/applicant/familyName'),
        folded: foldedText('/applicant/familyName'),
      },
    };
    const scope = sql<boolean>`(type = ${TYPE} and status <> 'DELETED')`;
    const limits: SearchLimits = { maxItems: 100, exactCountLimit: 10 };
    const bodies = [
      {},
      { filter: [{ field: 'status', criterion: 'equals', value: 'GRANTED' }] },
      {
        filter: [{ field: 'familyName', criterion: 'startsWith', value: 'name12' }],
        options: { sort: [{ field: 'familyName', direction: 'asc' }] },
      },
      { filter: [{ field: 'familyName', criterion: 'contains', value: 'ame19999' }] },
    ];
    await db.connection().execute(async (connection) => {
      const queries: RootOperationNode[] = [];
      const recorder: KyselyPlugin = {
        transformQuery: ({ node }) => (queries.push(node), node),
        transformResult: async ({ result }) => result,
      };
      for (const body of bodies)
        await searchRows(connection.withPlugin(recorder), body, fields, scope, limits, []);
      await sql`set enable_seqscan = off`.execute(connection);
      try {
        for (const node of queries) {
          const compiled = connection.getExecutor().compileQuery(node, { queryId: 'explain' });
          const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
          );
          const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(text, compiled.sql).not.toMatch(/Seq Scan on document/);
          // A page is found through a list index (a count of limit + 1 may take any index).
          if (compiled.sql.includes('page_id'))
            expect(text, compiled.sql).toMatch(/document_list_/);
        }
      } finally {
        await sql`reset enable_seqscan`.execute(connection);
      }
    });
  });
});
