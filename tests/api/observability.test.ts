import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { CodeFlow } from '../support/identity-client';
import { freePort } from '../support/identity-server';

/** The value of one series of a Prometheus text answer (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return 0;
}

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

describe.each(databaseKinds())('operations: metrics, request ids, health, traces (%s)', (kind) => {
  let api: ApiHarness;
  let collector: FastifyInstance;
  let publicUrl: string;
  let closed = false;
  const spans: ReceivedSpan[] = [];
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    // A stand-in OpenTelemetry collector: the OTLP/HTTP exporter posts its spans as JSON.
    collector = Fastify();
    collector.post('/v1/traces', async (request) => {
      const body = request.body as {
        resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      return {};
    });
    const collectorUrl = await collector.listen({ port: 0, host: '127.0.0.1' });
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    api = await startApiServer(
      kind,
      {
        publicUrl,
        tracing: { endpoint: `${collectorUrl}/v1/traces`, serviceName: 'portal-under-test' },
      },
      undefined,
      undefined,
      {
        logger: {
          level: 'info',
          stream: { write: (line: string) => logLines.push(JSON.parse(line)) },
        },
      },
    );
    await api.server.listen({ port, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    if (!closed) await api?.close();
    await collector?.close();
  });

  const scrape = async () => {
    const response = await fetch(`${publicUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  it('counts a request in the duration histogram by its route and status', async () => {
    const series = { method: 'GET', route: '/api/health', status_code: '200' };
    const before = sample(await scrape(), 'portal_http_request_duration_seconds_count', series);
    expect((await fetch(`${publicUrl}/api/health`)).status).toBe(200);
    const after = await scrape();
    expect(sample(after, 'portal_http_request_duration_seconds_count', series)).toBe(before + 1);
    expect(
      sample(after, 'portal_http_request_duration_seconds_bucket', { ...series, le: '+Inf' }),
    ).toBe(before + 1);
    // A document's address is counted under its route's pattern, not under its id.
    await fetch(`${publicUrl}/api/evisa/visa-application/${crypto.randomUUID()}`);
    const patterns = await scrape();
    expect(patterns).toContain('route="/api/evisa/:type/:id"');
    expect(patterns).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('answers the database, outbox, timer and definition figures', async () => {
    const text = await scrape();
    expect(
      sample(text, 'portal_db_query_duration_seconds_count', {
        operation: 'select',
        outcome: 'ok',
      }),
    ).toBeGreaterThan(0);
    if (kind === 'postgres')
      expect(sample(text, 'portal_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(text).toContain('portal_timers_due 0');
    expect(text).toContain(
      `portal_definitions_info{digest="${api.server.definitions.version}",set_version="1"} 1`,
    );
    expect(text).toContain('process_cpu_seconds_total');
    // A message waiting to be sent: the depth and the oldest's age.
    await api.tables
      .insertInto('outbox')
      .values({
        channel: 'email',
        recipient: 'waiting@example.org',
        subject: 'Waiting',
        body: 'A message waiting for its provider',
        created_at: new Date(Date.now() - 120_000),
      })
      .execute();
    const queued = await scrape();
    expect(sample(queued, 'portal_outbox_pending_messages')).toBe(1);
    expect(sample(queued, 'portal_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(119);
  });

  it('counts a refused sign-in by its reason', async () => {
    const reason = { reason: 'refused' };
    const before = sample(await scrape(), 'portal_sign_in_failures_total', reason);
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: 'applicant', password: 'not the password' });
    expect(flow.page).toContain('Invalid username or password.');
    const after = await scrape();
    expect(sample(after, 'portal_sign_in_failures_total', reason)).toBe(before + 1);
  });

  it('answers metrics to local addresses only, or to the configured token', async () => {
    const remote = await api.app.inject({ url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(remote.statusCode).toBe(403);
    const local = await api.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
  });

  it('names each request by an id in its answer and in every log line it writes', async () => {
    const given = await fetch(`${publicUrl}/api/health`, {
      headers: { 'x-request-id': 'probe-42' },
    });
    expect(given.headers.get('x-request-id')).toBe('probe-42');
    const made = await fetch(`${publicUrl}/api/health/ready`);
    const madeId = made.headers.get('x-request-id');
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
    // A header that is no plain token is not taken as an id (it would go into every line).
    const hostile = await fetch(`${publicUrl}/api/health`, {
      headers: { 'x-request-id': 'a b\u00e9<script>' },
    });
    expect(hostile.headers.get('x-request-id')).not.toContain('<');
    const lines = logLines.filter((line) => line.reqId === 'probe-42');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(logLines.some((line) => line.reqId === madeId)).toBe(true);
  });

  it('tells liveness apart from readiness', async () => {
    const live = await fetch(`${publicUrl}/api/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${publicUrl}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', database: { status: 'up' } });
  });

  it('sends a trace of a request and its statements to the collector', async () => {
    const answered = await fetch(`${publicUrl}/api/health`, {
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(answered.status).toBe(200);
    // Closing sends what the batch still holds.
    await api.close();
    closed = true;
    const request = spans.find(
      (span) =>
        span.name === 'GET /api/health' &&
        span.traceId === '4bf92f3577b34da6a3ce929d0e0e4736' &&
        span.parentSpanId === '00f067aa0ba902b7',
    );
    expect(request, JSON.stringify(spans.map((span) => span.name))).toBeDefined();
    const statement = spans.find((span) => span.parentSpanId === request!.spanId);
    expect(statement?.name).toBe('db select');
    expect(statement?.traceId).toBe(request!.traceId);
  });
});
