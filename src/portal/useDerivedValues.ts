import { useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../core/api/client';
import type { WorkflowDefinition } from '../core/documents/workflow';
import { resolvePointer, setAt } from '../core/rules/registry';
import type { DocumentData } from '../engine/form';
import type { RuleProblem } from '../core/rules/types';
import { backendOf } from '../core/documents/conventions';

const NONE: RuleProblem[] = [];

/** A problem's parameters as the reader knows them (a status as its word). */
export function paramsInWords(
  params: Record<string, unknown>,
  t: (key: string, options: { defaultValue: string }) => string,
): Record<string, unknown> {
  const status = params.status;
  return typeof status === 'string'
    ? { ...params, status: t(`statuses.${status}`, { defaultValue: status }) }
    : params;
}

/** How long the form waits after a change before it asks the server again. */
const DELAY_MS = 400;

/**
 * Keeps the server-derived values (`derive`) up to date as the form is filled; an answer to
 * stale data is dropped and asked again. Answers the problems found in the watched values.
 */
export function useDerivedValues(
  api: ApiClient,
  workflow: WorkflowDefinition,
  id: string | undefined,
  data: DocumentData,
  setData: (update: (current: DocumentData) => DocumentData) => void,
  enabled: boolean,
): RuleProblem[] {
  const derive = workflow.derive;
  const key = derive ? JSON.stringify(derive.on.map((p) => resolvePointer(data, p) ?? null)) : '';
  const last = useRef<string | undefined>(undefined);
  const latest = useRef(data);
  latest.current = data;
  // Bumped to ask again when an answer came back for data changed in the meantime.
  const [again, setAgain] = useState(0);
  const [problems, setProblems] = useState<RuleProblem[]>(NONE);
  const filled = (value: DocumentData) =>
    JSON.stringify((derive?.fills ?? []).map((p) => resolvePointer(value, p) ?? null));

  const backend = backendOf(workflow);
  useEffect(() => {
    if (!derive || !enabled) return;
    // The first value seen is what the server stored: nothing to derive yet.
    if (last.current === undefined) {
      last.current = key;
      return;
    }
    if (last.current === key && again === 0) return;
    last.current = key;
    const asked = key;
    const timer = setTimeout(() => {
      const sent = latest.current;
      void api
        .post<{ values: Record<string, unknown>; problems?: RuleProblem[] }>(
          backend,
          `/${workflow.id}/derive`,
          { data: sent, ...(id ? { id } : {}) },
        )
        .then(([error, answer]) => {
          if (error || asked !== last.current) return;
          if (filled(latest.current) !== filled(sent)) {
            setAgain((n) => n + 1);
            return;
          }
          setProblems(answer.problems?.length ? answer.problems : NONE);
          setData((current) => {
            const next = structuredClone(current);
            // A value the server no longer derives is cleared, not left as it was.
            for (const pointer of derive.fills) {
              const value = answer.values[pointer];
              if (value !== undefined || resolvePointer(next, pointer) !== undefined)
                setAt(next, pointer, value);
            }
            return next;
          });
        });
    }, DELAY_MS);
    return () => clearTimeout(timer);
  }, [api, derive, enabled, id, key, again, setData, backend, workflow.id]);
  return problems;
}
