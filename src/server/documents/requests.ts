import type { Kysely, Transaction } from 'kysely';
import { UUID } from '../db/ids';
import type { Database } from '../db/schema';
import { isNode } from '../../core/definitions/json';
import type { WorkflowRequests } from '../../core/definitions/shapes/requests';
import { LANGUAGES } from '../../core/i18n/translate';
import { localizedText } from '../../core/i18n/localized';
import {
  REQUEST_KINDS,
  requestRole,
  roundStatus,
  type RequestItemView,
  type RequestKind,
  type RequestRoundView,
} from '../../core/documents/requests';
import { firstDueIn } from '../../core/documents/timers';
import type { DocumentView } from '../../core/documents/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { Principal } from '../auth/principal';
import type { CatalogReader } from '../catalog/valid-at';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';
import { invalid } from '../search/compile-search';
import type { DocumentRow } from './store/rows';
import {
  closeRound,
  insertRound,
  latestRound,
  ownedMedia,
  saveAnswer,
  type NewRequestItem,
  type RequestRow,
} from './store/requests';
import type { CompiledWorkflow } from './workflows';
import { spokenDate } from './timers';
import { iso } from './views';

/** At most this many items per round, and this long a free text or an answer. */
const MAX_ITEMS = 50;
const MAX_LABEL = 500;
const MAX_ANSWER = 4000;
const DEFAULT_DUE_DAYS = 14;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What the pipeline hands over (commands.ts `run`, before the write). */
export interface RequestStep {
  trx: Transaction<Database>;
  workflow: CompiledWorkflow;
  action: string;
  /** The document as stored; none when the action creates it. */
  stored: DocumentRow | undefined;
  /** The action's body: `requests` (an opening action) or `answers` (an answering one). */
  request: { notes?: unknown; requests?: unknown; answers?: unknown };
  principal: Principal;
  now: Date;
  catalogs: CatalogReader;
}

/**
 * The requests' part of an action, in its transaction before the document's write: an opening
 * action writes a new round of the items asked; an answering one keeps the answers and closes
 * the round once every mandatory item is answered (else a 400 naming them); a saving one keeps
 * the answers only. Any other action given `requests` or `answers` is refused.
 */
export async function takeRequests(step: RequestStep): Promise<void> {
  const { workflow, action, request } = step;
  const declared = workflow.definition.requests;
  const role = requestRole(workflow.definition, action);
  if (!declared || !role || !step.stored) {
    const extra = (['requests', 'answers'] as const).filter((f) => request[f] !== undefined);
    if (extra.length)
      throw invalid(
        extra.map((f) => ({
          path: '',
          rule: 'additionalProperties',
          params: { additionalProperty: f },
        })),
      );
    return;
  }
  if (role === 'open') {
    if (request.answers !== undefined)
      throw invalid([
        { path: '', rule: 'additionalProperties', params: { additionalProperty: 'answers' } },
      ]);
    return openRound(step, declared, step.stored);
  }
  if (request.requests !== undefined)
    throw invalid([
      { path: '', rule: 'additionalProperties', params: { additionalProperty: 'requests' } },
    ]);
  return answerRound(step, step.stored, role === 'answer');
}

