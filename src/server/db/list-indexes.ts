import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { WorkflowDefinition, WorkflowList } from '../../core/documents/workflow';
import type { Database } from './schema';

/**
 * The indexes behind the workflows' finders and lists, derived from their definitions at every
 * start (docs/lists.md, "Indexes"). Each is partial on its document type, so a type's lists
 * never read another type's rows, and ends with `id`, the tie-break of every sort, so one btree
 * gives a whole page in order and a keyset page starts where the last one ended:
 * - the filters lists and finders apply, each with the default sort (`updated_at desc, id`):
 *   `(status, updated_at, id)`, `(assignee, updated_at, id)`, `(owner, updated_at, id)`;
 * - each list's own scope (its statuses and assignment, as the search compiles them):
 *   `(updated_at, id) where <scope>`, so a list's first page and its count read that list's
 *   rows only; not for a list the filter indexes serve as well (one status, or the caller's
 *   assignments);
 * - each column a list shows, for a sort on it: a header column as `(column, id)` (but
 *   updatedAt, the order of the indexes above); a data
 *   column by its folded text (`foldedText`) as a btree, which serves sorts, equals and
 *   starts with, and as a trigram GIN, which serves contains and ends with.
 */

/** The prefix of every index made here; others of the table are left alone. */
const PREFIX = 'document_list_';

/** The header columns a list may show, by field name, and whether the column holds nulls. */
const HEADER_COLUMNS: Record<string, { column: string; nullable: boolean }> = {
  number: { column: 'number', nullable: true },
  status: { column: 'status', nullable: false },
  owner: { column: 'owner', nullable: false },
  ownerName: { column: 'owner_name', nullable: true },
  assignee: { column: 'assignee', nullable: true },
  year: { column: 'year', nullable: true },
  submittedAt: { column: 'submitted_at', nullable: true },
  createdAt: { column: 'created_at', nullable: false },
  updatedAt: { column: 'updated_at', nullable: false },
};

/** The deleted status lists never show (store/lists.ts has the same). */
const DELETED = 'DELETED';

/** A data pointer as the literal text path of `#>>`; only plain names (the meta-schema's rule). */
function literalPath(pointer: string): string {
  if (!/^(\/[A-Za-z0-9_]+)+$/.test(pointer))
    throw new Error(`not a plain data pointer: ${pointer}`);
  return `'{${pointer.split('/').slice(1).join(',')}}'`;
}

/**
 * A data column's text as sorted, filtered and indexed: case-folded, an absent value as the
 * empty text (so the sort key is never null: empty and absent sort first ascending and last
 * descending, as nulls did), compared byte-wise (collation "C": the btree then serves `like
 * 'tu%'` whatever the database's locale, and the order is the same everywhere). The search
 * compiler emits exactly this expression, so the planner matches it to the indexes.
 */
export function foldedText(pointer: string): RawBuilder<string> {
  return sql<string>`(coalesce(lower(data #>> ${sql.raw(literalPath(pointer))}), '') collate "C")`;
}

