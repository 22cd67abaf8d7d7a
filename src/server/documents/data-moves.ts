import { isDeepStrictEqual } from 'node:util';
import { isNode } from '../../core/definitions/json';
import type { WorkflowDataMove } from '../../core/definitions/shapes/workflow';
import { escapeSegment, unescapeSegment } from '../../core/rules/registry';

/** The history's action for a document whose data a workflow's `dataMoves` changed. */
export const DATA_MOVED = 'dataMoved';
/** The history's action for a document a restore returned to its data before a move. */
export const DATA_RESTORED = 'dataRestored';

type Data = Record<string, unknown>;

/**
 * Why a move could not be made on one document: the move's index, and what stopped it, as the
 * checker's text `dataMove<Why>` says it (translations/<language>/checker.json).
 */
export interface MoveFailure {
  move: number;
  why: 'SetMissing' | 'SetNotObject' | 'RenameTaken' | 'RenameMissing' | 'RenameNotObject';
  /** The move's field, the rename's new place, the place that is missing or no object. */
  params: { field: string; to?: string; at?: string };
}

/** The data after `moves`, whether they changed it, or the first move that could not be made. */
export type MoveOutcome = { data: Data; changed: boolean } | { failure: MoveFailure };

const segmentsOf = (pointer: string) => pointer.split('/').slice(1).map(unescapeSegment);

type Blocked = { blocked: 'Missing' | 'NotObject'; at: string };

/** The object holding the pointer's last segment, or where and why there is none. */
function parentOf(data: Data, pointer: string): { parent: Data; key: string } | Blocked {
  const segments = segmentsOf(pointer);
  const key = segments.pop() ?? '';
  let node: unknown = data;
  let at = '';
  for (const segment of segments) {
    at += `/${segment}`;
    node = isNode(node) ? node[segment] : undefined;
    if (node === undefined) return { blocked: 'Missing', at };
  }
  if (!isNode(node)) return { blocked: 'NotObject', at: at || '/' };
  return { parent: node, key };
}

/** The value at `pointer`, undefined when absent. */
export function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const segment of segmentsOf(pointer)) node = isNode(node) ? node[segment] : undefined;
  return node;
}

/**
 * Makes `moves` on a copy of `data`, in order. Each is a no-op where there is nothing to do (the
 * value is there already, the field to rename or remove is absent), so a document moved once is
 * not moved again; a move that would overwrite a value or write under a missing object fails.
 */
export function applyDataMoves(data: Data, moves: readonly WorkflowDataMove[]): MoveOutcome {
  const next = structuredClone(data);
  let changed = false;
  for (const [move, step] of moves.entries()) {
    const fail = (why: MoveFailure['why'], params: MoveFailure['params']) => ({
      failure: { move, why, params },
    });
    if ('setDefault' in step) {
      if (valueAt(next, step.setDefault) !== undefined) continue;
      const place = parentOf(next, step.setDefault);
      if ('blocked' in place)
        return fail(`Set${place.blocked}`, { field: step.setDefault, at: place.at });
      place.parent[place.key] = structuredClone(step.value);
    } else if ('rename' in step) {
      const value = valueAt(next, step.rename);
      if (value === undefined) continue;
      if (valueAt(next, step.to) !== undefined)
        return fail('RenameTaken', { field: step.rename, to: step.to });
      const place = parentOf(next, step.to);
      if ('blocked' in place)
        return fail(`Rename${place.blocked}`, { field: step.rename, to: step.to, at: place.at });
      place.parent[place.key] = value;
      removeAt(next, step.rename);
    } else {
      if (valueAt(next, step.remove) === undefined) continue;
      removeAt(next, step.remove);
    }
    changed = true;
  }
  return { data: next, changed };
}

function removeAt(data: Data, pointer: string): void {
  const place = parentOf(data, pointer);
  if (!('blocked' in place)) delete place.parent[place.key];
}

/**
 * The fields a move changed, as pointers: where `before` and `after` differ, objects walked into,
 * anything else (arrays, values) compared whole.
 */
export function changedPointers(before: unknown, after: unknown, at = ''): string[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (!isNode(before) || !isNode(after)) return [at];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].flatMap((key) =>
    changedPointers(before[key], after[key], `${at}/${escapeSegment(key)}`),
  );
}

/**
 * `current` with the fields a move changed (`before` -> `after`) given back their value before
 * it: a field the move wrote is removed again, one it emptied is filled again. Fields the move
 * did not touch keep what was written since.
 */
export function undoDataMove(current: Data, before: Data, after: Data): Data {
  const next = structuredClone(current);
  for (const pointer of changedPointers(before, after)) {
    if (pointer === '') return structuredClone(before);
    const earlier = valueAt(before, pointer);
    if (earlier === undefined) {
      removeAt(next, pointer);
      continue;
    }
    const place = parentOf(next, pointer);
    if (!('blocked' in place)) place.parent[place.key] = structuredClone(earlier);
  }
  return next;
}
