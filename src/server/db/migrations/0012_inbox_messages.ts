import { sql, type Kysely } from 'kysely';

/**
 * The inbox becomes documents (workflows/inbox-message.json): an outbox row names the message
 * it delivers (`message_id`), so the message keeps its attempts. The portal's own `inbox`
 * rows the outbox held until now become messages of their recipients, unread, each with its
 * first version and history line, and leave the outbox, which is the delivery queue only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox add column message_id uuid`.execute(db);
  await sql`create index outbox_message on outbox (message_id) where message_id is not null`.execute(
    db,
  );
  // Each message takes the id of the outbox row it was (both are uuids), so the three inserts
  // name it alike without a table in between.
  const moved = sql`select o.id, o.recipient, o.created_at,
      jsonb_strip_nulls(jsonb_build_object(
        'message', jsonb_build_object('subject', left(o.subject, 200), 'message', left(o.body, 8000)),
        'about', case when d.id is null then null else jsonb_strip_nulls(jsonb_build_object(
          'type', d.type, 'id', d.id, 'number', d.number, 'language', o.language)) end,
        'delivery', jsonb_build_object('attempts', 0, 'channels', jsonb_build_array())
      )) as data
    from outbox o left join document d on d.id = o.document_id
    where o.channel = 'inbox'`;
  await sql`insert into document (id, type, status, version, owner, data, created_at, created_by,
      updated_at, updated_by)
    select id, 'inbox-message', 'CREATED', 1, recipient, data, created_at, 'system:outbox',
      created_at, 'system:outbox'
    from (${moved}) m`.execute(db);
  await sql`insert into document_version (document_id, version, status, action, data, assignee, at, by)
    select id, 1, 'CREATED', 'create', data, null, created_at, 'system:outbox'
    from (${moved}) m`.execute(db);
  await sql`insert into document_history (document_id, version, action, from_status, to_status,
      at, notes, actor, actor_name)
    select id, 1, 'create', 'NEW', 'CREATED', created_at, null, 'system:outbox', 'system:outbox'
    from (${moved}) m`.execute(db);
  await sql`delete from outbox where channel = 'inbox'`.execute(db);
  await sql`drop index if exists outbox_inbox`.execute(db);
}

/** The messages stay documents; only the column and its index go. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists outbox_message`.execute(db);
  await sql`alter table outbox drop column if exists message_id`.execute(db);
}
