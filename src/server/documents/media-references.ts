import type { Kysely, Transaction } from 'kysely';
import type { Principal } from '../auth/principal';
import { holdsAnyRole } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { CompiledWorkflow } from './workflows';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An uploaded file named in document data: `{ id, name, size, type }` (the file widget's value). */
interface FileReference {
  pointer: string;
  id: string;
}

function isFileReference(value: unknown): value is { id: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { id, name, size, type } = value as Record<string, unknown>;
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

/**
 * A document may only name files its owner uploaded (or files it already named): otherwise
 * anyone could attach, and so let officers read, another person's upload. A reference to
 * anything else is a 400 at its place, and nothing is written.
 */
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
  if (unknown.length) {
    throw new ApiProblem(
      400,
      ERROR_CODES.validationFailed,
      {},
      unknown.map((r) => ({ path: r.pointer, rule: 'fileUnknown' })),
    );
  }
}

/** The ids of the uploads the data names, once each (those that can name a stored file). */
export function mediaIdsOf(data: unknown): string[] {
  return [...new Set(fileReferences(data).map((r) => r.id))].filter((id) => UUID.test(id));
}

/**
 * Keeps `document_media` equal to the uploads the document's data names, in the transaction
 * that writes the data, so the officers' access to files follows every version at once.
 */
export async function recordMediaReferences(
  trx: Transaction<Database>,
  documentId: string,
  data: unknown,
): Promise<void> {
  const ids = mediaIdsOf(data);
  let stale = trx.deleteFrom('document_media').where('document_id', '=', documentId);
  if (ids.length) stale = stale.where('media_id', 'not in', ids);
  await stale.execute();
  if (ids.length) {
    await trx
      .insertInto('document_media')
      .values(ids.map((mediaId) => ({ document_id: documentId, media_id: mediaId })))
      .onConflict((c) => c.doNothing())
      .execute();
  }
}

/**
 * Whether the caller may read an uploaded file through a document that names it: the file is
 * in a document the caller sees every one of (an officer of its workflow). Its uploader reads
 * it anyway (the media routes check that first).
 */
export async function readableThroughDocument(
  db: Kysely<Database>,
  workflows: Iterable<CompiledWorkflow>,
  principal: Principal,
  mediaId: string,
): Promise<boolean> {
  const types = [...workflows]
    .filter((w) => holdsAnyRole(principal, w.seeAllRoles))
    .map((w) => w.definition.id);
  if (types.length === 0 || !UUID.test(mediaId)) return false;
  const row = await db
    .selectFrom('document_media')
    .innerJoin('document', 'document.id', 'document_media.document_id')
    .select('document.id')
    .where('document_media.media_id', '=', mediaId)
    .where('document.type', 'in', types)
    .executeTakeFirst();
  return row !== undefined;
}
