import type { Principal } from '../auth/principal';

/** What a guard sees: the document as it stands, and who is asking. */
export interface GuardInput {
  document: {
    status: string;
    previousStatus: string | null;
    owner: string;
    assignee: string | null;
    number: string | null;
    data: Record<string, unknown>;
  };
  principal: Principal;
}

export type Guard = (input: GuardInput, params: Record<string, unknown>) => boolean;

/** Guards every machine may name (`"guard": "isAssigned"`); modules add theirs (`defineModule`). */
export const ENGINE_GUARDS: Readonly<Record<string, Guard>> = {
  isAssigned: ({ document }) => document.assignee !== null,
  isUnassigned: ({ document }) => document.assignee === null,
  callerIsAssignee: ({ document, principal }) => document.assignee === principal.subject,
  previousStatusIs: ({ document }, params) => document.previousStatus === params.status,
  hasNumber: ({ document }) => document.number !== null,
  dataEquals: ({ document }, params) =>
    valueAt(document.data, String(params.pointer ?? '')) === params.value,
  amountDue: ({ document }, params) => {
    const raw = valueAt(document.data, String(params.pointer ?? ''));
    return typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw) && Number(raw) > 0;
  },
};

/** Reads a JSON pointer (`/fees/total`) in a document's data. */
export function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return data;
  let node: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
