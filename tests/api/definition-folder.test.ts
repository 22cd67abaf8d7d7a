import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import { serverModules } from '../../src/modules/server';
import { openDatabase } from '../../src/server/db/database';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { adoptFolder, setHistory } from '../../src/server/definitions/sets';
import { buildServer, type PortalServer } from '../../src/server/process';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';
import { runNode } from '../support/run-node';

/**
 * The definitions folder and the published versions never silently disagree: a start on a
 * changed folder that the studio published over shows the folder's files to publishers, who
 * take them (a publish) or keep the served version (recorded, so the next start is quiet);
 * a folder from another environment is imported as a checked publish; a publish from a single
 * process does not warn of other processes.
 */

const SETS = '/api/definitions/sets';
const FOLDER = `${SETS}/folder`;
const COUNTRY = 'catalogs/country.json';
/**
 * A restart compiles a set's validators and the import script loads and checks a whole set: on
 * a busy machine, minutes. The bound is not what is tested.
 */
const SLOW = 300_000;

type Summary = { version: number; source: string; note: string; publishedBy: string };
type History = { versions: Summary[]; folderConflict?: Record<string, unknown> };

describe.each(databaseKinds())(
  'the definitions folder against published versions on %s',
  (kind) => {
    let api: ApiHarness;
    let folder: Awaited<ReturnType<typeof copyDefinitions>>;
    let publisher: string;
    let editor: string;
    let country: CatalogDefinition;

    beforeAll(async () => {
      folder = await copyDefinitions();
      api = await startApiServer(kind, { definitionsDir: folder.dir });
      publisher = await api.tokenFor(['definitions-publish'], { preferred_username: 'analyst' });
      editor = await api.tokenFor(['definitions-edit']);
      country = await readProjectJson<CatalogDefinition>(COUNTRY);
    });
    afterAll(async () => {
      await api?.close();
      await folder?.remove();
    });

    const history = async () =>
      (await api.call('GET', SETS, { token: publisher })).json() as History;
    const servedFiles = async (version: number) =>
      (
        (await api.call('GET', `${SETS}/${version}`, { token: publisher })).json() as {
          files: Record<string, string>;
        }
      ).files;
    /** The studio publishes a title, then the deployment's folder changes another way. */
    const conflictWith = async (studioTitle: string, folderTitle: string) => {
      const [newest] = (await history()).versions;
      const published = await api.call('POST', SETS, {
        token: publisher,
        body: {
          base: newest!.version,
          note: `Title ${studioTitle}`,
          changes: { [COUNTRY]: JSON.stringify(titled(studioTitle), null, 2) },
        },
      });
      expect(published.statusCode, published.body).toBe(201);
      await folder.write(COUNTRY, titled(folderTitle));
      await api.restart();
      return (published.json() as Summary).version;
    };
    const titled = (title: string): CatalogDefinition => ({
      ...country,
      labels: { ...country.labels, en: { ...country.labels.en, title } },
    });

    it('answers nothing to settle while the folder and the versions agree', async () => {
      expect((await history()).folderConflict).toBeUndefined();
      expect((await api.call('GET', FOLDER, { token: publisher })).statusCode).toBe(404);
    });

    it(
      "shows the folder's files during a conflict, to publishers and editors only",
      async () => {
        const served = await conflictWith('Countries (studio)', 'Countries (folder)');
        const { folderConflict } = await history();
        expect(folderConflict).toMatchObject({ importedVersion: 1, servedVersion: served });
        const answer = await api.call('GET', FOLDER, { token: editor });
        expect(answer.statusCode, answer.body).toBe(200);
        const body = answer.json() as { files: Record<string, string>; servedVersion: number };
        expect(body).toMatchObject(folderConflict!);
        expect(JSON.parse(body.files[COUNTRY]!)).toEqual(titled('Countries (folder)'));
        expect(Object.keys(body.files).sort()).toEqual(
          Object.keys(await servedFiles(served)).sort(),
        );
        expect((await api.call('GET', FOLDER)).statusCode).toBe(401);
        const stranger = await api.tokenFor(['country-read']);
        expect((await api.call('GET', FOLDER, { token: stranger })).statusCode).toBe(403);
      },
      SLOW,
    );

    it(
      "takes the folder's files by publishing them: the conflict ends, and stays ended",
      async () => {
        const { folderConflict } = await history();
        const folderFiles = (
          (await api.call('GET', FOLDER, { token: publisher })).json() as {
            files: Record<string, string>;
          }
        ).files;
        const served = await servedFiles(folderConflict!.servedVersion as number);
        const changes = Object.fromEntries(
          Object.entries(folderFiles).filter(([path, text]) => served[path] !== text),
        );
        expect(Object.keys(changes)).toEqual([COUNTRY]);
        const taken = await api.call('POST', SETS, {
          token: publisher,
          body: { base: folderConflict!.servedVersion, note: "The folder's files", changes },
        });
        expect(taken.statusCode, taken.body).toBe(201);
        expect((await history()).folderConflict).toBeUndefined();
        expect((await api.call('GET', FOLDER, { token: publisher })).statusCode).toBe(404);
        const index = await api.call('GET', '/api/catalog/country', { token: publisher });
        expect(index.statusCode).toBeLessThan(500);
        // Published over again in the studio, the same folder at the next start is known: quiet.
        const [newest] = (await history()).versions;
        const later = await api.call('POST', SETS, {
          token: publisher,
          body: {
            base: newest!.version,
            note: 'Later',
            changes: { [COUNTRY]: JSON.stringify(titled('Countries (later)')) },
          },
        });
        expect(later.statusCode, later.body).toBe(201);
        await api.restart();
        const after = await history();
        expect(after.folderConflict).toBeUndefined();
        expect(after.versions[0]!.note).toBe('Later');
      },
      SLOW,
    );

    it(
      'keeps the published version: recorded, the conflict ends, the next start serves it',
      async () => {
        const served = await conflictWith('Countries (kept)', 'Countries (dropped)');
        const refused = await api.call('POST', `${FOLDER}/keep`, {
          token: editor,
          body: { base: served, note: 'Ours' },
        });
        expect(refused.statusCode).toBe(403);
        const stale = await api.call('POST', `${FOLDER}/keep`, {
          token: publisher,
          body: { base: served - 1, note: 'Ours' },
        });
        expect(stale.statusCode).toBe(409);
        expect(stale.json().error).toMatchObject({ code: 'STALE_DEFINITIONS', current: served });
        const kept = await api.call('POST', `${FOLDER}/keep`, {
          token: publisher,
          body: { base: served, note: '  The studio’s title stays  ' },
        });
        expect(kept.statusCode, kept.body).toBe(201);
        expect(kept.json()).toMatchObject({
          version: served + 2,
          source: 'restore',
          note: 'The studio’s title stays',
          publishedBy: 'analyst',
        });
        const { versions, folderConflict } = await history();
        expect(folderConflict).toBeUndefined();
        expect(versions.slice(0, 2)).toEqual([
          expect.objectContaining({ version: served + 2, source: 'restore' }),
          expect.objectContaining({
            version: served + 1,
            source: 'folder',
            publishedBy: 'deployment',
          }),
        ]);
        // The kept files are served; the folder's were recorded as they were found.
        expect(await servedFiles(served + 2)).toEqual(await servedFiles(served));
        expect(JSON.parse((await servedFiles(served + 1))[COUNTRY]!)).toEqual(
          titled('Countries (dropped)'),
        );
        expect((await api.call('GET', FOLDER, { token: publisher })).statusCode).toBe(404);
        await api.restart();
        const restarted = await history();
        expect(restarted.folderConflict).toBeUndefined();
        expect(restarted.versions[0]!.version).toBe(served + 2);
        const keepAgain = await api.call('POST', `${FOLDER}/keep`, {
          token: publisher,
          body: { base: served + 2, note: 'Again' },
        });
        expect(keepAgain.statusCode).toBe(404);
      },
      SLOW,
    );
  },
);

