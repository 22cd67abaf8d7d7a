import { sql, type Kysely } from 'kysely';

/** The dashboard's message area reads a person's newest inbox messages. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index outbox_inbox on outbox (recipient, created_at desc)
    where channel = 'inbox'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists outbox_inbox`.execute(db);
}
