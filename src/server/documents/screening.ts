import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { ScreeningRule, WorkflowScreening } from '../../core/definitions/shapes/screening';
import { resolvePointer } from '../../core/rules/registry';
import { liveEntries, type CatalogEntry } from '../catalog/entries';
import { entryKey } from '../../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../../core/definitions/types';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { documentsToFlag } from './store/screening';

/**
 * Screening against the block catalogues (docs/workflows.md, "Screening"): at the actions a
 * workflow's `screening` names, the document's values are matched, as its rules declare, with
 * the entries of each catalogue valid at that moment (and in force: its `when` flags); a hit
 * refuses the action with a neutral message and is recorded in a transaction of its own. A
 * block written later flags the submitted documents it matches (`rescreenEntry`).
 */

/** An entry a document matched. */
export interface ScreeningMatchFound {
  catalog: string;
  entryId: string;
  entryKey: string;
  /** The entry's data as matched (its reason and translations). */
  entry: Record<string, unknown>;
  /** Entry field -> the document's value it equals. */
  matched: Record<string, string>;
}

/** A hit as recorded: the match, on which document, at which action, with what outcome. */
export interface ScreeningHitRecord extends ScreeningMatchFound {
  documentType: string;
  /** Null when the refused action would have created the document. */
  documentId: string | null;
  action: string;
  outcome: 'refused' | 'flagged';
  actor: string;
  at: Date;
}

/**
 * The refusal of an action screening hit: a 4xx saying nothing of the block lists (the caller
 * may be the applicant), carrying the hits for `keepingScreeningHits` to record.
 */
export class ScreeningRefusal extends ApiProblem {
  constructor(readonly hits: readonly ScreeningHitRecord[]) {
    super(422, ERROR_CODES.screeningRefused);
  }
}

/** A value compared as the block lists hold it: trimmed, upper case (passport numbers, codes). */
const normal = (value: string) => value.trim().toUpperCase();

/** The fields a rule asks of an entry, from the document; undefined when the document lacks one. */
export function ruleValues(
  rule: ScreeningRule,
  data: Record<string, unknown>,
): Record<string, string> | undefined {
  const values: Record<string, string> = {};
  for (const match of rule.match) {
    const value = match.pointer === undefined ? match.value : resolvePointer(data, match.pointer);
    // A value not given (or no text) cannot match: the rule does not screen this document.
    if (typeof value !== 'string' || !value.trim()) return undefined;
    values[match.field] = value;
  }
  return values;
}

/** The SQL condition "the entry's period [start_time, end_time) holds `at`". */
const validAt = (at: Date) =>
  sql<SqlBool>`tstzrange(start_time, end_time, '[)') @> ${at.toISOString()}::timestamptz`;

/** The entry's `when` flags all true. */
const inForce = (rule: ScreeningRule) =>
  (rule.when ?? []).map((field) => sql<SqlBool>`(data -> ${field}) = 'true'::jsonb`);

/** The entries of a rule's catalogue valid at `at`, in force, whose fields equal `values`. */
async function matchingEntries(
  db: Kysely<Database>,
  rule: ScreeningRule,
  values: Record<string, string>,
  at: Date,
): Promise<ScreeningMatchFound[]> {
  const equal = Object.entries(values).map(
    ([field, value]) => sql<SqlBool>`upper(btrim(data ->> ${field})) = ${normal(value)}`,
  );
  const rows = await liveEntries(db)
    .select(['id', 'entry_key', 'data'])
    .where('catalog', '=', rule.catalog)
    .where(validAt(at))
    .where(sql<SqlBool>`${sql.join([...equal, ...inForce(rule)], sql` and `)}`)
    .orderBy('entry_key')
    .execute();
  return rows.map((row) => ({
    catalog: rule.catalog,
    entryId: row.id,
    entryKey: row.entry_key,
    entry: row.data,
    matched: values,
  }));
}

/** Every entry the document matches at `at`, rule by rule. */
export async function screen(
  db: Kysely<Database>,
  screening: WorkflowScreening,
  data: Record<string, unknown>,
  at: Date,
): Promise<ScreeningMatchFound[]> {
  const found: ScreeningMatchFound[] = [];
  for (const rule of screening.rules) {
    const values = ruleValues(rule, data);
    if (values) found.push(...(await matchingEntries(db, rule, values, at)));
  }
  return found;
}

/** Whether the workflow screens at this action. */
export function screensAt(workflow: WorkflowDefinition, action: string): boolean {
  return workflow.screening?.on.includes(action) ?? false;
}

/**
 * The pipeline's hook, before the write: at an action the workflow screens, a hit refuses it
 * (the transaction rolls back; `keepingScreeningHits` records the hits after).
 */
export async function refuseOnScreeningHit(
  db: Kysely<Database>,
  workflow: WorkflowDefinition,
  subject: { type: string; id: string | null; action: string; actor: string },
  data: Record<string, unknown>,
  at: Date,
): Promise<void> {
  if (!workflow.screening || !screensAt(workflow, subject.action)) return;
  const found = await screen(db, workflow.screening, data, at);
  if (found.length === 0) return;
  const { type, ...rest } = subject;
  throw new ScreeningRefusal(
    found.map((hit) => ({
      ...hit,
      ...rest,
      documentType: type,
      documentId: subject.id || null,
      outcome: 'refused',
      at,
    })),
  );
}

