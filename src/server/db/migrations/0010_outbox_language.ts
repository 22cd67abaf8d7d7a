import { sql, type Kysely } from 'kysely';

/**
 * The language a message was written in (its holder's choice at the time). The portal shows a
 * message as written, so it marks it with that language (WCAG 3.1.2, language of parts) when
 * the reader has since chosen another. Earlier messages have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox add column language text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox drop column if exists language`.execute(db);
}
