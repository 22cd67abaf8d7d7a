import { sql, type Kysely } from 'kysely';
import { LEGACY_INDEXES } from './0004_connectid';

/**
 * Record keys are indexed from the workflows' declarations at start (key-indexes.ts): the
 * expression indexes migration 0004 once wrote out for the connectid types go, so a database
 * migrated before does not keep two indexes per key (nor a unique one on a field the account's
 * declaration may no longer name).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of LEGACY_INDEXES) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}

/** Nothing to restore: the declared indexes are made at start whatever the migrations say. */
export async function down(): Promise<void> {}
