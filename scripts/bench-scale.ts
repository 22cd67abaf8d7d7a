/**
 * `npm run bench:scale`: the portal's API under load on a million visa applications in
 * PostgreSQL (and 100,000 in the embedded PGlite): every list of the visa workflow and the
 * finder's filters, writes, a document read beside a bare Fastify floor, catalogue options and
 * start-up time, against the goals of docs/performance.md ("Scale"). Not part of `npm test`.
 *
 * Steps: seeds the data when the schema (or PGlite folder) does not hold it yet (one
 * INSERT ... SELECT over generate_series, scripts/bench-scale/seed.ts), starts the portal on it
 * as production does (`node dist/server/main.js` when built, else the sources through tsx),
 * signs the demo personas in through the built-in identity server, and measures each case with
 * autocannon from this process; the portal, PostgreSQL and the bare floor run in their own.
 *
 * Options: --quick (shorter measurements), --record (rewrites the results block of
 * docs/performance.md), --reseed (writes the data again), --skip-pglite, --database URL
 * (default postgres://postgres@127.0.0.1:5432/bench), --schema NAME (bench_scale),
 * --rows N (1,000,000), --pglite-rows N (100,000), --write-rate N (requests per second of the
 * fixed-rate writes; default half of what the closed-loop writes reached), --reads-only (the
 * document read alone, on PostgreSQL: audited, not audited and the bare floors; docs/audit.md).
 *
 * The read is measured with the audit on (every officer's read is a line of the trail, the
 * default) and on a second portal process on the same data with AUDIT_READS=false, in turns.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PROJECT_ROOT } from '../src/server/config';
import { visaApplication } from '../tests/support/visa-data';
import {
  combine,
  load,
  loadAtRate,
  quantile,
  type LoadRequest,
  type LoadResult,
} from './bench-scale/load';
import { DatabaseCpu } from './bench-scale/cpu';
import { Sessions, type Persona } from './bench-scale/personas';
import {
  portalCommand,
  refreshBundle,
  startBareFastify,
  startPortal,
  type PortalDatabase,
  type RunningProcess,
} from './bench-scale/processes';
import { LATENCY_HEADER, count, latencyCells, ms, rate, table } from './bench-scale/report';
import { recordResults } from './bench-record';
import { VISA_TYPE, countApplications, seedApplications } from './bench-scale/seed';

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
    reseed: { type: 'boolean', default: false },
    'skip-pglite': { type: 'boolean', default: false },
    database: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/bench' },
    schema: { type: 'string', default: 'bench_scale' },
    rows: { type: 'string', default: '1000000' },
    'pglite-rows': { type: 'string', default: '100000' },
    'write-rate': { type: 'string' },
    port: { type: 'string', default: '8391' },
    'reads-only': { type: 'boolean', default: false },
    'seed-only': { type: 'boolean', default: false },
    'searches-only': { type: 'boolean', default: false },
  },
});
const ROWS = Number(options.rows);
const PGLITE_ROWS = Number(options['pglite-rows']);
const SCHEMA = options.schema;
const DATABASE_URL = options.database;
const PORT = Number(options.port);
/** Seconds per measurement: lists and reads; writes run twice as long. */
const SECONDS = options.quick ? 2 : 5;
const WRITE_SECONDS = options.quick ? 5 : 10;
/** The read and its two floors are measured in turns, this many times each. */
const READ_ROUNDS = 3;
const PGLITE_DIR = path.join(os.tmpdir(), 'immigration-bench-scale', `pglite-${PGLITE_ROWS}`);
const BASE = `/api/evisa/${VISA_TYPE}`;
const OFFICERS: Persona[] = ['verifier', 'validator', 'approver'];

const log = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// Definitions read at run time: the workflow's lists and the search protocol's paging.

interface ListDefinition {
  id: string;
  roles: string[];
  status?: string[];
  assignment?: string;
}

async function visaLists(): Promise<{ lists: ListDefinition[]; rolePrefix: string }> {
  const file = path.join(PROJECT_ROOT, 'workflows', `${VISA_TYPE}.json`);
  const workflow = JSON.parse(await fs.readFile(file, 'utf8')) as {
    lists: ListDefinition[];
    rolePrefix: string;
  };
  return workflow;
}

/** Whether the search protocol pages by cursor (`options.cursor`, answered `nextCursor`). */
async function cursorPaging(): Promise<boolean> {
  const protocol = await fs.readFile(
    path.join(PROJECT_ROOT, 'src/core/search/protocol.ts'),
    'utf8',
  );
  return /\bcursor\?:/.test(protocol) && /\bnextCursor\?:/.test(protocol);
}

// ---------------------------------------------------------------------------------------------
// Searches

