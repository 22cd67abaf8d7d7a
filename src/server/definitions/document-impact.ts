import { isDeepStrictEqual } from 'node:util';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Kysely } from 'kysely';
import type { DefinitionBundle, EntityDefinition } from '../../core/definitions/types';
import { isNode } from '../../core/definitions/json';
import { machineTransitions } from '../../core/definitions/stately';
import { stripRequired } from '../../core/definitions/strip-required';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { escapeSegment, unescapeSegment } from '../../core/rules/registry';
import { applicableData } from '../../core/rules/sections';
import type { Database } from '../db/schema';
import { movableBatches } from '../documents/store/data-moves';
import { writtenBy } from '../documents/store/scans';
import { createAjv } from './ajv';

/** How many stored documents of a type fail its next schema, and where. */
export interface DocumentImpact {
  /** The document type: the entity (schemas/<id>.schema.json) whose schema changed. */
  document: string;
  /** Stored documents checked (those of every workflow of the type). */
  checked: number;
  /** Documents the next schema refuses. */
  invalid: number;
  /** Each field and keyword refused, with how many documents it refuses there; most first. */
  fields: FieldImpact[];
  /** Numbers (or ids, for documents without one) of the first documents refused, by id. */
  examples: string[];
}

export interface FieldImpact {
  /** A JSON pointer into the data, with a `*` in place of every array index. */
  pointer: string;
  keyword: string;
  count: number;
}

/**
 * What publishing `next` would do to stored documents of each type whose schema changed: each
 * validated as the server will on its next write. Reads in batches by id; pass a transaction as
 * `db` to read from one snapshot.
 */
export async function documentImpact(
  db: Kysely<Database>,
  current: DefinitionBundle,
  next: DefinitionBundle,
  // Examples kept per type, and documents read per query.
  { sampleLimit = 5, batchSize = 500 }: { sampleLimit?: number; batchSize?: number } = {},
): Promise<DocumentImpact[]> {
  const ajv = createAjv();
  const impacts: DocumentImpact[] = [];
  for (const entity of changedEntities(current, next)) {
    const validators = validatorsFor(ajv, entity);
    const tally = newTally();
    for (const workflow of next.workflows.filter((w) => w.document === entity.id)) {
      // Whether a document is past the draft stage is a fact of its past: the actions it was
      // written by are those of the workflow serving it now.
      const stages = draftStages(current.workflows.find((w) => w.id === workflow.id) ?? workflow);
      for await (const rows of movableBatches(db, workflow.id, {
        batchSize: Math.max(1, batchSize),
        lock: false,
      })) {
        const drafts = rows.filter((row) => stages.statuses.has(row.status)).map((row) => row.id);
        const submitted = await writtenBy(db, drafts, stages.validating);
        for (const row of rows) {
          const draft = stages.statuses.has(row.status) && !submitted.has(row.id);
          const refused = refusals(entity, draft ? validators.draft : validators.full, row.data);
          tally.add(row.number ?? row.id, refused, sampleLimit);
        }
      }
    }
    impacts.push(tally.impact(entity.id));
  }
  return impacts;
}

/** The entities of `next` whose schema is not that of `current` (key order aside). */
export function changedEntities(
  current: DefinitionBundle,
  next: DefinitionBundle,
): EntityDefinition[] {
  return next.schemas
    .filter((entity) => {
      const before = current.schemas.find((candidate) => candidate.id === entity.id);
      return !before || !isDeepStrictEqual(before.schema, entity.schema);
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The server's two validators of an entity (documents/workflows.ts): the whole schema, for
 * actions with `validate`, and the schema without `required`, for every other write.
 */
export function validatorsFor(ajv: Ajv, entity: EntityDefinition) {
  const { $id: _full, ...full } = entity.schema;
  const { $id: _draft, ...draft } = stripRequired(entity.schema);
  return { full: ajv.compile(full), draft: ajv.compile(draft) };
}

/**
 * A document no `validate` action wrote is a draft, checked without `required`. `statuses`: those
 * reachable from the initial state without validating; a status also reachable after one
 * (CANCELLED) is decided by the document's history naming a `validating` action.
 */
export function draftStages(workflow: WorkflowDefinition) {
  const validating = Object.entries(workflow.actions)
    .filter(([, action]) => action.validate)
    .map(([name]) => name);
  const statuses = new Set([workflow.machine.initial]);
  const waiting = [workflow.machine.initial];
  // Guarded transitions count too; one without a target leaves the document in its status.
  const transitions = machineTransitions(workflow.machine);
  for (let status = waiting.pop(); status !== undefined; status = waiting.pop()) {
    for (const { action, target } of transitions.filter((t) => t.from === status)) {
      if (validating.includes(action) || statuses.has(target)) continue;
      statuses.add(target);
      waiting.push(target);
    }
  }
  return { statuses, validating };
}

export type Tally = ReturnType<typeof newTally>;

/** The refusals of one document type: how many checked and refused, where, and which. */
export function newTally() {
  const counts = new Map<Refusal, number>();
  const examples: string[] = [];
  const tally = {
    checked: 0,
    invalid: 0,
    add(name: string, refused: ReadonlySet<Refusal>, sampleLimit: number) {
      tally.checked += 1;
      if (refused.size === 0) return;
      tally.invalid += 1;
      for (const refusal of refused) counts.set(refusal, (counts.get(refusal) ?? 0) + 1);
      if (examples.length < sampleLimit) examples.push(name);
    },
    impact(document: string): DocumentImpact {
      const { checked, invalid } = tally;
      return { document, checked, invalid, fields: fieldImpacts(counts), examples: [...examples] };
    },
  };
  return tally;
}

/** A field and keyword the schema refuses, as `pointer` + NUL + `keyword`. */
export type Refusal = string;

/**
 * What the validator refuses in the data, each field once. The server validates the data
 * without the sections that do not apply to it (their `when`), and so does this.
 */
export function refusals(
  entity: EntityDefinition,
  validate: ValidateFunction,
  stored: Record<string, unknown>,
): ReadonlySet<Refusal> {
  const data = applicableData(entity, stored);
  if (validate(data)) return new Set();
  return new Set(
    (validate.errors ?? []).map((error) => `${fieldPointer(data, error)}\0${error.keyword}`),
  );
}

/**
 * The field an error is about: its instance path plus the missing property, array indexes made
 * `*` (the data is walked to tell an index from a property named by digits).
 */
function fieldPointer(data: unknown, error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1);
  let node: unknown = data;
  let pointer = '';
  for (const raw of segments) {
    const name = unescapeSegment(raw);
    if (Array.isArray(node)) {
      pointer += '/*';
      node = node[Number(name)];
    } else {
      pointer += `/${raw}`;
      node = isNode(node) ? node[name] : undefined;
    }
  }
  const missing: unknown = error.params.missingProperty;
  return typeof missing === 'string' ? `${pointer}/${escapeSegment(missing)}` : pointer;
}

/** Each field and keyword refused with how many documents it refuses, most first. */
function fieldImpacts(counts: ReadonlyMap<Refusal, number>): FieldImpact[] {
  const fields = [...counts].map(([refusal, count]) => {
    const [pointer = '', keyword = ''] = refusal.split('\0');
    return { pointer, keyword, count };
  });
  return fields.sort(
    (a, b) =>
      b.count - a.count || a.pointer.localeCompare(b.pointer) || a.keyword.localeCompare(b.keyword),
  );
}
