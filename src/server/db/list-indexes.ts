import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { WorkflowDefinition, WorkflowList } from '../../core/documents/workflow';
import type { Database } from './schema';
import { nameKeySql } from './name-search';
import {
  literalPath,
  referringIndexDefinitions,
  verificationIndexDefinitions,
} from './verification-indexes';

/**
 * The indexes behind the workflows' finders and lists, derived from their definitions at every
 * start (docs/lists.md, "Indexes"). Each btree ends with `id`, the tie-break of every sort.
 * Only the per-type ones are partial: every index costs each query's planning.
 */

/** The prefix of every index made here; others of the table are left alone. */
const PREFIX = 'document_list_';
const LIKE_PREFIX = PREFIX.replace(/_/g, '\\_');

/**
 * The header columns a list may be sorted by (each field's column is its snake_case), by whether
 * they hold nulls. Not updatedAt: by it every list is in the order of the shared indexes already.
 */
const NULLABLE_HEADERS = ['number', 'assignee', 'year', 'submittedAt'];
const NOT_NULL_HEADERS = ['status', 'owner', 'createdAt'];

/** The deleted status lists never show (store/lists.ts has the same). */
const DELETED = 'DELETED';

/**
 * A data column's text as sorted, filtered and indexed: case-folded, absent as empty, compared
 * byte-wise (so the btree serves `like 'tu%'` in any locale). The search emits exactly this.
 */
export function foldedText(pointer: string): RawBuilder<string> {
  return sql<string>`${sql.raw(foldedTextSql(pointer))}`;
}

function foldedTextSql(pointer: string): string {
  return foldedSql(`data #>> ${literalPath(pointer)}`);
}

function foldedSql(text: string): string {
  return `(coalesce(lower(${text}), '') collate "C")`;
}

/**
 * The owner's name folded as a data column's text: every search may filter on it (a header
 * field), so every type's rows are indexed by it, by a btree and a trigram index.
 */
const FOLDED_OWNER_NAME = foldedSql('owner_name');

