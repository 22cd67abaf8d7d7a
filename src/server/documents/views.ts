import type { Selectable } from 'kysely';
import type { DocumentHistoryTable } from '../db/schema';
import type { RecordKey } from '../../core/documents/record-declarations';
import type { LibraryRow } from '../../core/dashboard/types';
import type { DocumentSummary, DocumentView, HistoryEntry } from '../../core/documents/types';
import type { PendingTimer } from '../../core/documents/timers';
import type { WorkflowList } from '../../core/documents/workflow';
import type { HeaderRow, SummaryRow } from './store/lists';
import type { DocumentRow } from './store/rows';
import { decodeSystemNote, isSystemActor, type SystemNote } from './system-notes';
import type { CompiledWorkflow } from './workflows';

/** How a stored document is answered: the store's rows mapped to the API's shapes. */

export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** What every answer about a document says of it, whole or in a list. */
function header(row: DocumentRow | SummaryRow) {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    version: row.version,
    owner: row.owner,
    ownerName: row.owner_name,
    assignee: row.assignee,
    number: row.number,
    submittedAt: row.submitted_at ? iso(row.submitted_at) : null,
    updatedAt: iso(row.updated_at),
  };
}

/** One document as its screen reads it, with the actions the caller may take now. */
export function documentView(
  row: DocumentRow,
  allowedActions: string[],
  timers?: PendingTimer[],
): DocumentView {
  return {
    ...header(row),
    year: row.year,
    data: row.data,
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    allowedActions,
    ...(timers?.length ? { timers } : {}),
  };
}

/** The data pointers a finder's row reads: each data column's, then the record key's. */
export function summaryPointers(columns: WorkflowList['columns'], key?: RecordKey): string[] {
  const pointers = columns.flatMap((c) => (c.pointer ? [c.pointer] : []));
  return key ? [...pointers, key.pointer] : pointers;
}

/** A finder's row: the header and the list's data columns, from `value0`, `value1`... */
export function documentSummary(
  row: SummaryRow,
  pointers: readonly string[],
  columns: WorkflowList['columns'],
  key?: RecordKey,
): DocumentSummary {
  const at = (pointer: string) => {
    const value = row[`value${pointers.indexOf(pointer)}`];
    return value === null ? undefined : value;
  };
  const keyed = key ? at(key.pointer) : undefined;
  return {
    ...header(row),
    ...(row.assignee_name !== undefined ? { assigneeName: row.assignee_name } : {}),
    ...(row.screening_hit !== undefined ? { screeningHit: row.screening_hit } : {}),
    createdAt: iso(row.created_at),
    ...(key ? { key: typeof keyed === 'string' ? keyed : null } : {}),
    fields: Object.fromEntries(
      columns.filter((c) => c.pointer).map((c) => [c.field, at(c.pointer!)]),
    ),
  };
}

/** My Library's row (also the base of My Tasks'): the header of any workflow's document. */
export function libraryRow(
  row: HeaderRow,
  workflows: ReadonlyMap<string, CompiledWorkflow>,
): LibraryRow {
  return {
    workflow: row.type,
    documentType: workflows.get(row.type)?.definition.document ?? row.type,
    id: row.id,
    number: row.number,
    reference: row.reference,
    status: row.status,
    updatedAt: iso(row.updated_at),
    submittedAt: row.submitted_at === null ? null : iso(row.submitted_at),
  };
}

/**
 * A history line; a note the service wrote comes as a text key and as its text in the reader's
 * language, so a page without the writer's texts (an invoice's note on a visa) still shows it.
 */
export function historyEntry(
  row: Selectable<DocumentHistoryTable>,
  noteText: (note: SystemNote) => string,
): HistoryEntry {
  const note = isSystemActor(row.actor) ? decodeSystemNote(row.notes) : undefined;
  return {
    version: row.version,
    action: row.action,
    operation: `${row.from_status} -> ${row.to_status}`,
    at: iso(row.at),
    notes: note ? noteText(note) : row.notes,
    ...(note ? { notesKey: note.key, notesParams: note.params } : {}),
    name: row.actor_name,
    email: row.actor_email,
    mobile: row.actor_mobile,
    ...(row.on_behalf_of_name ? { onBehalfOf: row.on_behalf_of_name } : {}),
  };
}
