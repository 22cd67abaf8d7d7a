import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { DocumentRow, Queryable, VersionAuthor } from './rows';
import { storeDb } from './tables';

/** The store of officers' own work on a document: its case notes and its flags (migration 0025). */

/** The history line's action of a flag set or cleared; no declared action has a colon. */
export const FLAG_SET = 'flag:set';
export const FLAG_CLEARED = 'flag:cleared';
export const FLAG_ACTIONS: readonly string[] = [FLAG_SET, FLAG_CLEARED];
// The same names the portal words (core/documents/case-work.ts, FLAG_HISTORY_TEXTS).

export interface CaseNoteRow {
  id: string;
  document_id: string;
  version: number;
  text: string;
  author: string;
  author_name: string;
  created_at: Date;
  updated_at: Date;
  updated_by: string;
  updated_by_name: string;
}

export interface CaseNoteEditRow {
  note_id: string;
  version: number;
  text: string;
  written_by: string;
  written_by_name: string;
  written_at: Date;
}

/** A document's notes, oldest first, with the texts their edits replaced (oldest first). */
export async function listCaseNotes(
  db: Queryable,
  documentId: string,
): Promise<{ notes: CaseNoteRow[]; edits: CaseNoteEditRow[] }> {
  const notes = (await storeDb(db)
    .selectFrom('document_case_note')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()) as CaseNoteRow[];
  if (notes.length === 0) return { notes, edits: [] };
  const edits = (await storeDb(db)
    .selectFrom('document_case_note_edit')
    .select(['note_id', 'version', 'text', 'written_by', 'written_by_name', 'written_at'])
    .where(
      'note_id',
      'in',
      notes.map((note) => note.id),
    )
    .orderBy('note_id')
    .orderBy('version')
    .execute()) as CaseNoteEditRow[];
  return { notes, edits };
}

/** A new note, version 1. */
export async function insertCaseNote(
  db: Queryable,
  documentId: string,
  text: string,
  author: VersionAuthor,
  now: Date,
): Promise<CaseNoteRow> {
  const at = now.toISOString();
  return (await storeDb(db)
    .insertInto('document_case_note')
    .values({
      id: randomUUID(),
      document_id: documentId,
      version: 1,
      text,
      author: author.subject,
      author_name: author.name,
      created_at: at,
      updated_at: at,
      updated_by: author.subject,
      updated_by_name: author.name,
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as CaseNoteRow;
}

/** A note of the document, locked for the caller's transaction. */
export async function findCaseNote(
  trx: Transaction<Database>,
  documentId: string,
  noteId: string,
): Promise<CaseNoteRow | undefined> {
  return (await storeDb(trx)
    .selectFrom('document_case_note')
    .selectAll()
    .where('id', '=', noteId)
    .where('document_id', '=', documentId)
    .forUpdate()
    .executeTakeFirst()) as CaseNoteRow | undefined;
}

/** Writes a note's new text as its next version, keeping the text it replaces as an edit. */
export async function reviseCaseNote(
  trx: Transaction<Database>,
  note: CaseNoteRow,
  text: string,
  author: VersionAuthor,
  now: Date,
): Promise<CaseNoteRow> {
  await storeDb(trx)
    .insertInto('document_case_note_edit')
    .values({
      note_id: note.id,
      version: note.version,
      text: note.text,
      written_by: note.updated_by,
      written_by_name: note.updated_by_name,
      written_at: new Date(note.updated_at).toISOString(),
    })
    .execute();
  return (await storeDb(trx)
    .updateTable('document_case_note')
    .set({
      version: note.version + 1,
      text,
      updated_at: now.toISOString(),
      updated_by: author.subject,
      updated_by_name: author.name,
    })
    .where('id', '=', note.id)
    .where('version', '=', note.version)
    .returningAll()
    .executeTakeFirstOrThrow()) as CaseNoteRow;
}

/**
 * Sets or clears a flag on the document and writes a history line at its current version (who,
 * when, which flag); nothing when the flag already stands so. Whether it changed. The document's
 * version stays: a flag is no edit of the document, and must not make an officer's save stale.
 */
export async function writeFlag(
  trx: Transaction<Database>,
  row: Pick<DocumentRow, 'id' | 'status' | 'version'>,
  flag: string,
  set: boolean,
  author: VersionAuthor,
): Promise<boolean> {
  const changed = await storeDb(trx)
    .updateTable('document')
    .set({
      flags: set
        ? sql<string[]>`array_append(flags, ${flag}::text)`
        : sql<string[]>`array_remove(flags, ${flag}::text)`,
    })
    .where('id', '=', row.id)
    .where(
      set
        ? sql<boolean>`not (${flag}::text = any(flags))`
        : sql<boolean>`${flag}::text = any(flags)`,
    )
    .returning('id')
    .executeTakeFirst();
  if (!changed) return false;
  await storeDb(trx)
    .insertInto('document_history')
    .values({
      document_id: row.id,
      version: row.version,
      action: set ? FLAG_SET : FLAG_CLEARED,
      from_status: row.status,
      to_status: row.status,
      notes: flag,
      actor: author.subject,
      actor_name: author.name,
      actor_email: author.email,
      actor_mobile: author.mobile,
    })
    .execute();
  return true;
}
