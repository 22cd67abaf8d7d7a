import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { visibleRow } from './commands';
import { referenceOf } from './renewals';
import { REFERRING_LIMIT, referringDocuments } from './store/referring';
import type { CompiledWorkflow } from './workflows';

/*
 * The documents naming one (`referencedBy`, docs/workflows.md "Renewals, suspensions and
 * documents naming a document"): a table on its screen for its owner and officers.
 */

/** A column of the documents naming one, as the answer gives it: its key, label and kind. */
export interface ReferringColumnView {
  key: string;
  label: string;
  kind: 'number' | 'status' | 'date' | 'text';
}

export interface ReferringList {
  label: string;
  columns: ReferringColumnView[];
  items: Array<{ id: string; type: string; values: Record<string, string | null> }>;
  /** More documents name it than are listed (REFERRING_LIMIT). */
  more: boolean;
}

const stamp = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/**
 * The documents naming one the caller sees (its owner, or an officer seeing every document of
 * the type): one `referencedBy` declaration's table, its columns only, newest change first.
 */
export class ReferringDocuments {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly workflowOf: (type: string) => CompiledWorkflow,
  ) {}

  async list(type: string, principal: Principal, id: string, name: string): Promise<ReferringList> {
    const workflow = this.workflowOf(type);
    const referring = Object.hasOwn(workflow.definition.referencedBy ?? {}, name)
      ? workflow.definition.referencedBy?.[name]
      : undefined;
    if (!referring) throw new ApiProblem(404, ERROR_CODES.notFound);
    const row = await visibleRow(this.db, workflow, principal, id);
    const columns = referring.columns.map((column, i): ReferringColumnView => {
      const field = column.field;
      const kind =
        field === 'number' || field === 'status'
          ? field
          : field === 'submittedAt' || field === 'updatedAt'
            ? 'date'
            : 'text';
      return { key: column.pointer ?? field ?? `c${i}`, label: column.label, kind };
    });
    const reference = referenceOf(referring.by, row);
    if (!reference) return { label: referring.label, columns, items: [], more: false };
    const pointers = referring.columns.flatMap((c) => (c.pointer ? [c.pointer] : []));
    const rows = await referringDocuments(
      this.db,
      referring.type,
      referring.pointer,
      reference,
      pointers,
    );
    const items = rows.slice(0, REFERRING_LIMIT).map((found) => {
      const values: Record<string, string | null> = {};
      referring.columns.forEach((column, i) => {
        const key = columns[i]!.key;
        if (column.pointer) values[key] = found.values[pointers.indexOf(column.pointer)] ?? null;
        else if (column.field === 'number') values[key] = found.number;
        else if (column.field === 'status') values[key] = found.status;
        else if (column.field === 'submittedAt') values[key] = stamp(found.submitted_at);
        else if (column.field === 'updatedAt') values[key] = stamp(found.updated_at);
      });
      return { id: found.id, type: referring.type, values };
    });
    return { label: referring.label, columns, items, more: rows.length > REFERRING_LIMIT };
  }
}
