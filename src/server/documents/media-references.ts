import { UUID } from '../db/ids';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { invalid } from '../search/compile-search';
import { isNode } from '../../core/definitions/json';
import { keepMediaReferences } from './store/media';

/** An uploaded file named in document data: `{ id, name, size, type }` (the file widget's value). */
interface FileReference {
  pointer: string;
  id: string;
}

function isFileReference(value: unknown): value is { id: string } {
  if (!isNode(value)) return false;
  const { id, name, size, type } = value;
  return (
    typeof id === 'string' &&
    typeof name === 'string' &&
    typeof size === 'number' &&
    typeof type === 'string'
  );
}

/** Every file reference in the data, with where it is. */
export function fileReferences(data: unknown, pointer = ''): FileReference[] {
  if (isFileReference(data)) return [{ pointer, id: data.id }];
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data).flatMap(([key, value]) => fileReferences(value, `${pointer}/${key}`));
}

/** A document may only name files its owner uploaded (or it already named), else a 400 there. */
export async function checkFileReferences(
  db: Kysely<Database> | Transaction<Database>,
  owner: string,
  data: Record<string, unknown>,
  before: Record<string, unknown> = {},
): Promise<void> {
  const known = new Set(fileReferences(before).map((r) => r.id));
  const added = fileReferences(data).filter((r) => !known.has(r.id));
  if (added.length === 0) return;
  const valid = added.filter((r) => UUID.test(r.id)).map((r) => r.id);
  const found = valid.length
    ? await db
        .selectFrom('media')
        .select('id')
        .where('id', 'in', valid)
        .where('owner', '=', owner)
        .execute()
    : [];
  const owned = new Set(found.map((row) => row.id));
  const unknown = added.filter((r) => !owned.has(r.id));
  if (unknown.length) throw invalid(unknown.map((r) => ({ path: r.pointer, rule: 'fileUnknown' })));
}

/** The ids of the uploads the data names, once each (those that can name a stored file). */
export function mediaIdsOf(data: unknown): string[] {
  return [...new Set(fileReferences(data).map((r) => r.id))].filter((id) => UUID.test(id));
}

/** Keeps `document_media` equal to the uploads the data names, in the data's transaction. */
export function recordMediaReferences(
  trx: Transaction<Database>,
  documentId: string,
  data: unknown,
): Promise<void> {
  return keepMediaReferences(trx, documentId, mediaIdsOf(data));
}
