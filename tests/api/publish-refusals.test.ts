import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { personas, TYPE, VALID_DATA } from '../support/documents';
import { documentTypeFiles } from '../../src/core/studio/document-type-design';

/**
 * Each draft that once broke the service after a publish is refused, by Check and by Publish
 * alike (the same problems, naming file and pointer), and nothing is served or stored:
 * a workflow given another's route prefix (its "New" opened the other type's form), a rule
 * naming a catalogue that does not exist (every submission refused without a reason), and a
 * status nothing leads to and nothing leaves.
 */
const SETS = '/api/definitions/sets';
const SCHEMA = `schemas/${TYPE}.schema.json`;
const WORKFLOW = `workflows/${TYPE}.json`;

type Json = Record<string, unknown>;
type Problem = { file: string; pointer: string; message: string; key?: string };
type Files = Record<string, string>;

/** A breaking change of the newest files, and the problem each refusal must name. */
const BREAKING: Array<{
  name: string;
  change(files: Files): Files;
  expected: { file: string; pointer?: string; message: RegExp };
}> = [
  {
    name: "a workflow on another workflow's route prefix",
    change: (files) => {
      const workflow = JSON.parse(files[WORKFLOW]!) as Json;
      return { [WORKFLOW]: JSON.stringify({ ...workflow, prefix: '/sample/permit' }) };
    },
    expected: { file: WORKFLOW, message: /^the route \/sample\/permit\S* is already/ },
  },
  {
    name: 'a rule naming a catalogue that does not exist',
    change: (files) => {
      const entity = JSON.parse(files[SCHEMA]!) as { rules: Array<Json> };
      const rules = entity.rules.map((rule) =>
        rule.rule === 'catalogEntryExists' ? { ...rule, catalog: 'no-such-catalogue' } : rule,
      );
      return { [SCHEMA]: JSON.stringify({ ...entity, rules }) };
    },
    expected: { file: SCHEMA, message: /no-such-catalogue/ },
  },
  {
    name: 'a status nothing leads to and nothing leaves',
    change: (files) => {
      const workflow = JSON.parse(files[WORKFLOW]!) as { machine: { states: Json } };
      const machine = { ...workflow.machine, states: { ...workflow.machine.states, ORPHAN: {} } };
      return { [WORKFLOW]: JSON.stringify({ ...workflow, machine }) };
    },
    expected: { file: WORKFLOW, pointer: '/machine/states/ORPHAN', message: /./ },
  },
];

