import { sql, type Kysely } from 'kysely';

/**
 * The time step of the last TOTP code an account used (RFC 6238 section 5.2): a code of that
 * step or an earlier one is refused, so a code seen over a shoulder cannot be used again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table credential add column totp_last_step integer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table credential drop column if exists totp_last_step`.execute(db);
}
