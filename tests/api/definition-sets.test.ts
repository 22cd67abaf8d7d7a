import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDefinition, WorkflowDefinition } from '../../src/core/definitions/types';
import { serverModules } from '../../src/modules/server';
import { DEFINITIONS_VERSION_HEADER } from '../../src/core/api/definitions-version';
import { buildServer, type PortalServer } from '../../src/server/process';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { checkDefinitions } from '../../src/server/definitions/load';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures, readProjectJson } from '../support/definitions-dir';
import { personas, TYPE, VALID_DATA } from '../support/documents';
import { runNode } from '../support/run-node';

/**
 * Definitions as versioned data: the folder's files are version 1; a publish through the API is
 * checked as at start, recorded with who and why, and served at once with no restart; an
 * earlier version can be restored; two publishes from one version: one wins, the other is told
 * what it missed; a removed status holding documents needs a mapping, applied with the publish.
 */

const SETS = '/api/definitions/sets';
const ISLAND = 'catalogs/island.json';

type Summary = { version: number; source: string; note: string; publishedBy: string };

async function island(): Promise<CatalogDefinition> {
  return {
    ...(await readProjectJson<CatalogDefinition>('catalogs/country.json')),
    id: 'island',
    category: 'configuration',
    searcherRoles: 'island-read',
    managerRoles: 'island-manage',
  };
}