describe.each(databaseKinds())('importing a folder of definitions on %s', (kind) => {
  let database: TestDatabase;
  let folder: Awaited<ReturnType<typeof copyDefinitions>>;

  beforeAll(async () => {
    folder = await copyDefinitions();
    database = await createTestDatabase(kind);
    // The environment as a first start leaves it: its own folder recorded as version 1.
    const handle = await open();
    await adoptFolder(handle.db, await readDefinitionFiles(folder.dir));
    await handle.close();
  });
  afterAll(async () => {
    await database?.cleanup();
    await folder?.remove();
  });

  const open = () =>
    openDatabase({
      databaseUrl: database.databaseUrl,
      schema: database.schema,
      dataDir: database.dataDir,
    });
  const versions = async () => {
    const handle = await open();
    try {
      return await setHistory(handle.db);
    } finally {
      await handle.close();
    }
  };
  const importFolder = (...args: string[]) =>
    runNode(['--import', 'tsx', 'scripts/import-definitions.ts', folder.dir, ...args], {
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl ?? '',
      DATABASE_SCHEMA: database.schema ?? '',
    });

  it(
    'refuses an invalid folder listing every problem, changing nothing',
    async () => {
      const country = await readProjectJson<CatalogDefinition>(COUNTRY);
      await folder.write(COUNTRY, { ...country, searcherRoles: 'Country Read' });
      await folder.write('workflows/broken.json', '{ not json');
      const { code, stderr } = await importFolder('--note', 'From test');
      expect(code).toBe(1);
      expect(stderr).toMatch(/^Refused, nothing imported: \d+ problem/m);
      expect(stderr).toContain(`${COUNTRY}#/searcherRoles`);
      expect(stderr).toContain('workflows/broken.json#');
      expect((await versions()).map((v) => v.version)).toEqual([1]);
    },
    SLOW,
  );

  it(
    'asks for a note',
    async () => {
      const { code, stderr } = await importFolder();
      expect(code).toBe(2);
      expect(stderr).toContain('usage:');
    },
    SLOW,
  );

  it(
    'publishes a valid folder as the newest version, with its note and who imported it',
    async () => {
      const country = await readProjectJson<CatalogDefinition>(COUNTRY);
      country.labels.en.title = 'Countries (from test)';
      await folder.write(COUNTRY, country);
      await import('node:fs/promises').then((fs) =>
        fs.rm(`${folder.dir}/workflows/broken.json`, { force: true }),
      );
      const { code, out } = await importFolder('--note', 'Tested in test', '--by', 'operator');
      expect(out).toMatch(/^Version 2 \(Tested in test, by operator\): \d+ files imported/m);
      expect(code).toBe(0);
      expect(await versions()).toEqual([
        expect.objectContaining({
          version: 2,
          source: 'publish',
          note: 'Tested in test',
          publishedBy: 'operator',
        }),
        expect.objectContaining({ version: 1, source: 'folder' }),
      ]);
      const handle = await open();
      try {
        const { newestSet } = await import('../../src/server/definitions/sets');
        const newest = await newestSet(handle.db);
        expect(JSON.parse(newest!.files.get(COUNTRY)!)).toEqual(country);
      } finally {
        await handle.close();
      }
    },
    SLOW,
  );
});