interface SearchBody {
  list: string;
  filter?: { field: string; criterion: string; value?: string; valueTo?: string }[];
  /** A name searched in the list's name search (closest first). */
  name?: string;
  options: { page?: number; itemsPerPage: number; cursor?: string };
}

interface SearchAnswer {
  items: { id: string }[];
  total: number;
  totalIsLowerBound?: boolean;
  nextCursor?: string | null;
}

interface SearchCase {
  name: string;
  persona: Persona;
  body: SearchBody;
  /** The status the portal answers by design (a page too deep is refused): not an error. */
  refusedWith?: number;
}

async function call<T>(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: T; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (!response.ok)
    throw new Error(`${init.method} ${url}: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, body: JSON.parse(text) as T, ms: elapsed };
}

async function search(
  portal: RunningProcess,
  sessions: Sessions,
  persona: Persona,
  body: SearchBody,
): Promise<{ answer: SearchAnswer; ms: number }> {
  const { body: answer, ms: elapsed } = await call<SearchAnswer>(`${portal.url}${BASE}`, {
    method: 'PATCH',
    headers: await sessions.headers(persona),
    body: JSON.stringify(body),
  });
  return { answer, ms: elapsed };
}

/**
 * How long to run: `SECONDS`, unless one request takes so long that too few would finish; then
 * a number of requests (at least two per connection), so slow cases still report percentiles.
 */
function runLength(latency: number, connections: number): { duration?: number; amount?: number } {
  const perSecond = (1000 / latency) * Math.min(connections, os.cpus().length);
  if (perSecond * SECONDS >= 20) return { duration: SECONDS };
  const affordable = Math.floor(perSecond * 60);
  return { amount: Math.max(connections, Math.min(Math.max(10, 2 * connections), affordable)) };
}

/** Where a measurement's CPU is counted: the server's process and, on PostgreSQL, its backends. */
interface Meter {
  server: RunningProcess;
  database?: DatabaseCpu;
}

/** A measurement with the CPU it cost the server, the database and autocannon per request. */
async function metered<T extends LoadResult>(meter: Meter, measure: () => Promise<T>): Promise<T> {
  const server = meter.server.cpu();
  const database = await meter.database?.snapshot();
  const generator = process.cpuUsage();
  const result = await measure();
  const { user, system } = process.cpuUsage(generator);
  const generatorCpu = (user + system) / 1000 / result.count;
  const serverCpu = (meter.server.cpu() - server) / result.count;
  const databaseCpu =
    meter.database && database ? (await meter.database.since(database)) / result.count : undefined;
  return {
    ...result,
    serverCpu,
    generatorCpu,
    ...(databaseCpu === undefined ? {} : { databaseCpu }),
  };
}

interface SearchRow {
  name: string;
  persona: Persona;
  total: string;
  connections: number;
  result: LoadResult;
}

/** Each case at one and at ten connections, after a few requests that warm its plan. */
async function measureSearches(
  portal: RunningProcess,
  sessions: Sessions,
  cases: readonly SearchCase[],
  database?: DatabaseCpu,
): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  for (const item of cases) {
    let first: SearchAnswer | undefined;
    let latency = Infinity;
    try {
      for (let i = 0; i < 3 && !item.refusedWith; i++) {
        const { answer, ms: elapsed } = await search(portal, sessions, item.persona, item.body);
        first = answer;
        latency = Math.min(latency, elapsed);
      }
    } catch (error) {
      // Measured all the same: its errors are the finding.
      log(`  warning: ${item.name}: ${(error as Error).message}`);
      latency = 1000;
    }
    if (item.refusedWith) latency = 10;
    const total = item.refusedWith
      ? `refused (${item.refusedWith})`
      : first
        ? `${first.totalIsLowerBound ? '> ' : ''}${count(first.total)}`
        : '-';
    if (first?.items.length === 0) log(`  warning: ${item.name} answers no rows`);
    for (const connections of [1, 10]) {
      const headers = await sessions.headers(item.persona);
      const result = await metered({ server: portal, database }, () =>
        load({
          url: `${portal.url}${BASE}`,
          connections,
          ...runLength(latency, connections),
          request: { method: 'PATCH', headers, body: JSON.stringify(item.body) },
        }),
      );
      if (item.refusedWith) {
        // Only another status than the refusal's counts as an error.
        const expected = result.statuses[String(item.refusedWith)] ?? 0;
        result.non2xx -= expected;
        delete result.statuses[String(item.refusedWith)];
        if (expected === 0) log(`  warning: ${item.name} was never refused`);
      }
      log(
        `  ${item.name.padEnd(42)} c=${String(connections).padEnd(2)} p50 ${ms(result.p50)} p95 ${ms(result.p95)} ms, ${rate(result.rps)}/s, errors ${result.errors + result.non2xx}, CPU ms/req portal ${result.serverCpu?.toFixed(1) ?? '-'} db ${result.databaseCpu?.toFixed(1) ?? '-'}`,
      );
      rows.push({ name: item.name, persona: item.persona, total, connections, result });
    }
  }
  return rows;
}

/** The persona holding one of the list's roles (officers only: the lists are theirs). */
async function officerOf(
  sessions: Sessions,
  list: ListDefinition,
  rolePrefix: string,
): Promise<Persona> {
  for (const persona of OFFICERS) {
    const token = await sessions.token(persona);
    const groups = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
      .groups ?? []) as string[];
    if (list.roles.some((role) => groups.includes(rolePrefix + role))) return persona;
  }
  throw new Error(`No demo officer holds a role of the list ${list.id}`);
}

/** Follows `nextCursor` from the first page until `depth` rows are behind (or time is up). */
async function deepCursor(
  portal: RunningProcess,
  sessions: Sessions,
  depth: number,
): Promise<{ cursor: string; depth: number } | undefined> {
  const deadline = Date.now() + 240_000;
  let cursor: string | undefined;
  let behind = 0;
  while (behind < depth && Date.now() < deadline) {
    const itemsPerPage = Math.min(1000, depth - behind);
    let answer: SearchAnswer;
    try {
      ({ answer } = await search(portal, sessions, 'verifier', {
        list: 'find',
        options: { itemsPerPage, ...(cursor ? { cursor } : { page: 1 }) },
      }));
    } catch (error) {
      log(`  warning: no deep cursor: ${(error as Error).message}`);
      return undefined;
    }
    if (!answer.nextCursor) break;
    cursor = answer.nextCursor;
    behind += answer.items.length;
  }
  return cursor ? { cursor, depth: behind } : undefined;
}

async function searchCases(
  portal: RunningProcess,
  sessions: Sessions,
  rows: number,
): Promise<SearchCase[]> {
  const { lists, rolePrefix } = await visaLists();
  const firstPage = { page: 1, itemsPerPage: 10 };
  const cases: SearchCase[] = [];
  for (const list of lists) {
    cases.push({
      name: `list ${list.id}${list.id === 'find' ? ' (unfiltered page 1)' : ''}`,
      persona: await officerOf(sessions, list, rolePrefix),
      body: { list: list.id, options: firstPage },
    });
  }
  const finder = (name: string, body: Omit<SearchBody, 'list'>): SearchCase => ({
    name,
    persona: 'verifier',
    body: { list: 'find', ...body },
  });
  // Half way down the finder: page 50,000 of ten rows at a million.
  const deepPage = Math.round(rows / 20);
  cases.push(
    finder('status = GRANTED', {
      filter: [{ field: 'status', criterion: 'equals', value: 'GRANTED' }],
      options: firstPage,
    }),
    finder('family name starts with "Tu"', {
      filter: [{ field: 'familyName', criterion: 'startsWith', value: 'Tu' }],
      options: firstPage,
    }),
    finder('family name contains "son"', {
      filter: [{ field: 'familyName', criterion: 'contains', value: 'son' }],
      options: firstPage,
    }),
    finder('status = QUERIED, family name starts with "Tu"', {
      filter: [
        { field: 'status', criterion: 'equals', value: 'QUERIED' },
        { field: 'familyName', criterion: 'startsWith', value: 'Tu' },
      ],
      options: firstPage,
    }),
    finder('name search "Tuilaki" (closest first)', { name: 'Tuilaki', options: firstPage }),
    finder('owner name contains "vai"', {
      filter: [{ field: 'ownerName', criterion: 'contains', value: 'vai' }],
      options: firstPage,
    }),
    finder('submitted within one month', {
      filter: [
        {
          field: 'submittedAt',
          criterion: 'between',
          value: '2024-03-01T00:00:00Z',
          valueTo: '2024-03-31T23:59:59.999Z',
        },
      ],
      options: firstPage,
    }),
    {
      ...finder(`page ${count(deepPage)} by offset`, {
        options: { page: deepPage, itemsPerPage: 10 },
      }),
      refusedWith: 400,
    },
  );
  if (await cursorPaging()) {
    const deep = await deepCursor(portal, sessions, (deepPage - 1) * 10);
    if (deep) {
      cases.push(
        finder(`page after ${count(deep.depth)} rows by cursor`, {
          options: { itemsPerPage: 10, cursor: deep.cursor },
        }),
      );
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Writes, reads, catalogue options

/** Each connection creates an application, then updates it at the version it got back. */
function writeSequence(headers: Record<string, string>, created: { count: number }): LoadRequest[] {
  const data = visaApplication('VIS', 'VV30');
  const createBody = JSON.stringify({ action: 'store', data });
  const changed = JSON.stringify({ ...data, applicant: { ...data.applicant, givenName: 'Losa' } });
  return [
    {
      method: 'POST',
      path: BASE,
      headers,
      body: createBody,
      onResponse: (status, body, context) => {
        if (status !== 201) return;
        const document = JSON.parse(body) as { id: string; version: number };
        context.id = document.id;
        context.version = document.version;
        created.count += 1;
      },
    },
    {
      method: 'PUT',
      headers,
      setupRequest: (request, context) => {
        if (typeof context.id !== 'string') return null;
        const next = {
          ...request,
          path: `${BASE}/${context.id}`,
          body: `{"version":${String(context.version)},"data":${changed}}`,
        };
        delete context.id;
        return next;
      },
    },
  ];
}

type WriteResult = LoadResult & { applications: number };

interface WriteRows {
  closed: WriteResult;
  /** The same rate twice: autocannon's overallRate (bursts) and evenly spread. */
  rate: number;
  overallRate: WriteResult & { connections: number };
  spread: WriteResult & { connections: number };
}

async function measureWrites(
  portal: RunningProcess,
  sessions: Sessions,
  database: DatabaseCpu,
): Promise<WriteRows> {
  const headers = await sessions.headers('applicant');
  const run = async <T extends LoadResult>(
    name: string,
    measure: (requests: LoadRequest[]) => Promise<T>,
  ): Promise<T & WriteResult> => {
    const created = { count: 0 };
    const result = await metered({ server: portal, database }, () =>
      measure(writeSequence(headers, created)),
    );
    log(
      `  writes, ${name}: p95 ${ms(result.p95)} ms, ${rate(result.rps)} req/s, errors ${result.errors + result.non2xx}`,
    );
    return { ...result, applications: created.count / result.duration };
  };
  const duration = WRITE_SECONDS;
  const closed = await run('200 connections', (requests) =>
    load({ url: portal.url, connections: 200, duration, requests }),
  );
  const fixedRate = options['write-rate']
    ? Number(options['write-rate'])
    : Math.max(10, Math.floor(closed.rps / 2 / 10) * 10);
  const overallRate = await run(`overallRate ${fixedRate}/s`, async (requests) => ({
    ...(await load({
      url: portal.url,
      connections: 200,
      duration,
      overallRate: fixedRate,
      requests,
    })),
    // autocannon opens no more connections than requests per second.
    connections: Math.min(200, fixedRate),
  }));
  const spread = await run(`${fixedRate}/s spread evenly`, (requests) =>
    loadAtRate({ url: portal.url, rate: fixedRate, duration, requests }),
  );
  return { closed, rate: fixedRate, overallRate, spread };
}

interface ReadRows {
  /** The officer's read, recorded in the audit trail (the default). */
  ours: LoadResult;
  /** The same read on a portal whose reads are not recorded (AUDIT_READS=false). */
  unaudited: LoadResult;
  barePg: LoadResult;
  hello: LoadResult;
  catalogue: LoadResult;
}

async function measureReads(
  portal: RunningProcess,
  sessions: Sessions,
  documentId: string,
  database: DatabaseCpu,
): Promise<ReadRows> {
  const connections = 50;
  const bare = await startBareFastify(PORT + 1, DATABASE_URL, SCHEMA);
  // The same portal on the same data, its reads not recorded: what the audit costs.
  const quiet = await startPortal(
    PORT + 2,
    { databaseUrl: DATABASE_URL, schema: SCHEMA },
    { AUDIT_READS: 'false' },
  );
  const quietSessions = new Sessions(quiet.url);
  try {
    const get = (server: RunningProcess, url: string, headers: Record<string, string> = {}) =>
      metered({ server, database }, () =>
        load({ url, connections, duration: SECONDS, request: { method: 'GET', headers } }),
      );
    // Each once first: the first request of a route compiles what later ones reuse.
    const verifier = await sessions.headers('verifier');
    await call(`${portal.url}${BASE}/${documentId}`, { method: 'GET', headers: verifier });
    await call(`${bare.url}/document/${documentId}`, { method: 'GET', headers: {} });
    const quietVerifier = await quietSessions.headers('verifier');
    await call(`${quiet.url}${BASE}/${documentId}`, { method: 'GET', headers: quietVerifier });
    // In turns, so a change in what else the machine runs weighs on all of them alike.
    const runs: Record<'ours' | 'unaudited' | 'barePg' | 'hello', LoadResult[]> = {
      ours: [],
      unaudited: [],
      barePg: [],
      hello: [],
    };
    for (let round = 0; round < READ_ROUNDS; round++) {
      runs.ours.push(await get(portal, `${portal.url}${BASE}/${documentId}`, verifier));
      runs.unaudited.push(await get(quiet, `${quiet.url}${BASE}/${documentId}`, quietVerifier));
      runs.barePg.push(await get(bare, `${bare.url}/document/${documentId}`));
      runs.hello.push(await get(bare, `${bare.url}/hello`));
    }
    const [ours, unaudited, barePg, hello] = [
      combine(runs.ours),
      combine(runs.unaudited),
      combine(runs.barePg),
      combine(runs.hello),
    ];
    const applicant = await sessions.headers('applicant');
    const catalogue = await get(
      portal,
      `${portal.url}/api/catalog/v1/country/options?search=sa`,
      applicant,
    );
    for (const [name, result] of Object.entries({ ours, unaudited, barePg, hello, catalogue })) {
      log(`  ${name.padEnd(10)} c=50 p95 ${ms(result.p95)} ms, ${rate(result.rps)}/s`);
    }
    return { ours, unaudited, barePg, hello, catalogue };
  } finally {
    await Promise.all([bare.stop(), quiet.stop()]);
  }
}

// ---------------------------------------------------------------------------------------------
// The databases

/** Creates the benchmark's database when missing. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

async function withPostgres<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: DATABASE_URL,
    options: `-c search_path="${SCHEMA}",public`,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The demo applicant's and verifier's subjects, from a first start of the portal. */
async function subjectsFrom(database: PortalDatabase) {
  const portal = await startPortal(PORT, database);
  try {
    const sessions = new Sessions(portal.url);
    return {
      applicant: await sessions.subject('applicant'),
      verifier: await sessions.subject('verifier'),
    };
  } finally {
    await portal.stop();
  }
}

/** Seconds the seeding took, or undefined when the schema already held the rows. */
async function preparePostgres(): Promise<number | undefined> {
  await ensureDatabase(DATABASE_URL);
  const present = await withPostgres(async (client) => {
    const { rows } = await client.query(`select to_regclass('document') is not null as ready`);
    return rows[0]?.ready ? countApplications(client) : 0;
  });
  if (present >= ROWS && !options.reseed) {
    log(`PostgreSQL ${SCHEMA}: ${count(present)} applications already there`);
    return undefined;
  }
  log(`PostgreSQL ${SCHEMA}: writing ${count(ROWS)} applications`);
  // A fresh schema: the portal's migrations make the tables, its demo data the accounts.
  await withPostgres((client) => client.query(`drop schema if exists "${SCHEMA}" cascade`));
  const subjects = await subjectsFrom({ databaseUrl: DATABASE_URL, schema: SCHEMA });
  const started = performance.now();
  await withPostgres(async (client) => {
    await seedApplications(client, ROWS, subjects);
    await client.query('vacuum (analyze) document');
  });
  const seconds = (performance.now() - started) / 1000;
  log(`  seeded and analysed in ${seconds.toFixed(0)} s`);
  return seconds;
}

async function openPglite(): Promise<PGlite> {
  return PGlite.create(PGLITE_DIR, { extensions: { btree_gist, pg_trgm } });
}

async function preparePglite(): Promise<number | undefined> {
  await fs.mkdir(PGLITE_DIR, { recursive: true });
  let present = 0;
  if ((await fs.readdir(PGLITE_DIR)).length > 0 && !options.reseed) {
    const db = await openPglite();
    try {
      const { rows } = await db.query<{ ready: boolean }>(
        `select to_regclass('document') is not null as ready`,
      );
      if (rows[0]?.ready) present = await countApplications(db);
    } finally {
      await db.close();
    }
  }
  if (present >= PGLITE_ROWS) {
    log(`PGlite ${PGLITE_DIR}: ${count(present)} applications already there`);
    return undefined;
  }
  log(`PGlite ${PGLITE_DIR}: writing ${count(PGLITE_ROWS)} applications`);
  await fs.rm(PGLITE_DIR, { recursive: true, force: true });
  const subjects = await subjectsFrom({ dataDir: PGLITE_DIR });
  const started = performance.now();
  const db = await openPglite();
  try {
    await seedApplications(db, PGLITE_ROWS, subjects);
    await db.query('vacuum (analyze) document');
  } finally {
    await db.close();
  }
  const seconds = (performance.now() - started) / 1000;
  log(`  seeded and analysed in ${seconds.toFixed(0)} s`);
  return seconds;
}

// ---------------------------------------------------------------------------------------------
// The run

interface DatabaseRun {
  seeding?: number;
  /** The first start of the run, which applies any migration the data has not had yet. */
  firstStart: number;
  firstStartCpu: number;
  /** A start on data already migrated: what a restart costs. */
  startup: number;
  startupCpu: number;
  searches: SearchRow[];
}

/** Starts the portal again on the same data and stops it: the time a restart takes. */
async function restart(database: PortalDatabase): Promise<{ startup: number; startupCpu: number }> {
  const portal = await startPortal(PORT, database);
  await portal.stop();
  log(`  restarted in ${ms(portal.startup)} ms (${ms(portal.startupCpu)} ms of CPU)`);
  return { startup: portal.startup, startupCpu: portal.startupCpu };
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  refreshBundle();
  const postgresSeeding = await preparePostgres();
  if (options['seed-only']) return;
  log(`Starting the portal (${portalCommand().label}) on PostgreSQL`);
  const onPostgres = { databaseUrl: DATABASE_URL, schema: SCHEMA };
  let portal = await startPortal(PORT, onPostgres);
  log(`  healthy after ${ms(portal.startup)} ms`);
  if (options['reads-only']) {
    try {
      const reads = await withPostgres(async (monitor) => {
        const sessions = new Sessions(portal.url);
        const granted = await search(portal, sessions, 'verifier', {
          list: 'find',
          filter: [{ field: 'status', criterion: 'equals', value: 'GRANTED' }],
          options: { page: 1, itemsPerPage: 1 },
        });
        const documentId = granted.answer.items[0]?.id;
        if (!documentId) throw new Error('No granted application to read');
        return measureReads(portal, sessions, documentId, new DatabaseCpu(monitor));
      });
      process.stdout.write(`\n${readsReport(reads)}\n`);
    } finally {
      await portal.stop();
    }
    return;
  }
  if (options['searches-only']) {
    // A quick look after changing the finders: the lists and filters on PostgreSQL, logged.
    try {
      await withPostgres(async (monitor) => {
        const sessions = new Sessions(portal.url);
        const cases = await searchCases(portal, sessions, ROWS);
        await measureSearches(portal, sessions, cases, new DatabaseCpu(monitor));
      });
    } finally {
      await portal.stop();
    }
    return;
  }
  let searches: SearchRow[];
  let writes: WriteRows;
  let reads: ReadRows;
  try {
    ({ searches, reads, writes } = await withPostgres(async (monitor) => {
      const database = new DatabaseCpu(monitor);
      const sessions = new Sessions(portal.url);
      const cases = await searchCases(portal, sessions, ROWS);
      const searches = await measureSearches(portal, sessions, cases, database);
      const granted = await search(portal, sessions, 'verifier', {
        list: 'find',
        filter: [{ field: 'status', criterion: 'equals', value: 'GRANTED' }],
        options: { page: 1, itemsPerPage: 1 },
      });
      const documentId = granted.answer.items[0]?.id;
      if (!documentId) throw new Error('No granted application to read');
      const reads = await measureReads(portal, sessions, documentId, database);
      const writes = await measureWrites(portal, sessions, database);
      return { searches, reads, writes };
    }));
  } catch (error) {
    log(`The portal printed:\n${portal.output()}`);
    throw error;
  } finally {
    await portal.stop();
  }
  const postgres: DatabaseRun = {
    seeding: postgresSeeding,
    firstStart: portal.startup,
    firstStartCpu: portal.startupCpu,
    ...(await restart(onPostgres)),
    searches,
  };

  let pglite: DatabaseRun | undefined;
  if (!options['skip-pglite']) {
    const pgliteSeeding = await preparePglite();
    log(`Starting the portal on PGlite`);
    portal = await startPortal(PORT, { dataDir: PGLITE_DIR });
    log(`  healthy after ${ms(portal.startup)} ms`);
    try {
      const sessions = new Sessions(portal.url);
      const cases = await searchCases(portal, sessions, PGLITE_ROWS);
      searches = await measureSearches(portal, sessions, cases);
    } catch (error) {
      log(`The portal printed:\n${portal.output()}`);
      throw error;
    } finally {
      await portal.stop();
    }
    pglite = {
      seeding: pgliteSeeding,
      firstStart: portal.startup,
      firstStartCpu: portal.startupCpu,
      ...(await restart({ dataDir: PGLITE_DIR })),
      searches,
    };
  }
  const text = await report({ postgres, writes, reads, pglite, loadBefore });
  process.stdout.write(`\n${text}\n`);
  if (options.record) await recordResults('bench:scale', text, false);
}

// ---------------------------------------------------------------------------------------------
// The report

const LIST_P95_GOAL = 60;
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const WRITE_P95_GOAL = 150;
const READ_SHARE_GOAL = 0.5;
/** Recording a read costs it at most this share of its throughput (docs/audit.md). */
const AUDIT_COST_GOAL = 0.1;

/** The audited read against the same read not recorded: the goal line and whether it is met. */
function auditGoal(reads: ReadRows): readonly [string, boolean] {
  const cost = 1 - reads.ours.rps / reads.unaudited.rps;
  return [
    `an audited read at most ${AUDIT_COST_GOAL * 100} % slower than the same read not recorded: ` +
      `${count(reads.ours.rps)} against ${count(reads.unaudited.rps)} req/s, ` +
      `${(cost * 100).toFixed(1)} % fewer; p95 ${ms(reads.ours.p95)} against ${ms(reads.unaudited.p95)} ms`,
    cost <= AUDIT_COST_GOAL,
  ] as const;
}

/** `--reads-only`: the document read, audited and not, beside the bare floors. */
function readsReport(reads: ReadRows): string {
  const goal = auditGoal(reads);
  const row = (name: string, result: LoadResult) => [
    name,
    ...latencyCells(result),
    `${((reads.ours.rps / result.rps) * 100).toFixed(0)} %`,
  ];
  return [
    `${goal[1] ? 'Met' : 'Missed'}: ${goal[0]}.`,
    '',
    table([
      ['read at 50 connections', ...LATENCY_HEADER, 'audited read as % of it'],
      row(`GET ${BASE}/{id} as the verifier, audited`, reads.ours),
      row(`the same, AUDIT_READS=false`, reads.unaudited),
      row('bare Fastify + pg, same row', reads.barePg),
      row('bare Fastify hello world', reads.hello),
    ]),
  ].join('\n');
}

function searchTable(rows: readonly SearchRow[]): string {
  return table([
    ['list or filter', 'as', 'rows', 'connections', ...LATENCY_HEADER],
    ...rows.map((row) => [
      row.name,
      row.persona,
      row.total,
      String(row.connections),
      ...latencyCells(row.result),
    ]),
  ]);
}

async function machine(): Promise<string> {
  const [{ server_version: version }, { shared_buffers: buffers }] = await withPostgres(
    async (client) => [
      (await client.query('show server_version')).rows[0] as { server_version: string },
      (await client.query('show shared_buffers')).rows[0] as { shared_buffers: string },
    ],
  );
  const pglite = JSON.parse(
    await fs.readFile(
      path.join(PROJECT_ROOT, 'node_modules/@electric-sql/pglite/package.json'),
      'utf8',
    ),
  ) as { version: string };
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return (
    `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GB, ` +
    `Node ${process.versions.node}, PostgreSQL ${version.split(' ')[0]} ` +
    `(shared_buffers ${buffers}), PGlite ${pglite.version}; server: \`${portalCommand().label}\``
  );
}