/** Writes hits (in the caller's transaction, or one of their own). */
export async function recordHits(
  db: Kysely<Database>,
  hits: readonly ScreeningHitRecord[],
): Promise<void> {
  if (hits.length === 0) return;
  await db
    .insertInto('screening_hit')
    .values(
      hits.map((hit) => ({
        document_type: hit.documentType,
        document_id: hit.documentId,
        catalog: hit.catalog,
        entry_id: hit.entryId,
        entry_key: hit.entryKey,
        entry: JSON.stringify(hit.entry),
        matched: JSON.stringify(hit.matched),
        action: hit.action,
        outcome: hit.outcome,
        actor: hit.actor,
        screened_at: hit.at.toISOString(),
      })),
    )
    .execute();
}

/**
 * Runs a command's transaction; a screening refusal's hits are recorded once it rolled back, in
 * a transaction of their own, so the refusal keeps its trace.
 */
export async function keepingScreeningHits<T>(db: Kysely<Database>, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ScreeningRefusal) await recordHits(db, error.hits);
    throw error;
  }
}

/** A document's hits, newest first (for the officers who see it). */
export async function hitsOf(db: Kysely<Database>, documentId: string) {
  return db
    .selectFrom('screening_hit')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('screened_at', 'desc')
    .orderBy('id')
    .execute();
}

/** "The document has a screening hit", as SQL on the `document` row (an indexed EXISTS). */
export function hasScreeningHit(): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from screening_hit h where h.document_id = document.id)`;
}

/** What a catalogue write rescreens: the workflows screening against it. */
export interface RescreenScope {
  workflows: readonly WorkflowDefinition[];
  actor: string;
  at: Date;
}

/** The statuses a workflow's machine ends in: documents there are no longer screened again. */
function finalStatuses(workflow: WorkflowDefinition): string[] {
  return Object.entries(workflow.machine.states)
    .filter(([, state]) => (state as { type?: string }).type === 'final')
    .map(([status]) => status);
}

/**
 * A block entry written (created, changed, restored): the submitted documents not in a final
 * status of every workflow screening against its catalogue that it matches, valid and in force
 * now, are flagged (a hit recorded once per document and entry). Matched in SQL on the entry's
 * values, never by reading every document.
 */
export async function rescreenEntry(
  db: Kysely<Database>,
  catalog: string,
  entry: {
    id: string;
    key: string;
    data: Record<string, unknown>;
    startTime: string;
    endTime: string | null;
  },
  scope: RescreenScope,
): Promise<number> {
  const time = scope.at.getTime();
  const valid =
    Date.parse(entry.startTime) <= time &&
    (entry.endTime === null || time < Date.parse(entry.endTime));
  if (!valid) return 0;
  let flagged = 0;
  for (const workflow of scope.workflows) {
    for (const rule of workflow.screening?.rules ?? []) {
      if (rule.catalog !== catalog) continue;
      if ((rule.when ?? []).some((field) => entry.data[field] !== true)) continue;
      const values = documentValues(rule, entry.data);
      if (!values) continue;
      const ids = await documentsToFlag(db, {
        type: workflow.id,
        finals: finalStatuses(workflow),
        values,
        entryId: entry.id,
      });
      const matched = Object.fromEntries(
        rule.match.map((m) => [m.field, String(entry.data[m.field])]),
      );
      await recordHits(
        db,
        ids.map((documentId) => ({
          catalog,
          entryId: entry.id,
          entryKey: entry.key,
          entry: entry.data,
          matched,
          documentType: workflow.id,
          documentId,
          action: 'rescreen',
          outcome: 'flagged' as const,
          actor: scope.actor,
          at: scope.at,
        })),
      );
      flagged += ids.length;
    }
  }
  return flagged;
}

/** The document values an entry's fields make of a rule; undefined when a fixed one differs. */
function documentValues(
  rule: ScreeningRule,
  data: Record<string, unknown>,
): Array<{ pointer: string; value: string }> | undefined {
  const values: Array<{ pointer: string; value: string }> = [];
  for (const match of rule.match) {
    const value = data[match.field];
    if (typeof value !== 'string' || !value.trim()) return undefined;
    if (match.pointer === undefined) {
      if (normal(match.value ?? '') !== normal(value)) return undefined;
    } else values.push({ pointer: match.pointer, value: normal(value) });
  }
  return values;
}

/**
 * After a catalogue write (the catalogue routes call it once the write is committed): the
 * entry written, or every entry valid now when unknown (an import), rescreens the submitted
 * documents of the workflows screening against the catalogue.
 */
export async function rescreenAfterWrite(
  db: Kysely<Database>,
  workflows: readonly WorkflowDefinition[],
  catalog: CatalogDefinition,
  written: CatalogEntry | undefined,
  actor: string,
  at: Date = new Date(),
): Promise<number> {
  const screening = workflows.filter((w) =>
    w.screening?.rules.some((r) => r.catalog === catalog.id),
  );
  if (screening.length === 0) return 0;
  const scope = { workflows: screening, actor, at };
  const entries = written
    ? [entryOf(catalog, written)]
    : (
        await liveEntries(db)
          .select(['id', 'entry_key', 'data', 'start_time', 'end_time'])
          .where('catalog', '=', catalog.id)
          .where(validAt(at))
          .execute()
      ).map((row) => ({
        id: row.id,
        key: row.entry_key,
        data: row.data,
        startTime: new Date(row.start_time).toISOString(),
        endTime: row.end_time === null ? null : new Date(row.end_time).toISOString(),
      }));
  let flagged = 0;
  for (const entry of entries) flagged += await rescreenEntry(db, catalog.id, entry, scope);
  return flagged;
}

/** An entry as the API answers it, as `rescreenEntry` reads it. */
function entryOf(catalog: CatalogDefinition, written: CatalogEntry) {
  const { startTime, endTime, ...data } = written.data;
  return {
    id: written.id,
    key: entryKey(catalog, data),
    data,
    startTime: String(startTime),
    endTime: typeof endTime === 'string' ? endTime : null,
  };
}
