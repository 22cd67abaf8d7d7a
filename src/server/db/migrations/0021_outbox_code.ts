import { sql, type Kysely } from 'kysely';

/**
 * The confirmation code a message carries (registration, password reset: the challenge
 * backend's), kept beside the text that shows it. The developer outbox shows a code only where
 * there is one: it once took any six digits of a text for one (a visa number's serial). Other
 * messages, and those older than the column, have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox add column code text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox drop column if exists code`.execute(db);
}
