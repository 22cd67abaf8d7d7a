import { sql, type RawBuilder } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { plainPath } from './key-indexes';

// The public check's lookups by a number in the data or a list's certificates: the store's
// queries write the very expressions below, so the planner matches them to the indexes.

export const literalPath = (pointer: string) => `'${plainPath(pointer)}'`;

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

/** What follows `create index <name>` for each lookup a workflow's public check makes. */
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

/**
 * The reference a document's field holds as another document names it (`referencedBy`): trimmed
 * and upper-cased as the `documentReference` rule reads it, `(upper(btrim(data #>> '{a,b}')))`.
 */
export function referringKeySql(pointer: string): string {
  return `(upper(btrim(data #>> ${literalPath(pointer)})))`;
}

export const referringKey = (pointer: string): RawBuilder<string | null> =>
  sql<string | null>`${sql.raw(referringKeySql(pointer))}`;

/** The indexes `referencedBy` needs on the referring types: type -> what follows `create index`. */
export function referringIndexDefinitions(workflow: WorkflowDefinition): Array<[string, string]> {
  return Object.values(workflow.referencedBy ?? {}).map((referring) => [
    referring.type,
    `on document (${referringKeySql(referring.pointer)}) where type = '${referring.type.replace(/'/g, "''")}'`,
  ]);
}
