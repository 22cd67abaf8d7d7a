import { useEffect } from 'react';
import type { ApiClient } from '../core/api/client';
import type { DefinitionBundle } from '../core/definitions/types';
import type { DocumentView } from '../core/documents/types';
import type { WorkflowScreen } from '../core/documents/workflow';
import { resolvePointer, setAt } from '../core/rules/registry';
import type { DocumentData } from '../engine/form';
import type { Session } from './session';
import { backendOf } from '../core/documents/conventions';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * Fills a new document's still-empty fields with what its `prefill` takes from the person's
 * profile (`{"profile": pointer}`), once their account is read.
 */
export function useProfilePrefill(
  api: ApiClient,
  bundle: DefinitionBundle,
  session: Session,
  prefill: WorkflowScreen['prefill'] | undefined,
  setData: (update: (current: DocumentData) => DocumentData) => void,
): void {
  const fromProfile = Object.entries(prefill ?? {}).flatMap(([pointer, source]) =>
    typeof source === 'string' ? [] : [[pointer, source.profile] as const],
  );
  const key = JSON.stringify(fromProfile);
  const accounts = bundle.workflows.find((workflow) => workflow.account);
  const subject = session.subject;
  useEffect(() => {
    const wanted = JSON.parse(key) as Array<[string, string]>;
    if (!accounts || !subject || wanted.length === 0) return;
    let current = true;
    void api
      .get<DocumentView>(backendOf(accounts), `/${accounts.id}/${encodeURIComponent(subject)}`)
      .then(([error, account]) => {
        if (error || !current) return;
        setData((data) => {
          let next: DocumentData | undefined;
          for (const [pointer, from] of wanted) {
            const value = resolvePointer(account.data, from);
            if (isEmpty(value) || !isEmpty(resolvePointer(data, pointer))) continue;
            next ??= structuredClone(data);
            setAt(next, pointer, value);
          }
          return next ?? data;
        });
      });
    return () => {
      current = false;
    };
  }, [api, accounts, subject, key, setData]);
}
