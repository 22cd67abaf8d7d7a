/**
 * The processes the scale benchmark drives: the portal server (the production bundle when it
 * is built, else the sources through tsx) and the bare Fastify floor (bench/bare-fastify.ts).
 * Each runs in a process of its own, as in production; the load generator stays in the
 * benchmark's process.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/server/config';
import { cpuOf } from './cpu';

export interface RunningProcess {
  url: string;
  /** Milliseconds from spawning to the first healthy answer. */
  startup: number;
  /** CPU milliseconds the process had used by then (user and system). */
  startupCpu: number;
  /**
   * CPU milliseconds the process has used so far: what a measurement cost the server itself,
   * whatever else the machine was doing meanwhile.
   */
  cpu(): number;
  /** The end of what the process printed (its errors, when a request failed). */
  output(): string;
  stop(): Promise<void>;
}

const BUNDLE = path.join(PROJECT_ROOT, 'dist/server/main.js');
const BUILD_SCRIPT = path.join(PROJECT_ROOT, 'scripts/build.ts');

/**
 * Brings the server bundle up to date with the sources when the project builds one (the build
 * skips itself when its stamp matches), so the benchmark never measures yesterday's code.
 */
export function refreshBundle(): void {
  if (!fs.existsSync(BUILD_SCRIPT)) return;
  const build = spawnSync(process.execPath, [BUILD_SCRIPT, '--server', '--if-stale'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) {
    throw new Error(`The server build failed:\n${build.stdout}${build.stderr}`);
  }
}

/** How the portal is started: its bundle when `npm run build:server` made one. */
export function portalCommand(): { args: string[]; label: string } {
  if (fs.existsSync(BUNDLE)) return { args: [BUNDLE], label: 'node dist/server/main.js' };
  return { args: ['--import', 'tsx', 'src/main.ts'], label: 'node --import tsx src/main.ts' };
}

const children = new Set<ChildProcess>();
// A benchmark that fails half-way leaves no server behind.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function waitHealthy(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${url} exited with ${child.exitCode} before answering:\n${output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} did not answer within 10 minutes:\n${output()}`);
}

async function startProcess(
  args: string[],
  /** Variables to set; undefined removes one the benchmark's own environment has. */
  env: Record<string, string | undefined>,
  origin: string,
  healthPath: string,
): Promise<RunningProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: Object.fromEntries(
      Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined),
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitHealthy(`${origin}${healthPath}`, child, () => output);
  const startup = performance.now() - started;
  return {
    url: origin,
    startup,
    startupCpu: cpuOf(child.pid),
    cpu: () => cpuOf(child.pid),
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      children.delete(child);
    },
  };
}

export interface PortalDatabase {
  /** PostgreSQL: a connection string and the schema; PGlite: the data folder. */
  databaseUrl?: string;
  schema?: string;
  dataDir?: string;
}

/** Starts the portal on a database, with its demo accounts, and waits for /api/health. */
export function startPortal(
  port: number,
  database: PortalDatabase,
  /** More of the portal's environment (AUDIT_READS=false: reads not recorded). */
  extraEnv: Record<string, string> = {},
): Promise<RunningProcess> {
  const origin = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    PORT: String(port),
    PUBLIC_URL: origin,
    // Request logs would measure the terminal; warnings and errors still show.
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'true',
    DATABASE_URL: database.databaseUrl,
    DATABASE_SCHEMA: database.schema,
    DATA_DIR: database.dataDir,
    ...extraEnv,
  };
  return startProcess(portalCommand().args, env, origin, '/api/health');
}

/** Starts bench/bare-fastify.ts on the same PostgreSQL schema. */
export function startBareFastify(
  port: number,
  databaseUrl: string,
  schema: string,
): Promise<RunningProcess> {
  const origin = `http://127.0.0.1:${port}`;
  return startProcess(
    ['--import', 'tsx', 'bench/bare-fastify.ts'],
    { PORT: String(port), DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema },
    origin,
    '/hello',
  );
}
