import type {
  LinkData,
  LinkValue,
  WorkflowAction,
  WorkflowLinks,
} from '../../core/documents/workflow';
import { fromCents, toCents } from '../../core/payments/money';
import { resolvePointer, setAt } from '../../core/rules/registry';
import type { Principal } from '../auth/principal';
import type { RuleProblem } from '../../core/rules/types';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';
import type { FrozenFees } from '../payments/fees';
import { invalid } from '../search/compile-search';
import { machineAllows, maySee } from './access';
import { sourceValue } from './reference-fills';
import { consentedDocuments } from './store/payer-consents';
import { findNumbered, type DocumentRow, type Queryable } from './store/rows';
import type { CompiledWorkflow } from './workflows';

/* Documents that name others by number and move them (`links`, `fires`): an invoice's items. */

/** One item of the list naming a document: where it is, and the number it names. */
interface LinkEntry {
  index: number;
  number: string;
}

/** A document an item names, found and (when it is to move) locked. */
export interface LinkedDocument extends LinkEntry {
  row: DocumentRow;
  workflow: CompiledWorkflow;
}

/** The system action one linked document takes, and the item naming it. */
export interface LinkFire {
  linked: LinkedDocument;
  action: string;
}

/** The documents an action's data names, and those the stored version named and it drops. */
export interface Linking {
  links: WorkflowLinks;
  named: LinkedDocument[];
  fires: LinkFire[];
}

/** Finds a workflow by type, if its module is on (others name nothing). */
export type WorkflowOf = (type: string) => CompiledWorkflow | undefined;

/** The numbers the items name; no number (when `strict`) or one given twice is a problem. */
function entriesOf(links: WorkflowLinks, data: Record<string, unknown>, strict: boolean) {
  const items = resolvePointer(data, links.items);
  const entries: LinkEntry[] = [];
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  if (!Array.isArray(items)) return { entries, problems };
  items.forEach((item, index) => {
    const value = (item as Record<string, unknown> | null)?.[links.number];
    const number = typeof value === 'string' ? value.trim().toUpperCase() : '';
    const path = `${links.items}/${index}/${links.number}`;
    if (!number) {
      if (strict) problems.push({ path, rule: 'required' });
      return;
    }
    if (seen.has(number)) {
      problems.push({ path, rule: 'linkedTwice', params: { number } });
      return;
    }
    seen.add(number);
    entries.push({ index, number });
  });
  return { entries, problems };
}

/** Each number's document, if its type is linked and its module on; locked when asked. */
async function findLinked(
  db: Queryable,
  links: WorkflowLinks,
  workflowOf: WorkflowOf,
  entries: readonly LinkEntry[],
  forUpdate = false,
): Promise<Map<string, LinkedDocument>> {
  const types = links.types.filter((type) => workflowOf(type) !== undefined);
  const numbers = entries.map((e) => e.number);
  const rows = await findNumbered(db, types, numbers, { forUpdate });
  const found = new Map<string, LinkedDocument>();
  for (const entry of entries) {
    const row = rows.find((r) => r.number === entry.number);
    const workflow = row && workflowOf(row.type);
    if (row && workflow) found.set(entry.number, { ...entry, row, workflow });
  }
  return found;
}

/** Who may name a found document: one they see, or (`payerConsent`) one whose holder named them. */
type Naming = 'seen' | 'consented' | 'notNamed' | 'unknown';

/**
 * How the caller may name each found document. A document of another holder whose workflow
 * declares `payerConsent` is `notNamed` (a 403) unless a live consent names the caller; read
 * after the documents' row locks, so that a revoke committed first is seen.
 */
async function namingOf(
  db: Queryable,
  links: WorkflowLinks,
  principal: Principal,
  found: ReadonlyMap<string, LinkedDocument>,
): Promise<(linked: LinkedDocument) => Naming> {
  const others = [...found.values()].filter((l) => !maySee(l.workflow, principal, l.row));
  const consentable = links.payerConsent
    ? others.filter((l) => l.workflow.definition.payerConsent)
    : [];
  const consented = await consentedDocuments(
    db,
    principal.subject,
    consentable.map((l) => l.row.id),
  );
  return (linked) => {
    if (!others.includes(linked)) return 'seen';
    if (!consentable.includes(linked)) return 'unknown';
    return consented.has(linked.row.id) ? 'consented' : 'notNamed';
  };
}

/**
 * What an action on a document with `links` names and moves (pipeline step 3). An unknown and
 * a foreign number get the same answer; the documents to move are locked in id order.
 */
export async function linkingOf(
  db: Queryable,
  links: WorkflowLinks,
  action: WorkflowAction,
  workflowOf: WorkflowOf,
  principal: Principal,
  data: Record<string, unknown>,
  stored: Record<string, unknown> | undefined,
): Promise<Linking> {
  const after = entriesOf(links, data, true);
  const before = stored ? entriesOf(links, stored, false).entries : [];
  const known = new Set(before.map((e) => e.number));
  const kept = new Set(after.entries.map((e) => e.number));
  const removed = before.filter((e) => !kept.has(e.number));
  const entries = [...after.entries, ...removed];
  const found = await findLinked(db, links, workflowOf, entries, action.fires !== undefined);
  const problems = [...after.problems];
  const named: LinkedDocument[] = [];
  const naming = await namingOf(db, links, principal, found);
  for (const entry of after.entries) {
    const linked = found.get(entry.number);
    // Already named by the stored version: it was checked when it was added.
    const how = !linked ? 'unknown' : known.has(entry.number) ? 'seen' : naming(linked);
    if (how === 'notNamed')
      throw new ApiProblem(403, ERROR_CODES.payerNotNamed, { number: entry.number }, [
        {
          path: `${links.items}/${entry.index}/${links.number}`,
          rule: 'payerNotNamed',
          params: { number: entry.number },
        },
      ]);
    if (!linked || how === 'unknown')
      problems.push({
        path: `${links.items}/${entry.index}/${links.number}`,
        rule: 'linkedUnknown',
        params: { number: entry.number },
      });
    else named.push(linked);
  }
  if (problems.length) throw invalid(problems);

  const fire = (list: readonly LinkedDocument[], name: string | undefined): LinkFire[] =>
    name ? list.map((linked) => ({ linked, action: name })) : [];
  const fires = [
    ...fire(
      named.filter((l) => !known.has(l.number)),
      action.fires?.added,
    ),
    ...fire(
      removed.flatMap((e) => found.get(e.number) ?? []),
      action.fires?.removed,
    ),
    ...fire(named, action.fires?.each),
  ];
  return { links, named, fires };
}

