/**
 * Requests for information (docs/workflows.md, "Requests for information"): what an opening
 * action asks the owner for, item by item, and how the API shows a round. Shared by the server
 * (checks, store, view) and the portal (the query's items, the reply's answers).
 */
import type { WorkflowDefinition } from '../definitions/shapes/workflow';

export type RequestKind = 'answer' | 'document';
export const REQUEST_KINDS: readonly RequestKind[] = ['answer', 'document'];

/** An item an opening action asks for: a catalogue entry by code, or a free text. */
export interface RequestItemInput {
  catalog?: string;
  code?: string;
  text?: string;
  kind: RequestKind;
  mandatory: boolean;
  /** YYYY-MM-DD. */
  due: string;
}

/** An answer an answering (or saving) action gives to one item of the open round. */
export interface RequestAnswerInput {
  item: string;
  text?: string;
  /** An upload of the document's owner (POST /api/media). */
  media?: string;
}

/** What an item is called: the catalogue entry's texts by language, or the free text. */
export type RequestLabel = Partial<Record<string, string>>;

export interface RequestItemView {
  id: string;
  catalog: string | null;
  code: string | null;
  label: RequestLabel;
  kind: RequestKind;
  mandatory: boolean;
  due: string;
  answer: string | null;
  media: { id: string; name: string; size: number; type: string } | null;
  answeredAt: string | null;
  answeredBy: string | null;
}

/** The document's open round, or its last one once answered (`open` false). */
export interface RequestRoundView {
  round: number;
  /** The opening action's notes: the question. */
  question: string | null;
  openedAt: string;
  /** Waiting for answers: not closed, and the document still in the round's status. */
  open: boolean;
  items: RequestItemView[];
}

/** The label in a language: the entry's text in it, else English, else any. */
export function requestLabel(label: RequestLabel, language: string): string {
  return label[language] ?? label.en ?? Object.values(label).find((t) => t !== undefined) ?? '';
}

/** A transition of the machine: from a status, by an action, to a status (itself if none). */
export interface Edge {
  from: string;
  action: string;
  to: string;
}

/** Every transition of a workflow's machine. */
export function edgesOf(workflow: Pick<WorkflowDefinition, 'machine'>): Edge[] {
  const edges: Edge[] = [];
  for (const [from, state] of Object.entries(workflow.machine.states)) {
    const on = (state as { on?: Record<string, unknown> }).on ?? {};
    for (const [action, transitions] of Object.entries(on))
      for (const transition of Array.isArray(transitions) ? transitions : [transitions]) {
        const target =
          typeof transition === 'string'
            ? transition
            : (transition as { target?: unknown } | null)?.target;
        edges.push({ from, action, to: typeof target === 'string' ? target : from });
      }
  }
  return edges;
}

/** The status a round waits in: where its opening actions lead (the checker wants one). */
export function roundStatus(workflow: Pick<WorkflowDefinition, 'machine' | 'requests'>) {
  const open = workflow.requests?.open ?? [];
  const targets = new Set(
    edgesOf(workflow)
      .filter((e) => open.includes(e.action))
      .map((e) => e.to),
  );
  return targets.size === 1 ? [...targets][0] : undefined;
}

/** The role an action plays in a workflow's requests, if any. */
export function requestRole(
  workflow: Pick<WorkflowDefinition, 'requests'>,
  action: string,
): 'open' | 'answer' | 'save' | undefined {
  const requests = workflow.requests;
  if (!requests) return undefined;
  if (requests.open.includes(action)) return 'open';
  if (requests.answer.includes(action)) return 'answer';
  if (requests.save?.includes(action)) return 'save';
  return undefined;
}
