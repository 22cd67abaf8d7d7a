import { sql, type Kysely } from 'kysely';

/**
 * The connectid module keeps accounts, groups, policies, units and roles as documents. This
 * migration used to create expression indexes on their keys (the login identifier, the codes),
 * written out here. The keys are now declared by the workflows (`"key"`), so their indexes are
 * made from the declarations at every start (src/server/db/key-indexes.ts), and migration 0011
 * drops the ones a database migrated before still has. It does nothing now; it stays listed so
 * databases that ran it and databases that did not agree on the migration history.
 */
export async function up(_db: Kysely<unknown>): Promise<void> {}

/** The indexes an earlier version of `up` created, should a database still have them. */
export const LEGACY_INDEXES = [
  'document_account_login',
  'document_group_code',
  'document_policy_code',
  'document_unit_code',
] as const;

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of LEGACY_INDEXES) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