describe.each(databaseKinds())('a publish from a single process on %s', (kind) => {
  let api: ApiHarness;
  let server: PortalServer | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    api = await startApiServer(kind);
    // The same database and configuration, under a server whose log the test reads.
    await api.server.close();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    server = await buildServer(api.config, serverModules, {
      jwks: api.issuer.jwks,
      logger: { level: 'info', stream },
    });
  });
  afterAll(async () => {
    await server?.close();
    await api?.database.cleanup();
  });

  it(
    'does not warn that other processes run a different definition set',
    async () => {
      const token = await api.tokenFor(['definitions-publish']);
      const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
        server!.app.inject({
          method,
          url,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          payload: body === undefined ? undefined : JSON.stringify(body),
        });
      const [newest] = ((await call('GET', SETS)).json() as History).versions;
      const country = await readProjectJson<CatalogDefinition>(COUNTRY);
      for (const [index, title] of ['Countries (one)', 'Countries (two)'].entries()) {
        const published = await call('POST', SETS, {
          base: newest!.version + index,
          note: title,
          changes: {
            [COUNTRY]: JSON.stringify({
              ...country,
              labels: { ...country.labels, en: { ...country.labels.en, title } },
            }),
          },
        });
        expect(published.statusCode, published.body).toBe(201);
      }
      // The publishes were logged (the log is read), and no warning of other processes.
      expect(lines.join('')).toContain('"statusCode":201');
      expect(lines.join('')).not.toMatch(/different definition sets/);
    },
    SLOW,
  );
});