function foldedTextSql(pointer: string): string {
  return `(coalesce(lower(data #>> ${literalPath(pointer)}), '') collate "C")`;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** One index the definitions call for: its name (a digest of its definition) and its SQL. */
export interface ListIndex {
  name: string;
  /** `on document ...`: what follows `create index <name>`. */
  definition: string;
}

function listIndex(type: string, definition: string): ListIndex {
  const digest = createHash('sha256').update(definition).digest('hex').slice(0, 12);
  const slug = type.replace(/[^a-z0-9]/g, '_').slice(0, 28);
  return { name: `${PREFIX}${slug}_${digest}`, definition };
}

/** A list's statuses and assignment as the index predicate its search's scope implies. */
function scopePredicate(list: WorkflowList): string {
  const statuses = list.status?.length
    ? `status in (${list.status.map(quote).join(', ')})`
    : `status <> ${quote(DELETED)}`;
  const assignment =
    list.assignment === 'unassigned'
      ? ' and assignee is null'
      : list.assignment === 'assigned'
        ? ' and assignee is not null'
        : '';
  return `${statuses}${assignment}`;
}

/**
 * Whether a list needs an index of its own scope: not when the filter indexes serve it as
 * well, a list of one status (`(status, updated_at, id)`) or of the caller's assignments
 * (`(assignee, updated_at, id)`).
 */
function ownScopeIndex(list: WorkflowList): boolean {
  if (list.assignment === 'me') return false;
  return !(list.status?.length === 1 && !list.assignment);
}

/** Every index the workflows' lists call for, once each. */
export function declaredListIndexes(workflows: readonly WorkflowDefinition[]): ListIndex[] {
  const indexes = new Map<string, ListIndex>();
  const add = (type: string, definition: string) => {
    const index = listIndex(type, definition);
    indexes.set(index.name, index);
  };
  for (const workflow of workflows) {
    const type = workflow.id;
    const ofType = `type = ${quote(type)}`;
    for (const column of ['status', 'assignee', 'owner'])
      add(type, `on document (${column}, updated_at, id) where ${ofType}`);
    for (const list of workflow.lists) {
      if (ownScopeIndex(list))
        add(type, `on document (updated_at, id) where ${ofType} and ${scopePredicate(list)}`);
      for (const column of list.columns) {
        if (column.pointer) {
          const folded = foldedTextSql(column.pointer);
          add(type, `on document (${folded}, id) where ${ofType}`);
          add(type, `on document using gin (${folded} gin_trgm_ops) where ${ofType}`);
          continue;
        }
        const header = HEADER_COLUMNS[column.field];
        // By updatedAt every list is in the order of its scope's index already.
        if (header && column.field !== 'updatedAt')
          add(
            type,
            `on document (${header.column}${header.nullable ? ' nulls first' : ''}, id) where ${ofType}`,
          );
      }
    }
  }
  return [...indexes.values()];
}

/** Past this many documents (the planner's estimate) an index is built concurrently. */
const CONCURRENT_FROM_ROWS = 10_000;

/** Whether the document table is large enough for a build to hold writes up noticeably. */
async function holdsMany(connection: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ rows: number }>`select c.reltuples::float8 as rows
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relname = 'document' and n.nspname = current_schema()`.execute(connection);
  return Number(rows[0]?.rows ?? 0) > CONCURRENT_FROM_ROWS;
}

/**
 * Makes the database hold exactly the declared list indexes, at every start: those no longer
 * declared (`document_list_*`) are dropped, missing or unfinished ones built. Runs under an
 * advisory lock, so two processes starting together build each index once.
 *
 * On a PostgreSQL table of more than 10,000 documents each index is built `concurrently`:
 * writes to documents go on during a build (a minute or more per index on a million
 * documents), which a plain `create index` would hold up. A concurrent build cannot run in a
 * transaction, so the lock is a session lock on one connection, taken by polling
 * (`pg_try_advisory_lock`): a process waiting in `pg_advisory_lock` would hold a snapshot the
 * build waits for. A build that was interrupted leaves an invalid index, dropped and built
 * again here. A smaller table (a new database, a test's) is indexed plainly in milliseconds,
 * without the concurrent build's waits for every older transaction of the database; PGlite
 * has one connection and no other writer, so always plainly.
 */
export async function ensureListIndexes(
  db: Kysely<Database>,
  indexes: readonly ListIndex[],
  postgres: boolean,
): Promise<void> {
  await db.connection().execute(async (connection) => {
    const lock = sql`hashtext('document-list-indexes')`;
    for (;;) {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${lock}) as locked`.execute(connection);
      if (rows[0]?.locked) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    try {
      const mode = sql.raw(postgres && (await holdsMany(connection)) ? ' concurrently' : '');
      const wanted = new Map(indexes.map((index) => [index.name, index]));
      const present = await sql<{ name: string; valid: boolean }>`select c.relname as name,
          i.indisvalid as valid
        from pg_index i join pg_class c on c.oid = i.indexrelid
        join pg_class t on t.oid = i.indrelid
        join pg_namespace n on n.oid = t.relnamespace
        where t.relname = 'document' and n.nspname = current_schema()
          and c.relname like ${`${PREFIX.replace(/_/g, '\\_')}%`}`.execute(connection);
      const ready = new Set<string>();
      for (const { name, valid } of present.rows) {
        if (wanted.has(name) && valid) ready.add(name);
        else await sql`drop index${mode} if exists ${sql.id(name)}`.execute(connection);
      }
      for (const [name, index] of wanted) {
        if (ready.has(name)) continue;
        await sql`create index${mode} if not exists ${sql.id(name)} ${sql.raw(index.definition)}`.execute(
          connection,
        );
      }
    } finally {
      await sql`select pg_advisory_unlock(${lock})`.execute(connection);
    }
  });
}
