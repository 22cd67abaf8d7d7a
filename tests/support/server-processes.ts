import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { PROJECT_ROOT } from '../../src/server/config';
import { freePort, serverCommand, waitForHealth } from './portal-process';

/**
 * One server process of a deployment of several: the compiled server when its build is
 * current, else `src/main.ts` through tsx (as tests/support/portal-process.ts chooses), on the
 * configuration it is given (a shared DATABASE_URL, PUBLIC_URL...), on its own port.
 */
export interface ServerProcess {
  name: string;
  port: number;
  /** The process's own address, bypassing the load balancer. */
  url: string;
  /** Everything the process wrote (pino's JSON lines, start-up errors), this start and before. */
  logs(): string;
  /** Stops the process as an orchestrator does (SIGTERM, waits for it to exit), then starts it again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startServerProcess(
  name: string,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  let child: ChildProcess | undefined;
  const launch = async () => {
    const started = spawn(process.execPath, await serverCommand(), {
      cwd: PROJECT_ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    started.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await waitForHealth(`${url}/api/health`, started, () => `[${name}]\n${output}`);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await launch();
  return {
    name,
    port,
    url,
    logs: () => output,
    restart: async () => {
      await stop();
      await launch();
    },
    stop,
  };
}

/**
 * A load balancer in front of the processes, as a deployment has one: it forwards each request
 * to the next process in turn (no sticky sessions), or to the one an `x-backend` header names
 * (so a test can say which process serves a request), adds the client's address to
 * X-Forwarded-For as a proxy does, and names the process that answered in `x-served-by`.
 */
export interface LoadBalancer {
  url: string;
  close(): Promise<void>;
}

export async function startLoadBalancer(
  port: number,
  backends: readonly ServerProcess[],
): Promise<LoadBalancer> {
  let turn = 0;
  const server = http.createServer((request, response) => {
    const named = request.headers['x-backend'];
    const backend = backends.find((b) => b.name === named) ?? backends[turn++ % backends.length]!;
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: backend.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': forwardedFor },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          'x-served-by': backend.name,
        });
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      response.writeHead(502, { 'content-type': 'text/plain', 'x-served-by': backend.name });
      response.end(`${backend.name}: ${error.message}`);
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
