import { sql, type RawBuilder } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';

/*
 * The public check finds a document by a number that is not the document's own (the
 * `number` column, indexed with the type): a number kept in the data (a sponsorship number,
 * `verification.number`) or one of the certificates of a list's people (`certificate.holders`).
 * The indexes for those lookups are made from the declarations (with the lists' indexes,
 * list-indexes.ts); the store's queries write the very expressions below, so the planner
 * matches them to the indexes.
 */

/** A data pointer of plain names as the literal text path of `#>` and `#>>`. */
function literalPath(pointer: string): string {
  if (!/^(\/[A-Za-z0-9_]+)+$/.test(pointer))
    throw new Error(`not a plain data pointer: ${pointer}`);
  return `'{${pointer.split('/').slice(1).join(',')}}'`;
}

/** The text at a pointer of the data, as indexed: `(data #>> '{header,reference}')`. */
export function numberAtSql(pointer: string): string {
  return `(data #>> ${literalPath(pointer)})`;
}

/** The list at a pointer of the data, as indexed for containment: `(data #> '{dependants}')`. */
export function listAtSql(pointer: string): string {
  return `(data #> ${literalPath(pointer)})`;
}

export const numberAt = (pointer: string): RawBuilder<string | null> =>
  sql<string | null>`${sql.raw(numberAtSql(pointer))}`;
export const listAt = (pointer: string): RawBuilder<unknown> => sql`${sql.raw(listAtSql(pointer))}`;

/**
 * What follows `create index <name>` for each lookup a workflow's public check makes besides
 * the number column: a btree on the number kept in the data, and a GIN (`jsonb_path_ops`: the
 * containment `@>` only) on the list holding the people's certificates, each partial on the type.
 */
export function verificationIndexDefinitions(workflow: WorkflowDefinition): string[] {
  const verification = workflow.verification;
  if (!verification) return [];
  const ofType = `type = '${workflow.id.replace(/'/g, "''")}'`;
  const definitions: string[] = [];
  if (verification.number)
    definitions.push(`on document (${numberAtSql(verification.number)}) where ${ofType}`);
  const holders = workflow.certificate?.holders;
  if (holders)
    definitions.push(
      `on document using gin (${listAtSql(holders.list)} jsonb_path_ops) where ${ofType}`,
    );
  return definitions;
}
