import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/server/config';
import { SERVER_BUILD, sourceDigest } from '../../scripts/build';
import { copyPgliteTemplate } from './pglite-template';

/**
 * The portal as users run it: the compiled server (`dist/server/main.js`, as `npm start`
 * runs it) when that build is current, else `src/main.ts` through tsx, in its own process,
 * serving the built front end and its identity server, on an embedded database in a temporary folder, with the
 * demo accounts. Tests sign in for real (tests/support/e2e-accounts.ts).
 */
export interface PortalProcess {
  url: string;
  dataDir: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
  logs(): string;
}

/**
 * Where a start is placed: the shared portals (tests/support/shared-portal-setup.ts) start
 * outside any worker, on a port named to the files before the portal answers.
 */
export interface PortalStartOptions {
  /** The port to listen on (a free one when not given). */
  port?: number;
  /** The migrated PGlite folder to copy (the worker's provided one when not given). */
  pgliteTemplate?: string;
}

export async function startPortal(
  env: Record<string, string> = {},
  options: PortalStartOptions = {},
): Promise<PortalProcess> {
  // The build the portal will serve: STATIC_DIR when set (a build kept apart), else dist/portal.
  const staticDir = process.env.STATIC_DIR ?? path.join(PROJECT_ROOT, 'dist/portal');
  if (!(await exists(path.join(staticDir, 'index.html')))) {
    throw new Error('The portal is not built: run `npm run build` before the end-to-end tests');
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-e2e-'));
  // The embedded database starts as the run's migrated template (no cluster to create); the
  // portal still checks its migrations, indexes the keys and seeds it as on a first run.
  if (!env.DATABASE_URL) await copyPgliteTemplate(path.join(dataDir, 'db'), options.pgliteTemplate);
  const port = options.port ?? (await freePort());
  const url = `http://localhost:${port}`;
  let output = '';
  let child: ChildProcess | undefined;

  const launch = async () => {
    child = spawn(process.execPath, await serverCommand(), {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataDir, 'db'),
        PUBLIC_URL: url,
        DEMO_DATA: 'true',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await waitForHealth(`${url}/api/health`, child, () => output);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await launch();
  return {
    url,
    dataDir,
    restart: async () => {
      await stop();
      await launch();
    },
    stop: async () => {
      await stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
    logs: () => output,
  };
}

export async function waitForHealth(
  url: string,
  child: ChildProcess,
  logs: () => string,
): Promise<void> {
  // Generous: a first start on a busy 2-core CI machine (migrations, seeds, definitions) has
  // taken over a minute; a portal that is merely slow must not fail the suite.
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The portal exited (${child.exitCode}):\n${logs()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The portal did not become healthy within 240 s:\n${logs()}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * The arguments that start the server: the compiled bundle when its stamp matches the sources
 * (`npm test` builds it first), so the tests run what production runs; else the sources, so a
 * test run after an edit never runs a stale build.
 */
export async function serverCommand(): Promise<string[]> {
  const stamp = await fs
    .readFile(path.join(PROJECT_ROOT, SERVER_BUILD.stamp), 'utf8')
    .then((s) => s.trim())
    .catch(() => '');
  return stamp && stamp === sourceDigest(SERVER_BUILD.sources, SERVER_BUILD.ignored)
    ? ['--enable-source-maps', path.join(PROJECT_ROOT, 'dist/server/main.js')]
    : ['--import', 'tsx', 'src/main.ts'];
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