describe.each(databaseKinds())('drafts that would break the service, on %s', (kind) => {
  let api: ApiHarness;
  let definitions: Awaited<ReturnType<typeof definitionsWithFixtures>>;
  let publisher: string;
  let stored: { id: string; version: number };
  let owner: string;

  beforeAll(async () => {
    definitions = await definitionsWithFixtures();
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    owner = (await personas(api)).owner;
    publisher = await api.tokenFor(['definitions-publish'], { preferred_username: 'analyst' });
    // A stored document, so each verdict also reads what the service holds.
    const created = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: owner,
      body: { data: VALID_DATA },
    });
    expect(created.statusCode, created.body).toBe(201);
    stored = created.json() as { id: string; version: number };
  });
  afterAll(async () => {
    await api?.close();
    await definitions?.remove();
  });

  const newest = async () => {
    const history = (await api.call('GET', SETS, { token: publisher })).json() as {
      versions: [{ version: number }];
    };
    const version = history.versions[0].version;
    const set = (await api.call('GET', `${SETS}/${version}`, { token: publisher })).json() as {
      files: Files;
    };
    return { version, files: set.files };
  };

  it.each(BREAKING)('refuses $name in Check and Publish alike', async ({ change, expected }) => {
    const before = await newest();
    const draft = { base: before.version, changes: change(before.files) };
    const checked = await api.call('POST', `${SETS}/check`, {
      token: publisher,
      body: { ...draft, impact: true },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    const verdict = checked.json() as { valid: boolean; problems: Problem[] };
    expect(verdict.valid).toBe(false);
    const { message, ...place } = expected;
    expect(verdict.problems).toContainEqual(
      expect.objectContaining({ ...place, message: expect.stringMatching(message) as unknown }),
    );

    const published = await api.call('POST', SETS, {
      token: publisher,
      body: { ...draft, note: 'A breaking change' },
    });
    expect(published.statusCode, published.body).toBe(422);
    expect((published.json() as { error: { problems: Problem[] } }).error.problems).toEqual(
      verdict.problems,
    );
    // A French analyst reads the same problems, at the same places, in French.
    const french = await api.call('POST', `${SETS}/check`, {
      token: publisher,
      headers: { locale: 'fr' },
      body: { ...draft, impact: true },
    });
    const inFrench = (french.json() as { problems: Problem[] }).problems;
    const placeAndKey = ({ file, pointer, key }: Problem) => ({ file, pointer, key });
    expect(inFrench.map(placeAndKey)).toEqual(verdict.problems.map(placeAndKey));
    const translated = inFrench.filter((p, i) => p.message !== verdict.problems[i]!.message);
    expect(translated.length).toBe(inFrench.length);
    const refusedInFrench = await api.call('POST', SETS, {
      token: publisher,
      headers: { locale: 'fr' },
      body: { ...draft, note: 'Un changement cassant' },
    });
    expect(refusedInFrench.statusCode).toBe(422);
    expect((refusedInFrench.json() as { error: { problems: Problem[] } }).error.problems).toEqual(
      inFrench,
    );

    // Nothing published, nothing stored changed.
    expect((await newest()).version).toBe(before.version);
    const document = await api.call('GET', `/api/evisa/${TYPE}/${stored.id}`, { token: owner });
    expect(document.json()).toMatchObject({ version: stored.version, data: VALID_DATA });
  });
});

describe.each(databaseKinds())('a restore that would hide stored documents, on %s', (kind) => {
  let api: ApiHarness;
  let publisher: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    publisher = await api.tokenFor(['definitions-publish'], { preferred_username: 'analyst' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('refuses to restore a version without a document type that now has documents', async () => {
    const history = (await api.call('GET', SETS, { token: publisher })).json() as {
      versions: [{ version: number }];
    };
    const without = history.versions[0].version;
    const set = (await api.call('GET', `${SETS}/${without}`, { token: publisher })).json() as {
      files: Files;
    };
    const files = new Map(Object.entries(set.files));
    // A type made as the studio's "New document type" makes it.
    const changes = documentTypeFiles(
      {
        id: 'appeal',
        titles: { en: 'Appeal', fr: 'Recours' },
        prefix: '/appeal',
        applicantRole: 'submit',
        officerRole: 'process',
      },
      { paths: [...files.keys()], file: (path) => files.get(path) },
    );
    const published = await api.call('POST', SETS, {
      token: publisher,
      body: { base: without, note: 'Appeals', changes },
    });
    expect(published.statusCode, published.body).toBe(201);
    const applicant = await api.tokenFor(['appeal-submit']);
    const appeal = await api.call('POST', '/api/evisa/appeal', {
      token: applicant,
      body: { data: {} },
    });
    expect(appeal.statusCode, appeal.body).toBe(201);

    const restored = await api.call('POST', `${SETS}/${without}/restore`, {
      token: publisher,
      headers: { locale: 'fr' },
      body: { base: without + 1, note: 'Back to before appeals' },
    });
    expect(restored.statusCode, restored.body).toBe(422);
    expect((restored.json() as { error: { problems: Problem[] } }).error.problems).toEqual([
      expect.objectContaining({
        file: 'workflows/appeal.json',
        key: 'removedTypeHasDocuments',
        message: expect.stringMatching(/^1 document enregistré est du type « appeal »/) as unknown,
      }),
    ]);
    // Nothing restored: appeals are still served, the appeal still read.
    const newest = (await api.call('GET', SETS, { token: publisher })).json() as {
      versions: [{ version: number }];
    };
    expect(newest.versions[0].version).toBe(without + 1);
    const id = (appeal.json() as { id: string }).id;
    expect(
      (await api.call('GET', `/api/evisa/appeal/${id}`, { token: applicant })).statusCode,
    ).toBe(200);
  });
});
