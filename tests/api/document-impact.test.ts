import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionBundle, JsonSchema } from '../../src/core/definitions/types';
import { serverModules } from '../../src/modules/server';
import { documentImpact } from '../../src/server/definitions/document-impact';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { checkDefinitions } from '../../src/server/definitions/load';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { personas, TYPE } from '../support/documents';

/**
 * Before a publish, the analyst sees which stored documents the next schemas refuse: per changed
 * type, how many documents were checked, how many fail, and where. A draft is checked as a
 * store checks it (no `required`), a document a submission has written against the whole
 * schema; a schema that did not change is not reported, and nothing is written.
 */

type Stored = { id: string; version: number; status: string; number: string | null };
type Schema = JsonSchema & {
  properties: Record<string, JsonSchema & { properties: Record<string, JsonSchema> }>;
};
type EntityFile = { schema: Schema };
type Texts = Record<string, Record<string, unknown>>;
type Edit = (files: Map<string, string>) => void;

/** A change to one definition file, made to its JSON. */
function edit<T>(file: string, change: (json: T) => T): Edit {
  return (files) => files.set(file, JSON.stringify(change(JSON.parse(files.get(file)!) as T)));
}

/** A change to a document type's schema file. */
const editSchema = (id: string, change: (entity: EntityFile) => EntityFile) =>
  edit(`schemas/${id}.schema.json`, change);

describe.each(databaseKinds())('the documents a schema change refuses, on %s', (kind) => {
  let api: ApiHarness;
  let definitions: Awaited<ReturnType<typeof definitionsWithFixtures>>;
  let who: Awaited<ReturnType<typeof personas>>;
  const base = `/api/evisa/${TYPE}`;

  beforeAll(async () => {
    definitions = await definitionsWithFixtures();
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    who = await personas(api);
  });
  afterAll(async () => {
    await api?.close();
    await definitions?.remove();
  });

  const applicant = (name: string) => ({ name, email: 'ana@example.org' });

  async function store(data: Record<string, unknown>): Promise<Stored> {
    const created = await api.call('POST', base, { token: who.owner, body: { data } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as Stored;
  }

  async function act(document: Stored, action: string, body: object = {}): Promise<Stored> {
    const done = await api.call('POST', `${base}/${document.id}/actions/${action}`, {
      token: who.owner,
      body: { version: document.version, ...body },
    });
    expect(done.statusCode, done.body).toBe(200);
    return done.json() as Stored;
  }

  /** The definitions as served, with `edits` made to their files. */
  async function nextBundle(...edits: Edit[]): Promise<DefinitionBundle> {
    const files = await readDefinitionFiles(definitions.dir);
    for (const change of edits) change(files);
    return checkDefinitions(files, serverModules);
  }

  /** Everything stored about documents, as one comparable value. */
  async function documentsDigest() {
    const { rows } = await sql<{ documents: string; versions: string; history: string }>`
      select
        (select md5(coalesce(string_agg(
          id::text || status || version || data::text || updated_at::text, ',' order by id), ''))
          from document) as documents,
        (select count(*)::text from document_version) as versions,
        (select count(*)::text from document_history) as history`.execute(api.server.database.db);
    return rows[0];
  }

  it('counts the stored documents the next schema refuses, field by field', async () => {
    // A draft with too long a name and too long question codes; a cancelled draft that is
    // valid but for a required field; a submitted document; a submitted one then cancelled.
    const draft = await store({
      applicant: applicant('Ana Applicant'),
      questions: [
        { code: 'Q1', answer: true },
        { code: 'Q2', answer: null },
      ],
    });
    const cancelledDraft = await act(await store({ applicant: applicant('Ana') }), 'cancel');
    const storedToSubmit = await store({ applicant: applicant('Ana Applicant') });
    const submitted = await act(storedToSubmit, 'submit', {
      data: { applicant: applicant('Ana Applicant') },
    });
    const withFee = { applicant: applicant('Ana'), fees: { total: '25.00' } };
    const awaitingPayment = await act(await store(withFee), 'submit', { data: withFee });
    expect(awaitingPayment.status).toBe('SUBMITTED');
    const withdrawn = await act(awaitingPayment, 'cancel');
    expect([draft, cancelledDraft, submitted, withdrawn].map((d) => d.status)).toEqual([
      'STORED',
      'CANCELLED',
      'SUBMITTED FOR VERIFICATION',
      'CANCELLED',
    ]);

    const current = api.server.definitions;
    const samplePermits = await api.tables
      .selectFrom('document')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('type', '=', 'sample-permit')
      .executeTakeFirstOrThrow();
    const next = await nextBundle(
      // A shorter name, a required phone number, one-letter question codes.
      editSchema(TYPE, (entity) => {
        const { applicant: person, questions } = entity.schema.properties;
        person!.properties.name = { ...person!.properties.name, maxLength: 10 };
        person!.properties.phone = { type: 'string', maxLength: 20 };
        person!.required = [...(person!.required as string[]), 'phone'];
        const item = questions!.items as Schema['properties'][string];
        item.properties.code = { ...item.properties.code, maxLength: 1 };
        return entity;
      }),
      ...['en', 'fr'].map((language) =>
        edit<Texts>(`translations/${language}/${TYPE}.json`, (texts) => ({
          ...texts,
          applicant: { ...texts.applicant, phone: 'Phone' },
        })),
      ),
      // Only the order of its keys changes: the same schema.
      editSchema('access-role', (entity) => ({
        ...entity,
        schema: Object.fromEntries(Object.entries(entity.schema).reverse()) as Schema,
      })),
      // A longer nationality refuses nothing, and is reported as checked.
      editSchema('sample-permit', (entity) => {
        const person = entity.schema.properties.applicant!;
        person.properties.nationality = { ...person.properties.nationality, maxLength: 4 };
        return entity;
      }),
    );
    const before = await documentsDigest();

    const impacts = await documentImpact(api.server.database.db, current, next);
    expect(impacts.map((impact) => impact.document)).toEqual(['sample-permit', TYPE]);
    expect(impacts[0]).toEqual({
      document: 'sample-permit',
      checked: Number(samplePermits.count),
      invalid: 0,
      fields: [],
      examples: [],
    });
    const refused = impacts[1]!;
    expect(refused).toMatchObject({
      document: TYPE,
      checked: 4,
      invalid: 3,
      fields: [
        { pointer: '/applicant/name', keyword: 'maxLength', count: 2 },
        { pointer: '/applicant/phone', keyword: 'required', count: 2 },
        { pointer: '/questions/*/code', keyword: 'maxLength', count: 1 },
      ],
    });
    // A document is named by its number once it has one.
    expect([...refused.examples].sort()).toEqual(
      [draft.id, submitted.number, withdrawn.number].sort(),
    );

    // Read in batches of one, the counts are the same; the examples stop at the limit.
    const batched = await documentImpact(api.server.database.db, current, next, {
      batchSize: 1,
      sampleLimit: 2,
    });
    expect(batched[1]).toEqual({ ...refused, examples: refused.examples.slice(0, 2) });

    // The same definitions change no schema; nothing was written.
    expect(await documentImpact(api.server.database.db, current, current)).toEqual([]);
    expect(await documentsDigest()).toEqual(before);
  });
});
