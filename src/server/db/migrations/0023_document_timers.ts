import { sql, type Kysely } from 'kysely';

/**
 * The workflows' durable timers (docs/workflows.md, "Timers"): a row per timer or reminder of a
 * document waiting in a status whose machine state names timers in `after`, written in the
 * transaction of the action that entered it and deleted by the one that leaves it. The timer
 * worker (documents/timers.ts) fires the due ones; being rows, they survive restarts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_timer')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('timer', 'text', (c) => c.notNull())
    // The status the timer belongs to and the version that entered it.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('entered_version', 'integer', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('fire', 'reminder')`))
    // A reminder's index in the timer's `reminders`; -1 for the timer itself.
    .addColumn('reminder', 'integer', (c) => c.notNull().defaultTo(-1))
    // When a worker last failed to handle it (it is tried again later), else null.
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('document_timer_due')
    .on('document_timer')
    .columns(['due_at'])
    .execute();
  await sql`create unique index document_timer_one on document_timer (document_id, timer, kind, reminder)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_timer').ifExists().execute();
}