async function openRound(step: RequestStep, declared: WorkflowRequests, stored: DocumentRow) {
  const given = step.request.requests ?? [];
  if (!Array.isArray(given))
    throw invalid([{ path: '/requests', rule: 'type', params: { type: 'array' } }]);
  if (given.length > MAX_ITEMS)
    throw invalid([{ path: '/requests', rule: 'maxItems', params: { limit: MAX_ITEMS } }]);
  const problems: FieldProblem[] = [];
  const items: NewRequestItem[] = [];
  const today = step.now.toISOString().slice(0, 10);
  // An item is due no later than the reply itself: the timer lapsing the status it opens in.
  const target = declaredTarget(step.workflow.definition, stored.status, step.action);
  const replyBy = target
    ? firstDueIn(step.workflow.definition, target, stored.data, step.now)
        ?.toISOString()
        .slice(0, 10)
    : undefined;
  const wanted = new Date(step.now.getTime() + (declared.dueDays ?? DEFAULT_DUE_DAYS) * 864e5)
    .toISOString()
    .slice(0, 10);
  const dueDefault = replyBy && replyBy < wanted ? replyBy : wanted;
  for (const [index, value] of given.entries()) {
    const at = `/requests/${index}`;
    const problem = (path: string, rule: string, params?: Record<string, unknown>) =>
      problems.push({ path: `${at}${path}`, rule, ...(params && { params }) });
    if (!isNode(value)) {
      problem('', 'type', { type: 'object' });
      continue;
    }
    const kind = value.kind ?? 'answer';
    if (typeof kind !== 'string' || !REQUEST_KINDS.includes(kind as RequestKind))
      problem('/kind', 'enum', { allowedValues: REQUEST_KINDS });
    const mandatory = value.mandatory ?? true;
    if (typeof mandatory !== 'boolean') problem('/mandatory', 'type', { type: 'boolean' });
    const due = value.due ?? dueDefault;
    if (typeof due !== 'string' || !isDate(due)) problem('/due', 'format', { format: 'date' });
    else if (due < today) problem('/due', 'requestDuePast');
    else if (replyBy && due > replyBy)
      problem('/due', 'requestDueAfterReply', {
        date: Object.fromEntries(LANGUAGES.map((l) => [l, spokenDate(new Date(replyBy), l)])),
      });
    let label: Record<string, string> | undefined;
    let catalog: string | null = null;
    let code: string | null = null;
    if (value.catalog !== undefined || value.code !== undefined) {
      const source = (declared.catalogs ?? []).find((c) => c.catalog === value.catalog);
      if (!source) problem('/catalog', 'requestCatalogUnknown');
      else if (typeof value.code !== 'string' || value.code.trim() === '')
        problem('/code', 'required');
      else {
        const field = source.code ?? 'code';
        const wanted = value.code;
        const entry = (await step.catalogs.validAt(source.catalog, step.now)).find(
          (candidate) =>
            candidate.data[field] === wanted && meets(candidate.data, source.where ?? {}),
        );
        if (!entry) problem('/code', 'requestCodeUnknown', { code: value.code });
        else {
          catalog = source.catalog;
          code = value.code;
          label = entryLabel(entry.data, value.code);
        }
      }
    } else if (typeof value.text !== 'string' || value.text.trim() === '')
      problem('/text', 'required');
    else if (value.text.length > MAX_LABEL) problem('/text', 'maxLength', { limit: MAX_LABEL });
    else label = { en: value.text.trim() };
    if (label)
      items.push({
        catalog,
        code,
        label,
        kind: kind as RequestKind,
        mandatory: mandatory as boolean,
        due: due as string,
      });
  }
  if (problems.length) throw invalid(problems);
  const status = roundStatus(step.workflow.definition);
  // The checker refused a workflow whose opening actions lead to two statuses.
  if (!status) throw new Error(`Workflow ${step.workflow.definition.id}: no request status`);
  const question = typeof step.request.notes === 'string' ? step.request.notes.trim() : null;
  await insertRound(
    step.trx,
    stored.id,
    { status, question: question || null, at: step.now, by: step.principal.subject },
    items,
  );
}

/** An entry's texts by language: its name, else its description, else the code. */
function entryLabel(data: Record<string, unknown>, code: string): Record<string, string> {
  const label: Record<string, string> = {};
  for (const language of LANGUAGES)
    label[language] =
      localizedText(data, 'name', language) ?? localizedText(data, 'description', language) ?? code;
  return label;
}

/** Whether an entry's fields hold the values a declared catalogue's `where` asks (any of a list). */
function meets(
  data: Record<string, unknown>,
  where: Record<string, string | number | boolean | Array<string | number | boolean>>,
): boolean {
  return Object.entries(where).every(([field, value]) =>
    Array.isArray(value) ? value.includes(data[field] as string) : data[field] === value,
  );
}

function isDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Whether a round waits for answers: not closed, and the document in the status it waits in. */
function isOpen(items: readonly RequestRow[], status: string): boolean {
  const first = items[0];
  return first !== undefined && first.closed_at === null && first.status === status;
}