export function foldedOwnerName(): RawBuilder<string> {
  return sql<string>`${sql.raw(FOLDED_OWNER_NAME)}`;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** One index the definitions call for: its name (a digest of its definition) and its SQL. */
export interface ListIndex {
  name: string;
  /** Statistics: a partial index's own are not used to estimate the whole table's rows. */
  kind: 'index' | 'statistics';
  /** What follows `create index <name>` (`on document ...`) or `create statistics <name>`. */
  definition: string;
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

/** Whether a list's scope (several statuses, un/assigned) is one no shared index holds in order. */
function ownScopeIndex(list: WorkflowList): boolean {
  if (list.assignment === 'me') return false;
  if (list.assignment === 'unassigned' || list.assignment === 'assigned') return true;
  return (list.status?.length ?? 0) > 1;
}

/** Every index the workflows' lists call for, once each. */
export function declaredListIndexes(workflows: readonly WorkflowDefinition[]): ListIndex[] {
  const indexes = new Map<string, ListIndex>();
  // Named by a digest of the definition: a changed index is a new one.
  const add = (type: string, definition: string, kind: ListIndex['kind'] = 'index') => {
    const digest = createHash('sha256').update(definition).digest('hex').slice(0, 12);
    const slug = type.replace(/[^a-z0-9]/g, '_').slice(0, 28);
    const name = `${kind === 'index' ? PREFIX : `${PREFIX}stat_`}${slug}_${digest}`;
    indexes.set(name, { name, kind, definition });
  };
  if (workflows.length === 0) return [];
  // Shared by every type (the type leads): the filters and the default order of every list.
  for (const column of ['status', 'assignee', 'owner'])
    add('all', `on document (type, ${column}, updated_at, id)`);
  // With the status: a list of every status but deleted counts and skips rows from it alone.
  add('all', 'on document (type, updated_at, id) include (status)');
  // My Library and My Tasks: the same order across every type (their scopes name several).
  add('all', 'on document (updated_at, id)');
  // The owner's name, which every finder may sort on and match (starts with, contains).
  add('all', `on document (type, ${FOLDED_OWNER_NAME}, id)`);
  add('all', `on document using gin (${FOLDED_OWNER_NAME} gin_trgm_ops)`);
  add('all', `on (${FOLDED_OWNER_NAME}) from document`, 'statistics');
  // The submission time, which every finder may narrow to a range (the range's own order, in
  // compile-search.ts); with the status, a count of the range never reads the table.
  add('all', 'on document (type, submitted_at nulls first, id) include (status)');
  for (const workflow of workflows) {
    const type = workflow.id;
    const ofType = `type = ${quote(type)}`;
    const folded = new Set<string>();
    for (const list of workflow.lists) {
      if (ownScopeIndex(list))
        add(type, `on document (updated_at, id) where ${ofType} and ${scopePredicate(list)}`);
      for (const column of list.columns) {
        if (column.pointer) {
          folded.add(foldedTextSql(column.pointer));
          continue;
        }
        const nullable = NULLABLE_HEADERS.includes(column.field);
        if (nullable || NOT_NULL_HEADERS.includes(column.field)) {
          const name = column.field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
          // With the status: a count under every status but deleted reads the index alone.
          const include = name === 'status' ? '' : ' include (status)';
          add('all', `on document (type, ${name}${nullable ? ' nulls first' : ''}, id)${include}`);
        }
      }
    }
    for (const expression of folded) {
      add(type, `on document (${expression}, id) where ${ofType}`);
      // A name within a status (the finder's status filter and a name): the matches of both
      // are one range, so a count reads those rows only, never every row of the status.
      add(type, `on document (status, ${expression}, id) where ${ofType}`);
      // So the planner knows how many rows "starts with tu" or "contains ual" match.
      add('all', `on (${expression}) from document`, 'statistics');
    }
    // One trigram index per type holds all its data columns: a condition on any one uses it.
    if (folded.size)
      add(
        type,
        `on document using gin (${[...folded].map((e) => `${e} gin_trgm_ops`).join(', ')}) where ${ofType}`,
      );
    // A list's name search: the folded names' trigrams, nearest first (db/name-search.ts).
    for (const list of workflow.lists)
      if (list.nameSearch)
        add(
          type,
          `on document using gist (${nameKeySql(list.nameSearch)} gist_trgm_ops) where ${ofType}`,
        );
    // The public check's lookups by a number the data keeps.
    for (const definition of verificationIndexDefinitions(workflow)) add(type, definition);
    // The documents naming one of this type (`referencedBy`), found by the reference they hold.
    for (const [referring, definition] of referringIndexDefinitions(workflow))
      add(referring, definition);
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
 * Makes the database hold exactly the declared list indexes (others of ours dropped, invalid
 * ones rebuilt), under an advisory lock. A large PostgreSQL table is indexed `concurrently`, so
 * writes go on; that cannot run in a transaction, hence a session lock taken by polling (a
 * waiting `pg_advisory_lock` would hold a snapshot the build waits for).
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
      const mode = postgres && (await holdsMany(connection)) ? ' concurrently' : '';
      const present = await sql<{ name: string; valid: boolean }>`select c.relname as name,
          i.indisvalid as valid
        from pg_index i join pg_class c on c.oid = i.indexrelid
        join pg_class t on t.oid = i.indrelid
        join pg_namespace n on n.oid = t.relnamespace
        where t.relname = 'document' and n.nspname = current_schema()
          and c.relname like ${`${LIKE_PREFIX}%`}`.execute(connection);
      const ofKind = (kind: ListIndex['kind']) => indexes.filter((index) => index.kind === kind);
      await reconcile(connection, `index${mode}`, present.rows, ofKind('index'));
      const statistics = await sql<{ name: string; valid: boolean }>`select s.stxname as name,
          true as valid
        from pg_statistic_ext s join pg_namespace n on n.oid = s.stxnamespace
        where n.nspname = current_schema()
          and s.stxname like ${`${LIKE_PREFIX}stat\\_%`}`.execute(connection);
      // The table analyzed when a statistics object was made.
      if (await reconcile(connection, 'statistics', statistics.rows, ofKind('statistics')))
        await sql`analyze document`.execute(connection);
    } finally {
      await sql`select pg_advisory_unlock(${lock})`.execute(connection);
    }
  });
}

/** Drops the present `kind` objects unwanted (or invalid), makes the missing; true if it made one. */
async function reconcile(
  connection: Kysely<Database>,
  kind: string,
  present: ReadonlyArray<{ name: string; valid: boolean }>,
  wanted: readonly ListIndex[],
): Promise<boolean> {
  const byName = new Map(wanted.map((index) => [index.name, index]));
  const ready = new Set<string>();
  for (const { name, valid } of present) {
    if (byName.has(name) && valid) ready.add(name);
    else await sql`drop ${sql.raw(kind)} if exists ${sql.id(name)}`.execute(connection);
  }
  let made = false;
  for (const [name, index] of byName) {
    if (ready.has(name)) continue;
    await sql`create ${sql.raw(kind)} if not exists ${sql.id(name)} ${sql.raw(index.definition)}`.execute(
      connection,
    );
    made = true;
  }
  return made;
}
