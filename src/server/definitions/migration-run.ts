import { isDeepStrictEqual } from 'node:util';
import type { Kysely, Transaction } from 'kysely';
import type { DefinitionBundle } from '../../core/definitions/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import { applyDataMoves, DATA_MOVED, type MoveFailure } from '../documents/data-moves';
import { movableBatches, writeMovedData } from '../documents/store/data-moves';
import type { VersionAuthor } from '../documents/store/rows';
import { writtenBy } from '../documents/store/scans';
import { createAjv } from './ajv';
import {
  changedEntities,
  draftStages,
  newTally,
  refusals,
  validatorsFor,
  type DocumentImpact,
  type Tally,
} from './document-impact';
import { problemOf, said, schemaFile, workflowFile, type SaidProblem } from './problems';

/** What a workflow's new `dataMoves` will do to its stored documents. */
export interface MigrationPlan {
  /** The workflow declaring the moves. */
  workflow: string;
  /** Its documents read. */
  checked: number;
  /** Those whose data the moves change. */
  moved: number;
  /** Numbers (or ids) of the first documents moved. */
  examples: string[];
}

/** The stored documents under a new set: refused ones, moves planned, problems found. */
export interface StoredDataVerdict {
  impact: DocumentImpact[];
  migrations: MigrationPlan[];
  problems: SaidProblem[];
}

/** Given by a publish: the moves are written in its transaction, as `author`, while all is well. */
export interface MoveWriter {
  trx: Transaction<Database>;
  author: VersionAuthor;
}

/**
 * Every stored document of each type whose schema changed, or whose workflow brings new
 * `dataMoves`, moved in memory as those moves say and validated as the server will validate its
 * next write (document-impact.ts). A document the moves cannot move, or that stays invalid, is a
 * problem naming it. With `writer`, each moved document is written as it is read, until a
 * problem is found: the caller then throws and its transaction takes every write back, while the
 * scan goes on to name every problem, so a publish refuses with the very problems a check lists.
 */
export async function checkStoredData(
  db: Kysely<Database>,
  current: DefinitionBundle,
  next: DefinitionBundle,
  {
    writer,
    sampleLimit = 5,
    batchSize = 500,
  }: { writer?: MoveWriter; sampleLimit?: number; batchSize?: number } = {},
): Promise<StoredDataVerdict> {
  const ajv = createAjv();
  const changed = new Set(changedEntities(current, next).map((entity) => entity.id));
  const impacts = new Map<string, Tally>();
  const migrations: MigrationPlan[] = [];
  const failures = new Map<string, { count: number; examples: string[] }>();
  const problems: SaidProblem[] = [];
  const failed = () => problems.length > 0 || failures.size > 0 || invalidCount(impacts) > 0;
  for (const workflow of [...next.workflows].sort((a, b) => a.id.localeCompare(b.id))) {
    const entity = next.schemas.find((candidate) => candidate.id === workflow.document);
    const before = current.workflows.find((candidate) => candidate.id === workflow.id);
    const moves = newMoves(workflow, before);
    if (!entity || (!changed.has(entity.id) && moves.length === 0)) continue;
    const tally = impacts.get(entity.id) ?? newTally();
    impacts.set(entity.id, tally);
    const validators = validatorsFor(ajv, entity);
    const stages = draftStages(before ?? workflow);
    const plan: MigrationPlan = { workflow: workflow.id, checked: 0, moved: 0, examples: [] };
    const batches = movableBatches(writer?.trx ?? db, workflow.id, {
      batchSize: Math.max(1, batchSize),
      lock: writer !== undefined && moves.length > 0,
    });
    for await (const rows of batches) {
      const drafts = rows.filter((row) => stages.statuses.has(row.status)).map((row) => row.id);
      const submitted = await writtenBy(writer?.trx ?? db, drafts, stages.validating);
      for (const row of rows) {
        const name = row.number ?? row.id;
        plan.checked += 1;
        const outcome = applyDataMoves(row.data, moves);
        if ('failure' in outcome) {
          const { move, why, params } = outcome.failure;
          const key = JSON.stringify([workflow.id, move, why, params]);
          const failure = failures.get(key) ?? { count: 0, examples: [] };
          failure.count += 1;
          if (failure.examples.length < sampleLimit) failure.examples.push(name);
          failures.set(key, failure);
          continue;
        }
        const draft = stages.statuses.has(row.status) && !submitted.has(row.id);
        const validate = draft ? validators.draft : validators.full;
        tally.add(name, refusals(entity, validate, outcome.data), sampleLimit);
        if (!outcome.changed) continue;
        plan.moved += 1;
        if (plan.examples.length < sampleLimit) plan.examples.push(name);
        if (writer && !failed())
          await writeMovedData(writer.trx, row, outcome.data, {
            action: DATA_MOVED,
            author: writer.author,
          });
      }
    }
    if (moves.length > 0) migrations.push(plan);
  }
  for (const [key, { count, examples }] of failures) {
    const [workflow, move, why, params] = JSON.parse(key) as [
      string,
      number,
      MoveFailure['why'],
      MoveFailure['params'],
    ];
    problems.push(
      problemOf(
        workflowFile(workflow),
        `/dataMoves/${move}`,
        said(`dataMove${why}`, { ...params, count, examples: examples.join(', ') }),
      ),
    );
  }
  const impact = [...impacts].map(([document, tally]) => tally.impact(document));
  for (const entry of impact.filter((candidate) => candidate.invalid > 0))
    problems.push(invalidProblem(entry, next));
  return { impact, migrations, problems };
}

/** The moves a publish makes: the workflow's, unless the served workflow made the same already. */
function newMoves(next: WorkflowDefinition, before: WorkflowDefinition | undefined) {
  const moves = next.dataMoves ?? [];
  return isDeepStrictEqual(moves, before?.dataMoves ?? []) ? [] : moves;
}

function invalidProblem(entry: DocumentImpact, next: DefinitionBundle): SaidProblem {
  const fields = entry.fields.map((f) => `${f.pointer} (${f.keyword}, ${f.count})`).join(', ');
  const moving = next.workflows.some((w) => w.document === entry.document && w.dataMoves);
  return problemOf(
    schemaFile(entry.document),
    '/schema',
    said(moving ? 'storedDocumentsInvalidAfterMoves' : 'storedDocumentsInvalid', {
      count: entry.invalid,
      checked: entry.checked,
      document: entry.document,
      fields,
      examples: entry.examples.join(', '),
    }),
  );
}

const invalidCount = (impacts: ReadonlyMap<string, Tally>) =>
  [...impacts.values()].reduce((sum, tally) => sum + tally.invalid, 0);
