import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { FLAGS_COLUMN } from '../../core/documents/case-work';
import type { DocumentSummary } from '../../core/documents/types';
import type { WorkflowList } from '../../core/documents/workflow';
import type { Principal } from '../auth/principal';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { invalid } from '../search/compile-search';
import { declaredFlags, filtersByFlags } from './case-work';
import { flaggedWith, type SummaryRow } from './store/lists';
import type { CompiledWorkflow } from './workflows';

/**
 * Flags in lists (docs/workflows.md, "Case notes and flags"): a search's `flags` keeps the
 * documents having all of them, on a list offering them (`flagFilter`) and for officers only (a
 * filter would tell an applicant which flags their own documents carry); a list's `flags`
 * column shows them, to officers only, never on a document the reader owns.
 */
export function flagFilterOf(
  workflow: CompiledWorkflow,
  principal: Principal,
  list: WorkflowList | undefined,
  asked: unknown,
): RawBuilder<SqlBool> {
  if (asked === undefined) return sql<SqlBool>`true`;
  if (!filtersByFlags(workflow, principal))
    throw new ApiProblem(
      403,
      ERROR_CODES.forbidden,
      {},
      undefined,
      'case-work.errors.officersOnly',
    );
  const offered = list?.flagFilter ?? [];
  if (!Array.isArray(asked))
    throw invalid([{ path: '/flags', rule: 'type', params: { type: 'array' } }]);
  asked.forEach((flag, i) => {
    if (typeof flag !== 'string' || !offered.includes(flag))
      throw invalid([{ path: `/flags/${i}`, rule: 'enum', params: { allowedValues: offered } }]);
  });
  return flaggedWith(asked as string[]);
}

/** Whether the list shows the flags column to this reader. */
export function listShowsFlags(
  workflow: CompiledWorkflow,
  principal: Principal,
  list: WorkflowList | undefined,
): boolean {
  return (
    list?.columns.some((column) => column.field === FLAGS_COLUMN && !column.pointer) === true &&
    filtersByFlags(workflow, principal)
  );
}

/** A row's flags added to its summary, when the list shows them to this reader. */
export function withFlags(
  summary: DocumentSummary,
  row: SummaryRow,
  shows: boolean,
  principal: Principal,
  workflow: CompiledWorkflow,
): DocumentSummary {
  if (!shows || row.owner === principal.subject) return summary;
  return { ...summary, flags: declaredFlags(workflow, row.flags) };
}
