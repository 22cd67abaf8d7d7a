import fs from 'node:fs/promises';
import { Kysely, Migrator, PostgresDialect, sql, type LogEvent } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Database } from './schema';
import { migrationProvider } from './migrations';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { declaredKeys, ensureKeyIndexes } from './key-indexes';
import { pgliteNotices, postgresNotices, type ChangeNotices } from './change-notices';
import { DEFAULT_DATABASE_POOL_SIZE } from '../config';
import { declaredListIndexes, ensureListIndexes } from './list-indexes';

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PostgreSQL schema to create and work in (each test run gets its own). */
  schema?: string;
  /** PGlite data folder; `memory://` keeps it in memory. */
  dataDir: string;
  /** The workflows whose keys and lists are indexed after the migrations (while they load). */
  workflows?: Promise<readonly WorkflowDefinition[]>;
  /** PostgreSQL connections this process keeps at most (DATABASE_POOL_SIZE); 10 by default. */
  poolSize?: number;
  /** Told of every statement once it ends, with its time (the metrics and traces). */
  observeQuery?: QueryObserver;
}

/** A statement that ended: its text, how long it took, and whether it failed. */
export type QueryObserver = (query: { sql: string; durationMs: number; failed: boolean }) => void;

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  /** Changes other processes made (and this one), for what is kept in memory to be forgotten. */
  notices: ChangeNotices;
  /** Answers whether the database takes a query now (for /api/health). */
  ping(): Promise<boolean>;
  /** The pool's connections now (PostgreSQL; PGlite has one connection and no pool). */
  poolState?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** One factory, two dialects (PGlite: one connection, each acquire queued). */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  // Definitions failing to load are the caller's to report, not an unhandled rejection.
  options.workflows?.catch(() => undefined);
  let db: Kysely<Database>;
  let kind: DatabaseHandle['kind'];
  let listen: () => Promise<ChangeNotices>;
  let setup: pg.Client | undefined;
  let poolState: DatabaseHandle['poolState'];
  const observe = options.observeQuery;
  const log = observe
    ? (event: LogEvent) =>
        observe({
          sql: event.query.sql,
          durationMs: event.queryDurationMillis,
          failed: event.level === 'error',
        })
    : undefined;
  if (options.databaseUrl) {
    kind = 'postgres';
    const schema = options.schema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
    if (schema) {
      setup = await lockSchemaSetup(options.databaseUrl);
      try {
        await setup.query(`create schema if not exists "${schema}"`);
        // Extensions live once per database, in public; the search path below reaches them.
        await setup.query('create extension if not exists btree_gist with schema public');
        await setup.query('create extension if not exists pg_trgm with schema public');
      } catch (error) {
        await setup.end();
        throw error;
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? DEFAULT_DATABASE_POOL_SIZE,
      options: schema ? `-c search_path="${schema}",public` : undefined,
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    poolState = () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    const connectionString = options.databaseUrl;
    listen = () => postgresNotices({ connectionString, scope: schema ?? 'public', pool });
  } else {
    kind = 'pglite';
    if (!options.dataDir.startsWith('memory://'))
      await fs.mkdir(options.dataDir, { recursive: true });
    const client = await PGlite.create(options.dataDir, { extensions: { btree_gist, pg_trgm } });
    // Its pages are in memory or the file cache: a random read costs a sequential one's.
    await client.exec('set random_page_cost = 1.1');
    db = new Kysely<Database>({ dialect: new PGliteDialect(client), log });
    listen = () => pgliteNotices(client);
  }
  let notices: ChangeNotices;
  try {
    try {
      await migrate(db, options.databaseUrl ? options.schema : undefined);
    } finally {
      await setup?.end();
    }
    const workflows = await options.workflows;
    if (workflows) await ensureDeclaredIndexes({ db, kind }, workflows);
    notices = await listen();
  } catch (error) {
    // Definitions that failed to load, or a migration that failed: nothing is left open.
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return {
    db,
    kind,
    notices,
    ...(poolState && { poolState }),
    ping: () =>
      sql`select 1`.execute(db).then(
        () => true,
        () => false,
      ),
    async close() {
      await notices.close();
      await db.destroy();
    },
  };
}

/** Makes the database hold exactly the indexes the workflows' keys and lists call for. */
export async function ensureDeclaredIndexes(
  { db, kind }: Pick<DatabaseHandle, 'db' | 'kind'>,
  workflows: readonly WorkflowDefinition[],
): Promise<void> {
  await ensureKeyIndexes(db, declaredKeys(workflows));
  await ensureListIndexes(db, declaredListIndexes(workflows), kind === 'postgres');
}

async function migrate(db: Kysely<Database>, schema: string | undefined): Promise<void> {
  // Kysely looks for its lock table in every schema; naming ours keeps parallel test schemas apart.
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}

/** Drops a schema a test run created (PostgreSQL only). */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = await lockSchemaSetup(databaseUrl);
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/**
 * A connection holding the database's setup lock until it ends. Two concurrent `create ... if
 * not exists` fail on PostgreSQL's catalogue, and Kysely's migrator reads every table of the
 * database (pg_get_serial_sequence by name), which fails when another schema is dropped
 * meanwhile: creating, migrating and dropping schemas therefore take turns.
 */
async function lockSchemaSetup(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(hashtext('portal-database-setup'))`);
  } catch (error) {
    await client.end();
    throw error;
  }
  return client;
}