async function report(run: {
  postgres: DatabaseRun;
  writes: WriteRows;
  reads: ReadRows;
  pglite?: DatabaseRun;
  loadBefore: number;
}): Promise<string> {
  const { postgres, writes, reads, pglite } = run;
  const date = new Date().toISOString().slice(0, 10);
  const seeded = (seconds: number | undefined, rows: number) =>
    seconds === undefined
      ? `${count(rows)} applications seeded by an earlier run`
      : `${count(rows)} applications seeded in ${seconds.toFixed(0)} s`;
  const startups = (database: DatabaseRun) =>
    `start-up to a healthy /api/health ${ms(database.startup)} ms, ` +
    `${ms(database.startupCpu)} ms of the portal's CPU (the run's first start, which applies ` +
    `pending migrations: ${ms(database.firstStart)} ms, ${ms(database.firstStartCpu)} ms of CPU)`;
  const atTen = postgres.searches.filter((row) => row.connections === 10);
  const slow = atTen.filter((row) => !(row.result.p95 < LIST_P95_GOAL));
  const failures = [...postgres.searches, ...(pglite?.searches ?? [])].filter(
    (row) => row.result.errors + row.result.non2xx > 0,
  );
  const writeErrors = writes.closed.errors + writes.closed.non2xx;
  const share = reads.ours.rps / reads.barePg.rps;
  const littleLaw = 200 / writes.closed.rps;
  // Little's law: 200 connections always waiting answer with a mean of 200 / throughput.
  const neededRate = 200 / (WRITE_P95_GOAL / 1000);
  const goals = [
    [
      `lists and filters p95 < ${LIST_P95_GOAL} ms at 10 connections (PostgreSQL): ` +
        (slow.length === 0
          ? `slowest ${ms(Math.max(...atTen.map((row) => row.result.p95)))} ms`
          : `over it: ${slow.map((row) => `${row.name} ${ms(row.result.p95)} ms`).join(', ')}`) +
        `. Ten connections answered within ${LIST_P95_GOAL} ms need at least ` +
        `${count(10 / (LIST_P95_GOAL / 1000))} req/s (Little's law), at most ` +
        `${ms((os.cpus().length * 1000 * LIST_P95_GOAL) / 1000 / 10)} ms of CPU per request for ` +
        `everything on ${os.cpus().length} cores; the portal and PostgreSQL spent ` +
        `${ms(median(atTen.map((row) => (row.result.serverCpu ?? NaN) + (row.result.databaseCpu ?? NaN))))} ms ` +
        `(median of the cases)`,
      slow.length === 0,
    ],
    [
      `writes p95 < ${WRITE_P95_GOAL} ms at 200 connections, 0 errors: p95 ${ms(writes.closed.p95)} ms, ` +
        `${writeErrors} errors; by Little's law 200 connections at ${count(writes.closed.rps)} req/s ` +
        `wait ${ms(littleLaw * 1000)} ms on average, and a mean under ${WRITE_P95_GOAL} ms needs ` +
        `${count(neededRate)} req/s: ${ms((os.cpus().length * 1000) / neededRate)} ms of CPU per ` +
        `request for everything on ${os.cpus().length} cores, where the portal spent ` +
        `${ms(writes.closed.serverCpu ?? NaN)} ms and PostgreSQL ` +
        `${ms(writes.closed.databaseCpu ?? NaN)} ms`,
      writes.closed.p95 < WRITE_P95_GOAL && writeErrors === 0,
    ],
    [
      `document read >= ${READ_SHARE_GOAL * 100} % of the bare pg route: ${(share * 100).toFixed(0)} %`,
      share >= READ_SHARE_GOAL,
    ],
    auditGoal(reads),
    [
      `no errors or non-2xx answers in any measurement` +
        (failures.length ? `: ${failures.map((row) => row.name).join(', ')}` : ''),
      failures.length === 0 && writeErrors === 0,
    ],
  ] as const;
  const readRow = (name: string, result: LoadResult, floor?: LoadResult) => [
    name,
    ...latencyCells(result),
    floor ? `${((reads.ours.rps / floor.rps) * 100).toFixed(0)} %` : '',
  ];
  const lines = [
    `Recorded ${date}: ${await machine()}. Load average ${run.loadBefore.toFixed(1)} at the start, ` +
      `${os.loadavg()[0]!.toFixed(1)} at the end${options.quick ? '; --quick run' : ''}.`,
    '',
    `**PostgreSQL**, ${seeded(postgres.seeding, ROWS)}; ${startups(postgres)}.`,
    '',
    searchTable(postgres.searches),
    '',
    `**Writes** as the applicant: create an application (\`POST ${BASE}\`, action store), then ` +
      `update it at the version the answer gave (\`PUT ${BASE}/{id}\`).`,
    '',
    table([
      ['writes', 'connections', ...LATENCY_HEADER, 'applications/s'],
      [
        'closed loop: each connection sends again as soon as answered',
        '200',
        ...latencyCells(writes.closed),
        rate(writes.closed.applications),
      ],
      [
        `fixed rate ${writes.rate} req/s, autocannon overallRate: each second's requests at once`,
        String(writes.overallRate.connections),
        ...latencyCells(writes.overallRate),
        rate(writes.overallRate.applications),
      ],
      [
        `fixed rate ${writes.rate} req/s spread evenly (one-connection runs 1/${writes.rate} s apart)`,
        String(writes.spread.connections),
        ...latencyCells(writes.spread),
        rate(writes.spread.applications),
      ],
    ]),
    '',
    `**Reads** at 50 connections: one granted application as the verifier, beside a bare ` +
      `Fastify process (bench/bare-fastify.ts) selecting the same row by primary key through ` +
      `\`pg\`, and its hello-world route; catalogue options as the applicant.`,
    '',
    table([
      ['read', ...LATENCY_HEADER, 'ours as % of it'],
      readRow(`GET ${BASE}/{id} (ours, audited)`, reads.ours),
      readRow(`GET ${BASE}/{id} (ours, AUDIT_READS=false)`, reads.unaudited, reads.unaudited),
      readRow('bare Fastify + pg, same row', reads.barePg, reads.barePg),
      readRow('bare Fastify hello world', reads.hello, reads.hello),
      readRow('GET /api/catalog/v1/country/options?search=sa', reads.catalogue),
    ]),
    '',
    ...(pglite
      ? [
          `**PGlite**, ${seeded(pglite.seeding, PGLITE_ROWS)}; ${startups(pglite)}.`,
          '',
          searchTable(pglite.searches),
          '',
        ]
      : []),
    ...goals.map(([goal, met]) => `- ${met ? 'met' : 'MISSED'}: ${goal}`),
  ];
  return lines.join('\n');
}

await main();
process.exit(0);
