import { sql, type Kysely } from 'kysely';

/**
 * The connectid module keeps accounts, groups, policies, units and roles as documents. The
 * identity server looks accounts up by login identifier, case-insensitively, at every sign-in:
 * this expression index serves it, and being unique it is also the last word when two
 * registrations race for one login identifier (the uniqueKey effect answers the ordinary case
 * with a field error). Groups, policies and units are looked up by code.
 */
/** Groups, policies and units by code: the directory follows a group's parents and units. */
const CODE_INDEXES = [
  ['document_group_code', 'user-group', '{group,code}'],
  ['document_policy_code', 'password-policy', '{policy,code}'],
  ['document_unit_code', 'access-unit', '{unit,unitCode}'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index document_account_login on document
    (lower(data #>> '{identity,loginIdentifier}')) where type = 'account'`.execute(db);
  for (const [name, type, path] of CODE_INDEXES) {
    await sql`create index ${sql.raw(name)} on document ((data #>> ${sql.lit(path)}))
      where type = ${sql.lit(type)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of CODE_INDEXES) await sql`drop index if exists ${sql.raw(name)}`.execute(db);
  await sql`drop index if exists document_account_login`.execute(db);
}
