import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { allTables } from './all-tables';

/** An inbox message as the tests read it back from the database. */
export interface StoredMessage {
  id: string;
  owner: string;
  status: string;
  assignee: string | null;
  subject: string;
  body: string;
  data: Record<string, unknown>;
}

/**
 * The inbox messages about a document (their `about.id`), oldest first: what its holder finds in
 * their inbox after the document's notices.
 */
export async function messagesAbout(
  db: Kysely<Database>,
  documentId: string,
): Promise<StoredMessage[]> {
  const rows = await allTables(db)
    .selectFrom('document')
    .select(['id', 'owner', 'status', 'assignee', 'data', 'created_at'])
    .where('type', '=', 'inbox-message')
    .where(sql<boolean>`data -> 'about' ->> 'id' = ${documentId}`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const message = row.data.message as { subject: string; message: string };
    return {
      id: row.id,
      owner: row.owner,
      status: row.status,
      assignee: row.assignee,
      subject: message.subject,
      body: message.message,
      data: row.data,
    };
  });
}

/**
 * An account of our directory, written straight into the database as an accepted one: it owns
 * itself and carries its holder's name and e-mail, as a registration leaves them. Its `data`
 * (preferences, organisation...) is what the test gives. Answers its id, the subject of a token
 * the test makes for its holder.
 */
export async function insertAccount(
  db: Kysely<Database>,
  holder: { name: string; email: string; data: Record<string, unknown> },
): Promise<string> {
  const id = randomUUID();
  await allTables(db)
    .insertInto('document')
    .values({
      id,
      type: 'account',
      status: 'ACCEPTED',
      version: 1,
      owner: id,
      owner_name: holder.name,
      owner_email: holder.email,
      owner_mobile: null,
      data: JSON.stringify(holder.data),
      created_by: 'test',
      updated_by: 'test',
    })
    .execute();
  return id;
}
