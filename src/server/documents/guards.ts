import { resolvePointer } from '../../core/rules/registry';
import type { Principal } from '../auth/principal';

/** Modules read a document's data at a JSON pointer (`/fees/total`) as the guards do. */
export { resolvePointer as valueAt };

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

/**
 * The parameters a guard reads, by name: what each is (a status of the machine, a pointer into
 * the document's data, any JSON value) and whether it must be given. The studio offers them;
 * the checker refuses a guard given an unknown parameter or missing a required one.
 */
export type GuardParameters = Readonly<
  Record<string, { kind: 'status' | 'pointer' | 'value'; required: boolean }>
>;

/** Guards every machine may name (`"guard": "isAssigned"`); modules add theirs (`defineModule`). */
export const ENGINE_GUARDS: Readonly<Record<string, Guard>> = {
  isAssigned: ({ document }) => document.assignee !== null,
  isUnassigned: ({ document }) => document.assignee === null,
  callerIsAssignee: ({ document, principal }) => document.assignee === principal.subject,
  previousStatusIs: ({ document }, params) => document.previousStatus === params.status,
  hasNumber: ({ document }) => document.number !== null,
  // The data holds something at the pointer (a renewal names the document it renews).
  hasValue: ({ document }, params) => {
    const value = resolvePointer(document.data, String(params.pointer ?? ''));
    return value !== undefined && value !== null && value !== '';
  },
  dataEquals: ({ document }, params) =>
    resolvePointer(document.data, String(params.pointer ?? '')) === params.value,
  amountDue: ({ document }, params) => {
    const raw = resolvePointer(document.data, String(params.pointer ?? ''));
    return typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw) && Number(raw) > 0;
  },
};

/** What the engine's guards taking parameters read (the others take none). */
export const ENGINE_GUARD_PARAMETERS: Readonly<Record<string, GuardParameters>> = {
  previousStatusIs: { status: { kind: 'status', required: true } },
  dataEquals: {
    pointer: { kind: 'pointer', required: true },
    value: { kind: 'value', required: true },
  },
  amountDue: { pointer: { kind: 'pointer', required: true } },
  hasValue: { pointer: { kind: 'pointer', required: true } },
};