/**
 * The documents a form being filled names (`derive`), and why each other number cannot be paid:
 * named twice, unseen, or refused by its machine. Stored numbers were checked when added.
 */
export async function previewLinks(
  db: Queryable,
  links: WorkflowLinks,
  workflowOf: WorkflowOf,
  principal: Principal,
  data: Record<string, unknown>,
  check: { stored?: Record<string, unknown>; added: readonly string[] } = { added: [] },
): Promise<{ linked: LinkedDocument[]; problems: RuleProblem[] }> {
  const { entries, problems: named } = entriesOf(links, data, false);
  const known = new Set(
    check.stored ? entriesOf(links, check.stored, false).entries.map((e) => e.number) : [],
  );
  const found = await findLinked(db, links, workflowOf, entries);
  const naming = await namingOf(db, links, principal, found);
  const linked: LinkedDocument[] = [];
  const problems: RuleProblem[] = named.map((p) => ({
    path: p.path,
    rule: p.rule,
    message: `validation.${p.rule}`,
    params: p.params ?? {},
  }));
  for (const entry of entries) {
    const document = found.get(entry.number);
    const path = `${links.items}/${entry.index}/${links.number}`;
    const params = { number: entry.number };
    const how = !document ? 'unknown' : known.has(entry.number) ? 'seen' : naming(document);
    if (!document || how === 'unknown' || how === 'notNamed') {
      const rule = how === 'notNamed' ? 'payerNotNamed' : 'linkedUnknown';
      problems.push({ path, rule, message: `validation.${rule}`, params });
      continue;
    }
    linked.push(document);
    const takable = (action: string) =>
      machineAllows(document.workflow, document.row, action, principal);
    if (!known.has(entry.number) && check.added.length > 0 && !check.added.some(takable))
      problems.push({
        path,
        rule: 'linkedStatus',
        message: 'validation.linkedStatus',
        params: { ...params, status: document.row.status },
      });
  }
  return { linked, problems };
}

/** Refuses the action (409) if the machine of any document it would move refuses its action. */
export function checkFires(
  links: WorkflowLinks,
  fires: readonly LinkFire[],
  principal: Principal,
): void {
  const refused = fires.filter(
    ({ linked, action }) => !machineAllows(linked.workflow, linked.row, action, principal),
  );
  const [first] = refused;
  if (!first) return;
  throw new ApiProblem(
    409,
    ERROR_CODES.linkNotAllowed,
    { number: first.linked.number, status: first.linked.row.status },
    refused.map(({ linked }) => ({
      path: `${links.items}/${linked.index}/${links.number}`,
      rule: 'linkedStatus',
      params: { number: linked.number, status: linked.row.status },
    })),
  );
}

/** One value a linked document offers (WorkflowLinks, LinkValue), or reads in its data. */
function valueOf(linked: LinkedDocument, value: LinkValue | LinkData): string | undefined {
  const { row, workflow } = linked;
  if (typeof value === 'object')
    return value.data.map((source) => sourceValue(row.data, source)).find((v) => v !== undefined);
  const payment = workflow.definition.payment;
  const fees = payment
    ? (resolvePointer(row.data, payment.fees) as Partial<FrozenFees> | undefined)
    : undefined;
  switch (value) {
    case 'type':
      return row.type;
    case 'number':
      return row.number ?? undefined;
    case 'status':
      return row.status;
    case 'ownerName':
      return row.owner_name ?? undefined;
    case 'submittedAt':
      return row.submitted_at ? new Date(row.submitted_at).toISOString().slice(0, 10) : undefined;
    case 'amountDue':
      return fees?.total;
    case 'amountPaid':
      return fees?.amountPaid ?? fromCents(0);
    case 'currency':
      return fees?.currency ?? payment?.currency;
  }
}

/** Writes what the items show of the documents they name (`fill`) and the sums (`totals`). */
export function fillLinks(
  links: WorkflowLinks,
  data: Record<string, unknown>,
  linked: readonly LinkedDocument[],
): void {
  const items = resolvePointer(data, links.items);
  if (Array.isArray(items)) {
    items.forEach((item, index) => {
      if (typeof item !== 'object' || item === null) return;
      const document = linked.find((l) => l.index === index);
      const filled = item as Record<string, unknown>;
      // The number as the document has it (typed in lower case, or with spaces around it).
      if (document) filled[links.number] = document.number;
      for (const [property, value] of Object.entries(links.fill ?? {})) {
        const given = document && valueOf(document, value);
        if (given === undefined) delete filled[property];
        else filled[property] = given;
      }
    });
  }
  for (const [pointer, value] of Object.entries(links.totals ?? {})) {
    const cents = linked.reduce((sum, l) => sum + (toCents(valueOf(l, value)) ?? 0), 0);
    setAt(data, pointer, fromCents(cents));
  }
}
