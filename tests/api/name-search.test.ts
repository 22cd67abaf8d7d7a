import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { allTables } from '../support/all-tables';

const TYPE = 'visa-application';
const SEARCH = '/api/evisa/visa-application';

/** Applicants as officers meet them: spellings, marks, the ʻokina, hyphens, case. */
const PEOPLE = [
  { familyName: 'Tuilagi', givenName: 'Sione', status: 'QUERIED' },
  { familyName: 'Tuilaki', givenName: 'Mele', status: 'GRANTED' },
  { familyName: 'Tuilagisa', givenName: 'Ioane', status: 'GRANTED' },
  { familyName: 'Faʻamausili', givenName: 'Losa', status: 'GRANTED' },
  { familyName: 'FAAMAUSILI', givenName: 'Tavita', status: 'QUERIED' },
  { familyName: 'Smith', givenName: 'Éloïse', otherNames: 'Leota-Vai', status: 'GRANTED' },
  { familyName: 'Turner', givenName: 'Anne', status: 'GRANTED' },
  { familyName: 'Tuilagi', givenName: 'Ana', status: 'DELETED' },
];

describe.each(databaseKinds())('name search on a finder (%s)', (kind) => {
  let api: ApiHarness;
  let token: string;
  const ids = new Map<string, string>();

  const search = (body: Record<string, unknown>) =>
    api.call('PATCH', SEARCH, { token, body: { list: 'find', ...body } });
  const names = async (body: Record<string, unknown>) => {
    const response = await search(body);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as {
      items: Array<{ id: string; fields: { familyName?: string; givenName?: string } }>;
      nextCursor?: string | null;
    };
    return answer.items.map((item) => `${item.fields.familyName} ${item.fields.givenName}`);
  };

  beforeAll(async () => {
    api = await startApiServer(kind, { referenceData: false });
    token = await api.tokenFor(['visa-application-search']);
    for (const [i, person] of PEOPLE.entries()) {
      const { status, ...applicant } = person;
      const row = await allTables(api.server.database.db)
        .insertInto('document')
        .values({
          type: TYPE,
          status,
          version: 1,
          owner: `applicant-${i}`,
          data: JSON.stringify({ applicant }),
          created_by: 'test',
          updated_by: 'test',
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      ids.set(`${person.familyName} ${person.givenName}`, row.id);
    }
  });
  afterAll(async () => api?.close());

  it('finds a name written another way: another case, a mark, the ʻokina, a spelling taken alike', async () => {
    // g and k are alike (the list's `alike`): Tuilagi and Tuilaki are one name; the closest first.
    const tuilaki = await names({ name: 'tuilaki' });
    expect(tuilaki.slice(0, 2).sort()).toEqual(['Tuilagi Sione', 'Tuilaki Mele']);
    expect(tuilaki[2]).toBe('Tuilagisa Ioane');
    expect(tuilaki).not.toContain('Turner Anne');
    // A deleted document is never shown.
    expect(tuilaki).not.toContain('Tuilagi Ana');
    expect((await names({ name: 'Faamausili' })).sort()).toEqual([
      'FAAMAUSILI Tavita',
      'Faʻamausili Losa',
    ]);
    expect((await names({ name: "Fa'amausili" })).sort()).toEqual([
      'FAAMAUSILI Tavita',
      'Faʻamausili Losa',
    ]);
    // Given and other names are searched too; marks and hyphens do not matter.
    expect(await names({ name: 'eloise' })).toEqual(['Smith Éloïse']);
    expect(await names({ name: 'Leota Vai' })).toEqual(['Smith Éloïse']);
  });

  it("narrows with the finder's filters, and pages by number", async () => {
    expect(
      await names({
        name: 'Tuilagi',
        filter: [{ field: 'status', criterion: 'equals', value: 'QUERIED' }],
      }),
    ).toEqual(['Tuilagi Sione']);
    const first = await search({ name: 'tuilagi', options: { page: 1, itemsPerPage: 2 } });
    const second = await search({ name: 'tuilagi', options: { page: 2, itemsPerPage: 2 } });
    expect(first.json().nextCursor).toBeNull();
    const seen = [...first.json().items, ...second.json().items].map(
      (item: { id: string }) => item.id,
    );
    expect(new Set(seen).size).toBe(3);
  });

  it('refuses a name on a list without a name search, and one that is not a text', async () => {
    // The whole collection, searched without a list, offers no name search.
    const elsewhere = await api.call('PATCH', SEARCH, {
      token,
      body: { name: 'Tuilagi' },
      headers: { 'accept-language': 'fr' },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.fields[0]).toMatchObject({
      path: '/name',
      rule: 'nameSearchNotOffered',
      message: "Cette liste n'a pas de recherche par nom",
    });
    const number = await search({ name: 42 });
    expect(number.statusCode).toBe(400);
    expect(number.json().error.fields[0]).toMatchObject({ path: '/name', rule: 'type' });
    // A blank name searches nothing by name.
    expect(await names({ name: '  ', filter: [] })).toHaveLength(PEOPLE.length - 1);
  });

  it('is answered by the name index, closest first', async () => {
    const db = api.server.database.db;
    const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where tablename = 'document' and indexdef like '%gist_trgm_ops%'`.execute(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.indexdef).toContain("'{applicant,otherNames}'");
    await db.connection().execute(async (connection) => {
      await sql`set enable_seqscan = off`.execute(connection);
      try {
        const key = rows[0]!.indexdef.match(/USING gist \((.*) gist_trgm_ops\)/)![1]!;
        const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(
            `explain select id from document where type = '${TYPE}' and ${key} %> 'tuilaki'
              order by ${key} <->> 'tuilaki' limit 11`,
          ),
        );
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Index Scan using document_list_visa_application_/);
        expect(text).toMatch(/Order By/);
      } finally {
        await sql`reset enable_seqscan`.execute(connection);
      }
    });
  });
});
