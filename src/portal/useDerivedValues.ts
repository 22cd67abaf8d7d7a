import { useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../core/api/client';
import type { WorkflowDefinition } from '../core/documents/workflow';
import { resolvePointer, setAt } from '../core/rules/registry';
import type { DocumentData } from '../engine/form';
import type { RuleProblem } from '../core/rules/types';
import { backendOf } from '../core/documents/conventions';

const NONE: RuleProblem[] = [];

/**
 * A problem's parameters as the reader knows them: a status (`status`, an application already
 * in another invoice) as its word, as the server words the same parameter in its refusals.
 */
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
 * Keeps the values the server derives (the workflow's `derive`: questions and attachments of
 * the chosen document, the fees due) up to date while the form is filled: when a value they
 * depend on changes, the server computes them from the form's data and they replace what the
 * form shows. An answer that arrives after the person changed what it depends on, or the
 * derived values themselves (an answer to a question being filled), is dropped and asked again
 * with the new data, so nothing typed meanwhile is lost. Answers the problems the server's
 * rules find in the watched values (an invalid sponsor reference), as of the last answer.
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
            // A value the server no longer derives (a sponsor reference that names nothing
            // valid) is absent from its answer: it is cleared, not left as it was.
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