describe.each(databaseKinds())('published definitions on %s', (kind) => {
  let api: ApiHarness;
  let definitions: Awaited<ReturnType<typeof definitionsWithFixtures>>;
  let publisher: string;
  let manager: string;
  let who: Awaited<ReturnType<typeof personas>>;

  beforeAll(async () => {
    definitions = await definitionsWithFixtures();
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    publisher = await api.tokenFor(['definitions-publish'], { preferred_username: 'analyst' });
    manager = await api.tokenFor(['island-manage', 'island-read']);
    who = await personas(api);
  });
  afterAll(async () => {
    await api?.close();
    await definitions?.remove();
  });

  const versions = async () =>
    ((await api.call('GET', SETS, { token: publisher })).json() as { versions: Summary[] })
      .versions;
  const publish = (body: unknown, token = publisher) => api.call('POST', SETS, { token, body });
  const islandSearch = () =>
    api.call('PATCH', '/api/catalog/v1/island', { token: manager, body: {} });
  /** The test workflow's file text in the newest version, changed by `change`. */
  const changedWorkflow = async (change: (workflow: WorkflowDefinition) => void) => {
    const [newest] = await versions();
    const set = (
      await api.call('GET', `${SETS}/${newest!.version}`, { token: publisher })
    ).json() as { files: Record<string, string> };
    const workflow = JSON.parse(set.files[`workflows/${TYPE}.json`]!) as WorkflowDefinition;
    change(workflow);
    return { base: newest!.version, text: JSON.stringify(workflow, null, 2) };
  };

  it('records the folder as version 1, readable by publishers only', async () => {
    expect(await versions()).toEqual([
      expect.objectContaining({ version: 1, source: 'folder', publishedBy: 'deployment' }),
    ]);
    const files = (await api.call('GET', `${SETS}/1`, { token: publisher })).json() as {
      files: Record<string, string>;
    };
    expect(Object.keys(files.files)).toContain('workflows/visa-application.json');
    expect((await api.call('GET', SETS)).statusCode).toBe(401);
    expect((await api.call('GET', SETS, { token: manager })).statusCode).toBe(403);
    expect((await publish({ base: 1, note: 'x', changes: {} }, manager)).statusCode).toBe(403);
    expect((await api.call('GET', `${SETS}/99`, { token: publisher })).statusCode).toBe(404);
  });

  it('serves a published catalogue at once: searchable and validated, with no restart', async () => {
    expect((await islandSearch()).statusCode).toBe(404);
    const before = (await api.call('GET', '/api/definitions/index')).headers[
      DEFINITIONS_VERSION_HEADER
    ];
    const processes = () =>
      sql<{ id: string; digest: string }>`select id, definitions_digest as digest
        from server_process`
        .execute(api.server.database.db)
        .then((result) => result.rows);
    const [registered] = await processes();
    const published = await publish({
      base: 1,
      note: 'Islands for the ports of entry',
      changes: { [ISLAND]: JSON.stringify(await island()) },
    });
    expect(published.statusCode, published.body).toBe(201);
    expect(published.json()).toMatchObject({
      version: 2,
      source: 'publish',
      note: 'Islands for the ports of entry',
      publishedBy: 'analyst',
    });
    // Its roles now exist as records to grant, described from the texts; nobody holds them yet.
    const warnings = published.json().warnings as Array<{ file: string }>;
    expect(warnings.filter((warning) => warning.file === ISLAND)).toEqual(
      ['island-read', 'island-manage'].map((role) =>
        expect.objectContaining({
          file: ISLAND,
          message: `no access unit grants the role "${role}": nobody holds it`,
        }),
      ),
    );
    const roles = await api.tables
      .selectFrom('document')
      .select(sql<string>`data->'role'->>'roleDescription'`.as('description'))
      .where('type', '=', 'access-role')
      .where(sql`data->'role'->>'roleCode'`, 'in', ['island-read', 'island-manage'])
      .orderBy('description')
      .execute();
    expect(roles.map((r) => r.description)).toEqual([
      'Countries: create, change and delete entries',
      'Countries: search and read entries',
    ]);
    const index = await api.call('GET', '/api/definitions/index');
    expect(index.headers[DEFINITIONS_VERSION_HEADER]).not.toBe(before);
    // Still one process on the database, under its one row, serving the new set: it counts no
    // other (it once logged that processes ran different sets, naming its own earlier one).
    expect(await processes()).toEqual([
      { id: registered!.id, digest: index.headers[DEFINITIONS_VERSION_HEADER] },
    ]);
    expect(index.json().catalogs.map((c: { id: string }) => c.id)).toContain('island');
    expect((await islandSearch()).statusCode).toBe(200);
    const bad = await api.call('POST', '/api/catalog/v1/island', {
      token: manager,
      body: { code: 'R', name: 'Rarotonga', startTime: '2020-01-01T00:00:00Z' },
    });
    expect(bad.statusCode).toBe(400);
    const good = await api.call('POST', '/api/catalog/v1/island', {
      token: manager,
      body: { code: 'RA', name: 'Rarotonga', startTime: '2020-01-01T00:00:00Z' },
    });
    expect(good.statusCode, good.body).toBe(201);
  });

  it('exports a version back to a folder that the checker loads as it loads the repository', async () => {
    const { port } = await api.server.listen({ port: 0, host: '127.0.0.1' });
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'exported-'));
    try {
      const { code, out } = await runNode(
        ['--import', 'tsx', 'scripts/export-definitions.ts', folder],
        {
          PORTAL_URL: `http://127.0.0.1:${port}`,
          PORTAL_TOKEN: await api.tokenFor(['definitions-edit']),
        },
      );
      expect(out).toMatch(
        /^Version 2 \(Islands for the ports of entry, by analyst\): \d+ files written/m,
      );
      expect(code).toBe(0);
      const exported = await readDefinitionFiles(folder);
      const published = (await api.call('GET', `${SETS}/2`, { token: publisher })).json() as {
        files: Record<string, string>;
      };
      expect(Object.fromEntries(exported)).toEqual(published.files);
      const bundle = await checkDefinitions(exported, serverModules);
      expect(bundle.catalogs.map((c) => c.id)).toContain('island');
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses an invalid set naming every problem, and a stale base naming the newest', async () => {
    const catalogue = { ...(await island()), searcherRoles: 'Island Read' };
    const invalid = await publish({
      base: 2,
      note: 'A bad role',
      changes: { [ISLAND]: JSON.stringify(catalogue) },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error).toMatchObject({
      code: 'INVALID_DEFINITIONS',
      problems: [expect.objectContaining({ file: ISLAND, pointer: '/searcherRoles' })],
    });
    const stale = await publish({ base: 1, note: 'From an old copy', changes: {} });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'STALE_DEFINITIONS', current: 2 });
    expect((await versions()).map((v) => v.version)).toEqual([2, 1]);
    expect((await islandSearch()).statusCode).toBe(200);
  });

  it('restores an earlier version as the newest', async () => {
    const restored = await api.call('POST', `${SETS}/1/restore`, {
      token: publisher,
      body: { base: 2, note: 'Back to the deployment' },
    });
    expect(restored.statusCode, restored.body).toBe(201);
    expect(restored.json()).toMatchObject({ version: 3, source: 'restore' });
    expect((await islandSearch()).statusCode).toBe(404);
  });

  it('refuses a removed status that holds documents until it is mapped, then moves them', async () => {
    const created = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: who.owner,
      body: { data: VALID_DATA },
    });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json() as { id: string };
    /** STORED renamed CREATED, and the new status cannot be cancelled. */
    const rename = (workflow: WorkflowDefinition) => {
      const renamed = JSON.parse(
        JSON.stringify(workflow).replaceAll('"STORED"', '"CREATED"'),
      ) as WorkflowDefinition;
      const states = renamed.machine.states as Record<string, { on: Record<string, unknown> }>;
      delete states.CREATED!.on.cancel;
      Object.assign(workflow, renamed);
    };
    const unmapped = await changedWorkflow(rename);
    const refused = await publish({
      base: unmapped.base,
      note: 'Rename',
      changes: { [`workflows/${TYPE}.json`]: unmapped.text },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.problems).toEqual([
      {
        file: `workflows/${TYPE}.json`,
        pointer: '/machine/states',
        message:
          '1 document is in status "STORED", which the machine no longer has: keep the status, or map it to another in "statusMoves"',
        key: 'documentsInRemovedStatus',
        params: { count: 1, status: 'STORED' },
      },
    ]);
    const read = () => api.call('GET', `/api/evisa/${TYPE}/${draft.id}`, { token: who.owner });
    expect((await read()).json()).toMatchObject({ status: 'STORED', version: 1 });

    const mapped = await changedWorkflow((workflow) => {
      rename(workflow);
      workflow.statusMoves = { STORED: 'CREATED' };
    });
    const accepted = await publish({
      base: mapped.base,
      note: 'Rename, moving the drafts',
      changes: { [`workflows/${TYPE}.json`]: mapped.text },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const moved = (await read()).json();
    expect(moved).toMatchObject({ status: 'CREATED', version: 2 });
    // The new machine is enforced at once: a draft can no longer be cancelled.
    expect(moved.allowedActions).not.toContain('cancel');
    const cancel = await api.call('POST', `/api/evisa/${TYPE}/${draft.id}/actions/cancel`, {
      token: who.owner,
      body: { version: 2 },
    });
    expect(cancel.statusCode).toBeGreaterThanOrEqual(400);
    const history = (
      await api.call('GET', `/api/evisa/${TYPE}/${draft.id}/history`, { token: who.owner })
    ).json() as Array<{ operation: string }>;
    expect(history.map((h) => h.operation)).toEqual(['NEW -> STORED', 'STORED -> CREATED']);
  });

  it('checks a draft without publishing: its problems, the documents it would refuse, its preview', async () => {
    const check = (body: unknown, token = publisher) =>
      api.call('POST', `${SETS}/check`, { token, body });
    const before = (await versions()).map((v) => v.version);
    const base = before[0]!;
    expect((await check({ base, changes: {} }, manager)).statusCode).toBe(403);
    const bad = await check({
      base,
      changes: { [ISLAND]: JSON.stringify({ ...(await island()), searcherRoles: 'Island Read' }) },
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({
      valid: false,
      problems: [expect.objectContaining({ file: ISLAND, pointer: '/searcherRoles' })],
    });

    // A stored document of the test type, then a draft whose schema refuses its name.
    const stored = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: who.owner,
      body: { data: VALID_DATA },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const set = (await api.call('GET', `${SETS}/${base}`, { token: publisher })).json() as {
      files: Record<string, string>;
    };
    const file = `schemas/${TYPE}.schema.json`;
    const entity = JSON.parse(set.files[file]!) as {
      schema: { properties: { applicant: { properties: { name: { maxLength?: number } } } } };
    };
    entity.schema.properties.applicant.properties.name.maxLength = 1;
    // A preview's check does not read the stored documents; a check that asks does.
    const preview = await check({
      base,
      changes: { [file]: JSON.stringify(entity) },
      document: TYPE,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).not.toHaveProperty('impact');
    const checked = await check({
      base,
      changes: { [file]: JSON.stringify(entity) },
      document: TYPE,
      impact: true,
    });
    expect(checked.statusCode, checked.body).toBe(200);
    const result = checked.json() as {
      valid: boolean;
      version: string;
      impact: Array<{ document: string; invalid: number; fields: Array<{ pointer: string }> }>;
      document: { schema: { id: string }; translations: { en: object; fr: object } };
    };
    // A schema refusing stored documents is refused, naming them, as a publish refuses it.
    expect(result.valid).toBe(false);
    expect(result.impact).toEqual([
      expect.objectContaining({
        document: TYPE,
        invalid: expect.any(Number),
        fields: [expect.objectContaining({ pointer: '/applicant/name' })],
      }),
    ]);
    expect(result.impact[0]!.invalid).toBeGreaterThan(0);
    expect(result.document.schema.id).toBe(TYPE);
    // The draft's validator modules, as the browser imports them: compiled from the draft.
    const previews = `${SETS}/previews/${result.version}/validators`;
    const module = await api.call('GET', `${previews}/schema/${TYPE}.js`);
    expect(module.statusCode).toBe(200);
    expect(module.headers['content-type']).toContain('javascript');
    const section = await api.call('GET', `${previews}/schema/${TYPE}/applicant.js`);
    expect(section.statusCode).toBe(200);
    expect((await api.call('GET', `${previews}/catalog/country.js`)).statusCode).toBe(200);
    expect((await api.call('GET', `${previews}/catalog/nowhere.js`)).statusCode).toBe(404);
    expect(
      (await api.call('GET', `${SETS}/previews/0123456789abcdef/validators/schema/${TYPE}.js`))
        .statusCode,
    ).toBe(404);
    // Checking wrote nothing: no version more.
    expect((await versions()).map((v) => v.version)).toEqual(before);
  });

  // A deployment restarting the server on a changed folder used to record the folder as the
  // newest version, silently replacing what had been published in the studio since.
  it('keeps the published version when a restart finds the folder changed, and says so', async () => {
    const servedDigest = async () =>
      ((await api.call('GET', '/api/health')).json() as { definitions: { digest: string } })
        .definitions.digest;
    const [published] = await versions();
    expect(published!.source).not.toBe('folder');
    const before = await servedDigest();
    const country = await readProjectJson<CatalogDefinition>('catalogs/country.json');
    country.labels.en.title = 'Countries and territories';
    await definitions.write('catalogs/country.json', country);
    await api.restart();

    const answer = (await api.call('GET', SETS, { token: publisher })).json() as {
      versions: Summary[];
      folderConflict?: unknown;
    };
    expect(answer.versions[0]).toMatchObject({
      version: published!.version,
      source: published!.source,
    });
    expect(answer.folderConflict).toEqual({
      folderDigest: expect.stringMatching(/^[0-9a-f]{16}$/),
      importedVersion: 1,
      servedVersion: published!.version,
    });
    // Served is the published set, as before the restart, not the folder's files.
    expect(await servedDigest()).toBe(before);
  });
});

describe.runIf(databaseKinds().includes('postgres'))('a publish and two servers', () => {
  let api: ApiHarness;
  let other: PortalServer;

  beforeAll(async () => {
    api = await startApiServer('postgres');
    // A second server on the same schema, as a second process would be.
    other = await buildServer(api.config, serverModules, { jwks: api.issuer.jwks, logger: false });
  });
  afterAll(async () => {
    await other?.close();
    await api?.close();
  });

  // The other server hears the publish as it commits and compiles the set alongside the one
  // publishing: it served it 70 ms after the publish's answer on this machine, quiet. The bound
  // here is what a busy machine needs: the test says whether the switch happens, not how fast.
  it('serves the new set on both, with no restart', async () => {
    const catalogues = async (server: PortalServer): Promise<string[]> => {
      const index: LightMyRequestResponse = await server.app.inject({
        method: 'GET',
        url: '/api/definitions/index',
      });
      return (index.json() as { catalogs: Array<{ id: string }> }).catalogs.map((c) => c.id);
    };
    expect(await catalogues(other)).not.toContain('island');
    const token = await api.tokenFor(['definitions-publish']);
    const [newest] = ((await api.call('GET', SETS, { token })).json() as { versions: Summary[] })
      .versions;
    const published = await api.call('POST', SETS, {
      token,
      body: {
        base: newest!.version,
        note: 'Islands',
        changes: { [ISLAND]: JSON.stringify(await island()) },
      },
    });
    expect(published.statusCode, published.body).toBe(201);
    const at = Date.now();
    expect(await catalogues(api.server)).toContain('island');
    while (!(await catalogues(other)).includes('island')) {
      expect(Date.now() - at).toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
});