async function answerRound(step: RequestStep, stored: DocumentRow, closing: boolean) {
  const given = step.request.answers ?? [];
  if (!Array.isArray(given))
    throw invalid([{ path: '/answers', rule: 'type', params: { type: 'array' } }]);
  const items = await latestRound(step.trx, stored.id, true);
  if (!isOpen(items, stored.status)) {
    // No round waits: answers are to one already closed (or never asked).
    if (given.length > 0) throw new ApiProblem(409, ERROR_CODES.requestsClosed);
    return;
  }
  const problems: FieldProblem[] = [];
  const answers = new Map<string, { text: string | null; media: string | null }>();
  for (const [index, value] of given.entries()) {
    const at = `/answers/${index}`;
    if (!isNode(value)) {
      problems.push({ path: at, rule: 'type', params: { type: 'object' } });
      continue;
    }
    const item = items.find((i) => i.id === value.item);
    if (!item) {
      problems.push({ path: `${at}/item`, rule: 'requestItemUnknown' });
      continue;
    }
    const text = value.text ?? null;
    if (text !== null && typeof text !== 'string')
      problems.push({ path: `${at}/text`, rule: 'type', params: { type: 'string' } });
    else if (typeof text === 'string' && text.length > MAX_ANSWER)
      problems.push({ path: `${at}/text`, rule: 'maxLength', params: { limit: MAX_ANSWER } });
    const media = value.media ?? null;
    if (media !== null && (typeof media !== 'string' || !UUID.test(media)))
      problems.push({ path: `${at}/media`, rule: 'fileUnknown' });
    const trimmed = typeof text === 'string' && text.trim() !== '' ? text.trim() : null;
    answers.set(item.id, { text: trimmed, media: typeof media === 'string' ? media : null });
  }
  // A file answered must be one the owner uploaded.
  const named = [...answers.entries()].filter(([, a]) => a.media !== null);
  const owned = await ownedMedia(
    step.trx,
    stored.owner,
    named.map(([, a]) => a.media!),
  );
  for (const [index, value] of given.entries())
    if (isNode(value) && typeof value.media === 'string' && !owned.has(value.media))
      if (!problems.some((p) => p.path === `/answers/${index}/media`))
        problems.push({ path: `/answers/${index}/media`, rule: 'fileUnknown' });
  if (problems.length) throw invalid(problems);
  for (const [id, answer] of answers)
    await saveAnswer(step.trx, id, { ...answer, at: step.now, by: step.principal.subject });
  if (!closing) return;
  const answered = (item: RequestRow) => {
    const given = answers.get(item.id);
    return given ? given.text !== null || given.media !== null : isAnswered(item);
  };
  const missing = items.filter((item) => item.mandatory && !answered(item));
  if (missing.length)
    throw new ApiProblem(400, ERROR_CODES.requestsMissing, {
      items: labelsByLanguage(missing),
      count: missing.length,
    });
  await closeRound(step.trx, stored.id, items[0]!.round, step.now);
}

const isAnswered = (item: RequestRow) => item.answer !== null || item.media_id !== null;

/** The items' labels joined, in every language: the error says them in the reader's. */
function labelsByLanguage(items: readonly RequestRow[]): Record<string, string> {
  return Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      items.map((item) => `“${item.label[language] ?? item.label.en ?? ''}”`).join(', '),
    ]),
  );
}

/**
 * The round a document's view carries (its open one, or the last), for whoever may see the
 * document: the caller has read it through `visibleRow`, which hides it from anyone else.
 */
export async function requestRoundOf(
  db: Kysely<Database>,
  workflow: CompiledWorkflow,
  row: Pick<DocumentRow, 'id' | 'status'>,
): Promise<RequestRoundView | undefined> {
  if (!workflow.definition.requests) return undefined;
  const items = await latestRound(db, row.id);
  const first = items[0];
  if (!first) return undefined;
  return {
    round: first.round,
    question: first.question,
    openedAt: iso(first.opened_at),
    open: isOpen(items, row.status),
    items: items.map(itemView),
  };
}

function itemView(item: RequestRow): RequestItemView {
  return {
    id: item.id,
    catalog: item.catalog,
    code: item.code,
    label: item.label,
    kind: item.kind as RequestKind,
    mandatory: item.mandatory,
    due: item.due,
    answer: item.answer,
    media:
      item.media_id === null
        ? null
        : {
            id: item.media_id,
            name: item.media_name ?? '',
            size: Number(item.media_size ?? 0),
            type: item.media_type ?? '',
          },
    answeredAt: item.answered_at === null ? null : iso(item.answered_at),
    answeredBy: item.answered_by,
  };
}

/** A document's view with its request round, when its workflow declares requests and has one. */
export async function withRequestRound(
  db: Kysely<Database>,
  workflow: CompiledWorkflow,
  view: DocumentView,
): Promise<DocumentView> {
  const round = await requestRoundOf(db, workflow, view);
  return round ? { ...view, requests: round } : view;
}

/** The status an action leads to from `status` when the machine names one target for it. */
function declaredTarget(
  workflow: WorkflowDefinition,
  status: string,
  action: string,
): string | undefined {
  const state = workflow.machine.states[status] as { on?: Record<string, unknown> } | undefined;
  const transition = state?.on?.[action];
  const first = Array.isArray(transition) ? transition[0] : transition;
  if (typeof first === 'string') return first;
  const target = isNode(first) ? first.target : undefined;
  return typeof target === 'string' ? target : undefined;
}
