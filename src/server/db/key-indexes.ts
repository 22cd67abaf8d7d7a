import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RecordKey } from '../../core/documents/record-declarations';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { Database } from './schema';

/** A declared record key with its document type. */
export type DeclaredKey = { type: string } & RecordKey;

/** Every key the workflows declare (`"key": {"pointer", "keptWhenDeleted"}`), one per type. */
export function declaredKeys(workflows: readonly WorkflowDefinition[]): DeclaredKey[] {
  const byType = new Map<string, DeclaredKey>();
  for (const w of workflows) if (w.key) byType.set(w.document, { type: w.document, ...w.key });
  return [...byType.values()];
}

/** A data pointer as the text path of `#>>` (`{section,field}`); only plain names, safe. */
export function plainPath(pointer: string): string {
  if (!/^(\/[A-Za-z0-9_]+)+$/.test(pointer))
    throw new Error(`not a plain data pointer: ${pointer}`);
  return `{${pointer.split('/').slice(1).join(',')}}`;
}

/** `lower(data #>> '{section,field}')`: a record's key as it is compared and indexed. */
export function keyExpression(pointer: string): RawBuilder<string> {
  return sql<string>`lower(data #>> ${sql.lit(plainPath(pointer))})`;
}

/** The name of a key's index; it changes with the declaration, so a changed key is re-indexed. */
export function keyIndexName(key: DeclaredKey): string {
  const digest = createHash('sha256')
    .update(`${key.type}|${key.pointer}|${key.keptWhenDeleted}`)
    .digest('hex')
    .slice(0, 10);
  return `document_key_${key.type.replace(/[^a-z0-9]/g, '_').slice(0, 32)}_${digest}`;
}

/**
 * Makes the database index exactly the declared keys: a unique expression index per key, partial
 * on the type (and on live records for a key freed on deletion). Records already sharing a key
 * get it without uniqueness, with a warning, rather than the portal refusing to start.
 */
export async function ensureKeyIndexes(
  db: Kysely<Database>,
  keys: readonly DeclaredKey[],
  warn: (message: string) => void = (message) => process.emitWarning(message),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('document-key-indexes'))`.execute(trx);
    const wanted = new Map(keys.map((key) => [keyIndexName(key), key]));
    const present = await sql<{ indexname: string }>`select indexname from pg_indexes
      where schemaname = current_schema() and tablename = 'document'
      and indexname like 'document\\_key\\_%'`.execute(trx);
    for (const { indexname } of present.rows)
      if (!wanted.has(indexname)) await sql`drop index if exists ${sql.id(indexname)}`.execute(trx);
    const existing = new Set(present.rows.map((r) => r.indexname));
    for (const [name, key] of wanted) {
      if (existing.has(name)) continue;
      const live = key.keptWhenDeleted ? sql`` : sql` and status <> 'DELETED'`;
      const create = (unique: boolean) =>
        sql`create ${sql.raw(unique ? 'unique ' : '')}index if not exists ${sql.id(name)}
          on document ((${keyExpression(key.pointer)})) where type = ${sql.lit(key.type)}${live}`;
      // A savepoint, so a refused unique index leaves the transaction usable.
      const savepoint = sql.id(`key_${name.slice(-10)}`);
      await sql`savepoint ${savepoint}`.execute(trx);
      try {
        await create(true).execute(trx);
        await sql`release savepoint ${savepoint}`.execute(trx);
      } catch {
        await sql`rollback to savepoint ${savepoint}`.execute(trx);
        warn(
          `records of type ${key.type} share a key at ${key.pointer}: indexed without uniqueness`,
        );
        await create(false).execute(trx);
      }
    }
  });
}
