import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { personas, TYPE, VALID_DATA } from '../support/documents';

/**
 * A publish can never leave stored documents the service cannot act on: Check and Publish give
 * one verdict; a schema that stored documents would fail is refused, naming them, unless the
 * workflow's `dataMoves` make them valid, moved in the publish's transaction (all or none) with
 * a history line each; a restore takes the moves back.
 */
const SETS = '/api/definitions/sets';
const SCHEMA = `schemas/${TYPE}.schema.json`;
const WORKFLOW = `workflows/${TYPE}.json`;

type Stored = { id: string; version: number; status: string; number: string | null };
type Json = Record<string, unknown>;
type Problem = {
  file: string;
  pointer: string;
  message: string;
  key?: string;
  params?: Record<string, unknown>;
};

describe.each(databaseKinds())('a safe publish, on %s', (kind) => {
  let api: ApiHarness;
  let definitions: Awaited<ReturnType<typeof definitionsWithFixtures>>;
  let who: Awaited<ReturnType<typeof personas>>;
  let publisher: string;
  const base = `/api/evisa/${TYPE}`;

  beforeAll(async () => {
    definitions = await definitionsWithFixtures();
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    who = await personas(api);
    publisher = await api.tokenFor(['definitions-publish'], { preferred_username: 'analyst' });
  });
  afterAll(async () => {
    await api?.close();
    await definitions?.remove();
  });

  const newest = async () =>
    (
      (await api.call('GET', SETS, { token: publisher })).json() as {
        versions: [{ version: number }];
      }
    ).versions[0].version;
  const filesOf = async (version: number) =>
    (
      (await api.call('GET', `${SETS}/${version}`, { token: publisher })).json() as {
        files: Record<string, string>;
      }
    ).files;
  const read = async (id: string) =>
    (await api.call('GET', `${base}/${id}`, { token: who.owner })).json() as Stored & {
      data: Json;
    };

  /** The newest files with a required phone number, and `dataMoves` when given. */
  async function phoneRequired(dataMoves?: unknown[]) {
    const version = await newest();
    const files = await filesOf(version);
    const entity = JSON.parse(files[SCHEMA]!) as {
      schema: { properties: { applicant: { required: string[]; properties: Json } } };
    };
    const applicant = entity.schema.properties.applicant;
    applicant.properties.phone = { type: 'string', maxLength: 20 };
    applicant.required = [...applicant.required, 'phone'];
    const changes: Record<string, string> = { [SCHEMA]: JSON.stringify(entity) };
    for (const language of ['en', 'fr']) {
      const file = `translations/${language}/${TYPE}.json`;
      const texts = JSON.parse(files[file]!) as { applicant: Json };
      texts.applicant = { ...texts.applicant, phone: language === 'en' ? 'Phone' : 'Téléphone' };
      changes[file] = JSON.stringify(texts);
    }
    if (dataMoves) {
      const workflow = JSON.parse(files[WORKFLOW]!) as Json;
      changes[WORKFLOW] = JSON.stringify({ ...workflow, dataMoves });
    }
    return { base: version, changes };
  }

  const check = (draft: { base: number; changes: Json }) =>
    api.call('POST', `${SETS}/check`, { token: publisher, body: { ...draft, impact: true } });
  const publish = (draft: { base: number; changes: Json }, note: string) =>
    api.call('POST', SETS, { token: publisher, body: { ...draft, note } });

  let draft: Stored;
  let queued: Stored;

  it('refuses, in Check and Publish alike, a schema the stored documents would fail', async () => {
    const created = await api.call('POST', base, { token: who.owner, body: { data: VALID_DATA } });
    expect(created.statusCode, created.body).toBe(201);
    draft = created.json() as Stored;
    const other = (
      await api.call('POST', base, { token: who.owner, body: { data: VALID_DATA } })
    ).json() as Stored;
    const submitted = await api.call('POST', `${base}/${other.id}/actions/submit`, {
      token: who.owner,
      body: { version: other.version, data: VALID_DATA },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    queued = submitted.json() as Stored;

    const breaking = await phoneRequired();
    const checked = await check(breaking);
    expect(checked.statusCode, checked.body).toBe(200);
    const verdict = checked.json() as { valid: boolean; problems: Problem[] };
    expect(verdict.valid).toBe(false);
    expect(verdict.problems).toEqual([
      {
        file: SCHEMA,
        pointer: '/schema',
        key: 'storedDocumentsInvalid',
        params: expect.objectContaining({ document: TYPE }) as unknown,
        message: expect.stringMatching(
          new RegExp(
            `^1 of 2 stored documents of "${TYPE}" would be invalid: /applicant/phone \\(required, 1\\)`,
          ),
        ) as unknown,
      },
    ]);
    // The submitted one is named; the draft is checked as drafts are stored (no `required`).
    expect(verdict.problems[0]!.message).toContain(queued.number!);
    const refused = await publish(breaking, 'Phone required');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.problems).toEqual(verdict.problems);
    expect(await read(draft.id)).toMatchObject({ version: draft.version, data: VALID_DATA });
  });

  it('publishes with a data move: every document valid and actionable, each with a history line', async () => {
    const moving = await phoneRequired([{ setDefault: '/applicant/phone', value: 'unknown' }]);
    const checked = (await check(moving)).json() as { valid: boolean; migrations: unknown };
    expect(checked).toMatchObject({
      valid: true,
      migrations: [{ workflow: TYPE, checked: 2, moved: 2 }],
    });
    const published = await publish(moving, 'Phone required, given to the stored documents');
    expect(published.statusCode, published.body).toBe(201);
    expect(published.json().migrations).toEqual((checked as { migrations: unknown }).migrations);

    const moved = await read(draft.id);
    expect(moved).toMatchObject({ version: draft.version + 1, status: 'STORED' });
    expect(moved.data).toEqual({ applicant: { ...VALID_DATA.applicant, phone: 'unknown' } });
    const history = (
      await api.call('GET', `${base}/${draft.id}/history`, { token: who.owner })
    ).json() as Array<{ action: string }>;
    expect(history.at(-1)?.action).toBe('dataMoved');

    // The applicant saves their own draft; an officer queries the queued one.
    const saved = await api.call('PUT', `${base}/${draft.id}`, {
      token: who.owner,
      body: { version: moved.version, data: moved.data },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const current = await read(queued.id);
    const query = await api.call('POST', `${base}/${queued.id}/actions/query`, {
      token: who.officer,
      body: { version: current.version, notes: 'Please confirm your phone number' },
    });
    expect(query.statusCode, query.body).toBe(200);
    expect(query.json()).toMatchObject({ status: 'QUERIED' });
  });

  it('takes the whole publish back when one document cannot be moved, naming it', async () => {
    const before = await newest();
    const files = await filesOf(before);
    const workflow = JSON.parse(files[WORKFLOW]!) as { dataMoves: unknown[] };
    const failing = {
      base: before,
      changes: {
        [WORKFLOW]: JSON.stringify({
          ...workflow,
          dataMoves: [
            ...workflow.dataMoves,
            { setDefault: '/applicant/country', value: 'NZ' },
            { setDefault: '/decision/validFrom', value: '2020-01-01' },
          ],
        }),
      },
    };
    const saved = await read(draft.id);
    const refused = await publish(failing, 'A move with nowhere to go');
    expect(refused.statusCode).toBe(422);
    const problems = refused.json().error.problems as Problem[];
    expect(problems).toEqual([
      {
        file: WORKFLOW,
        pointer: '/dataMoves/2',
        key: 'dataMoveSetMissing',
        params: expect.objectContaining({
          field: '/decision/validFrom',
          at: '/decision',
          count: 2,
        }) as unknown,
        message: expect.stringContaining(
          'cannot set /decision/validFrom: /decision is missing',
        ) as unknown,
      },
    ]);
    expect(problems[0]!.message).toContain(queued.number!);
    expect(problems[0]!.message).toContain(draft.id);
    expect((await check(failing)).json().problems).toEqual(problems);
    // Nothing moved: not even the country the first moves would have given.
    expect(await read(draft.id)).toEqual(saved);
    expect(await newest()).toBe(before);
  });

  it('gives the documents their data back when the version before the move is restored', async () => {
    const newestVersion = await newest();
    const restored = await api.call('POST', `${SETS}/${newestVersion - 1}/restore`, {
      token: publisher,
      body: { base: newestVersion, note: 'Back to no phone' },
    });
    expect(restored.statusCode, restored.body).toBe(201);
    for (const id of [draft.id, queued.id]) {
      const document = await read(id);
      expect(document.data).toEqual(VALID_DATA);
      const history = (
        await api.call('GET', `${base}/${id}/history`, { token: who.owner })
      ).json() as Array<{ action: string }>;
      expect(history.at(-1)?.action).toBe('dataRestored');
    }
    expect((await read(queued.id)).status).toBe('QUERIED');
  });
});
