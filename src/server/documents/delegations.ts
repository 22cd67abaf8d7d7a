import type { Kysely } from 'kysely';
import type {
  Delegation,
  DelegationState,
  HolderDelegations,
  ReceivedDelegation,
} from '../../core/documents/delegation';
import type { DocumentDelegationView, DocumentView } from '../../core/documents/types';
import { LANGUAGES, type Language, type TextTree } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import type { Principal } from '../auth/principal';
import { UUID } from '../db/ids';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { asObject, invalid } from '../search/compile-search';
import { allowedActions } from './access';
import type { AccountLookup } from './effect-context';
import { fieldLabel } from './field-label';
import { ownerOf, type DocumentOwner } from './on-behalf';
import { findByKey } from './store/lookups';
import { accountByEmail } from './store/payer-consents';
import {
  delegationsCovering,
  delegationsNaming,
  holderDelegations,
  insertDelegation,
  revokeDelegation,
  type DelegationRow,
} from './store/delegations';
import { DELETED } from './store/lists';
import { findDocument, type DocumentRow, type Queryable } from './store/rows';
import { iso } from './views';
import type { CompiledWorkflow } from './workflows';

/**
 * Delegated access (docs/delegation.md): the holder of a document whose workflow declares
 * `delegation` names a delegate by sign-in name or e-mail address, for one document or all of
 * the type, with some of the declared grants. The delegate reads the document and takes the
 * granted owner actions as the holder would, never changing what `holderOnly` keeps for the
 * holder. Who the delegate is is decided when they call: the account whose sign-in name or
 * e-mail address is the name given, so naming someone reveals nothing of who has an account.
 */

const MAX_DELEGATE_LENGTH = 200;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A delegate's standing on a document they hold a delegation of, still running. */
export interface Delegate {
  holderName: string;
  /** The grants' ids, of every running delegation covering the document for the caller. */
  grants: string[];
  /** The owner actions those grants let the delegate take. */
  actions: ReadonlySet<string>;
  holderOnly: string[];
}

/** The day `now` is, as the `until` column holds days (UTC). */
function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The last day of a delegation running `days` from `now`; none without a limit. */
function lastDay(now: Date, days: number | undefined): string | null {
  return days ? today(new Date(Date.parse(today(now)) + days * 86_400_000)) : null;
}

function stateOf(row: DelegationRow, now: Date): DelegationState {
  if (row.revoked_at) return 'revoked';
  return row.until !== null && row.until < today(now) ? 'expired' : 'active';
}

function delegationOf(row: DelegationRow, now: Date): Delegation {
  return {
    id: row.id,
    type: row.document_type,
    documentId: row.document_id,
    documentNumber: row.document_number,
    delegate: row.delegate,
    grants: row.grants,
    until: row.until,
    createdAt: iso(row.created_at),
    revokedAt: row.revoked_at ? iso(row.revoked_at) : null,
    state: stateOf(row, now),
  };
}

/**
 * The names the caller may be named by, lowercased: their account's sign-in name and e-mail
 * address when the server keeps accounts (what the directory says, not what a token claims),
 * else their token's.
 */
export async function callerNames(
  db: Queryable,
  accounts: AccountLookup | undefined,
  principal: Principal,
): Promise<string[]> {
  const names: unknown[] = [];
  if (accounts) {
    const account = UUID.test(principal.subject)
      ? await findDocument(db, accounts.type, principal.subject)
      : undefined;
    if (account && account.status !== DELETED)
      names.push(resolvePointer(account.data, accounts.login), account.owner_email);
  } else names.push(principal.preferredUsername, principal.email);
  return [
    ...new Set(names.filter((n): n is string => typeof n === 'string' && n.trim() !== '')),
  ].map((n) => n.trim().toLowerCase());
}

/**
 * The caller's standing as a delegate of `row`: a running delegation (the grants of all that
 * name them), undefined if none ever named them, and a 403 DELEGATION_ENDED if all that did
 * were revoked or ran out (a former delegate is told so, not that nothing is there).
 */
export async function delegateOf(
  db: Queryable,
  accounts: AccountLookup | undefined,
  workflow: CompiledWorkflow,
  row: DocumentRow,
  principal: Principal,
  now: Date,
): Promise<Delegate | undefined> {
  const declared = workflow.definition.delegation;
  if (!declared || row.owner === principal.subject) return undefined;
  const names = await callerNames(db, accounts, principal);
  if (names.length === 0) return undefined;
  const naming = (await delegationsCovering(db, row)).filter((d) => names.includes(d.delegate));
  if (naming.length === 0) return undefined;
  const running = naming.filter((d) => stateOf(d, now) === 'active');
  if (running.length === 0) throw new ApiProblem(403, ERROR_CODES.delegationEnded);
  const grants = [...new Set(running.flatMap((d) => d.grants))];
  const actions = new Set(
    declared.grants.filter((g) => grants.includes(g.id)).flatMap((g) => g.actions),
  );
  return {
    holderName: row.owner_name ?? running[0]!.holder_name,
    grants,
    actions,
    holderOnly: declared.holderOnly,
  };
}

/** Step 2 for a delegate: only a granted action (else 403 DELEGATION_NOT_GRANTED). */
export function requireGranted(delegate: Delegate, action: string): void {
  if (!delegate.actions.has(action))
    throw new ApiProblem(403, ERROR_CODES.delegationNotGranted, {
      action,
      holder: delegate.holderName,
    });
}

/** Step 3 for a delegate: what only the holder may change is as stored (else 403 HOLDER_ONLY). */
export function requireHolderOnlyKept(
  delegate: Delegate,
  stored: Record<string, unknown>,
  changed: Record<string, unknown>,
  labels: { entity: string; texts: Partial<Record<Language, TextTree>> },
): void {
  const same = (pointer: string) =>
    JSON.stringify(resolvePointer(stored, pointer) ?? null) ===
    JSON.stringify(resolvePointer(changed, pointer) ?? null);
  const fields = delegate.holderOnly.filter((pointer) => !same(pointer));
  if (fields.length === 0) return;
  // The sections by their names in every language ("Declaration"), not their pointers.
  const named = Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      fields
        .map((pointer) => fieldLabel(labels.texts, language, labels.entity, pointer))
        .join(', '),
    ]),
  );
  throw new ApiProblem(403, ERROR_CODES.holderOnly, { fields: named });
}

/**
 * What a delegate may take now: the owner actions the holder could take that are granted and
 * that the delegate's own roles allow (the plan is the delegate's, as owner of the document).
 */
export function delegateActions(
  workflow: CompiledWorkflow,
  row: DocumentRow,
  principal: Principal,
  delegate: Delegate,
): string[] {
  const asOwner = { ...principal, subject: row.owner };
  return allowedActions(workflow, row, asOwner).filter((action) => delegate.actions.has(action));
}

/** The view a delegate reads: what they may take, and whose delegation it is. */
export function delegatedView(view: DocumentView, delegate: Delegate): DocumentView {
  const delegation: DocumentDelegationView = {
    holderName: delegate.holderName,
    grants: delegate.grants,
    holderOnly: delegate.holderOnly,
  };
  return { ...view, delegation };
}

/** Who the history names a delegate's line for: the holder. */
export function onBehalfOf(row: DocumentRow, delegate: Delegate | undefined) {
  return delegate ? { subject: row.owner, name: delegate.holderName } : undefined;
}

/** The delegations of a holder: given, listed, revoked; and those received. */
export class DelegationService {
  constructor(
    private readonly db: Kysely<Database>,
    /** The workflow a type names (404 for an unknown one): the documents service's. */
    private readonly workflowOf: (type: string) => CompiledWorkflow,
    /** The workflows served, for the delegate's list. */
    private readonly workflows: () => Iterable<CompiledWorkflow>,
    /** Where accounts are found, to know the caller by their sign-in name and e-mail. */
    private readonly accounts: AccountLookup | undefined,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The workflow, if it declares `delegation` (else 404). */
  private declaring(type: string) {
    const workflow = this.workflowOf(type);
    const declared = workflow.definition.delegation;
    if (!declared) throw new ApiProblem(404, ERROR_CODES.notFound);
    return { workflow, declared };
  }

  /** The caller's delegations of the type, and what they may grant. */
  async list(type: string, principal: Principal): Promise<HolderDelegations> {
    const { declared } = this.declaring(type);
    const now = this.clock();
    const rows = await holderDelegations(this.db, principal.subject, type);
    return {
      items: rows.map((row) => delegationOf(row, now)),
      grants: declared.grants.map(({ id, label }) => ({ id, label })),
      maxDays: declared.maxDays ?? null,
    };
  }

  /** The delegations covering one of the caller's documents (its own and the "all" ones). */
  async ofDocument(
    type: string,
    principal: Principal,
    id: string,
  ): Promise<{ items: Delegation[] }> {
    this.declaring(type);
    const row = await this.ownDocument(this.db, type, principal, id);
    const now = this.clock();
    return { items: (await delegationsCovering(this.db, row)).map((d) => delegationOf(d, now)) };
  }

  /** The caller's own document (404 for anyone else's, or none). */
  private async ownDocument(db: Queryable, type: string, principal: Principal, id: string) {
    const row = UUID.test(id) ? await findDocument(db, type, id) : undefined;
    if (!row || row.owner !== principal.subject || row.status === DELETED)
      throw new ApiProblem(404, ERROR_CODES.notFound);
    return row;
  }

  /** Names a delegate; the answer is the same whether anyone has that name. */
  async create(type: string, principal: Principal, body: unknown): Promise<Delegation> {
    const { declared } = this.declaring(type);
    const request = asObject(body);
    const now = this.clock();
    const delegate = typeof request.delegate === 'string' ? request.delegate.trim() : '';
    const problems = [];
    if (!delegate) problems.push({ path: '/delegate', rule: 'required' });
    else if (delegate.length > MAX_DELEGATE_LENGTH || delegate.includes('\u0000'))
      problems.push({
        path: '/delegate',
        rule: 'maxLength',
        params: { limit: MAX_DELEGATE_LENGTH },
      });
    else if (
      (await callerNames(this.db, this.accounts, principal)).includes(delegate.toLowerCase())
    )
      problems.push({ path: '/delegate', rule: 'delegateIsHolder' });
    const grants = Array.isArray(request.grants) ? request.grants : [];
    if (!Array.isArray(request.grants) || grants.length === 0)
      problems.push({ path: '/grants', rule: 'required' });
    grants.forEach((grant, i) => {
      if (typeof grant !== 'string' || !declared.grants.some((g) => g.id === grant))
        problems.push({
          path: `/grants/${i}`,
          rule: 'unknownGrant',
          params: { grant: String(grant) },
        });
    });
    const until = request.until;
    if (until !== undefined && until !== null) {
      const last =
        typeof until === 'string' && DAY.test(until) ? new Date(`${until}T00:00:00Z`) : undefined;
      const latest = declared.maxDays
        ? new Date(Date.parse(today(now)) + declared.maxDays * 86_400_000)
        : undefined;
      if (!last || Number.isNaN(last.getTime()) || last.toISOString().slice(0, 10) !== until)
        problems.push({ path: '/until', rule: 'format', params: { format: 'date' } });
      else if (until < today(now)) problems.push({ path: '/until', rule: 'delegationUntilPast' });
      else if (latest && last > latest)
        problems.push({
          path: '/until',
          rule: 'delegationUntilTooFar',
          params: { days: declared.maxDays },
        });
    }
    const documentId = request.documentId;
    if (documentId !== undefined && documentId !== null && typeof documentId !== 'string')
      problems.push({ path: '/documentId', rule: 'type', params: { type: 'string' } });
    if (problems.length) throw invalid(problems);
    return this.db.transaction().execute(async (trx) => {
      const document =
        typeof documentId === 'string'
          ? await this.ownDocument(trx, type, principal, documentId)
          : undefined;
      const row = await insertDelegation(trx, {
        holder: principal.subject,
        holderName: principal.name ?? principal.preferredUsername ?? principal.subject,
        type,
        documentId: document?.id ?? null,
        delegate: delegate.toLowerCase(),
        grants: [...new Set(grants as string[])],
        // Without a last day, the longest the workflow allows (none: until revoked).
        until: typeof until === 'string' ? until : lastDay(now, declared.maxDays),
        now,
      });
      return delegationOf(row, now);
    });
  }

  /** Revokes one of the caller's delegations (revoking it again changes nothing). */
  async revoke(type: string, principal: Principal, delegationId: string): Promise<Delegation> {
    this.declaring(type);
    const now = this.clock();
    const row = UUID.test(delegationId)
      ? await this.db
          .transaction()
          .execute((trx) => revokeDelegation(trx, principal.subject, type, delegationId, now))
      : undefined;
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    return delegationOf(row, now);
  }

  /** The running delegations naming the caller, of every workflow declaring `delegation`. */
  async received(principal: Principal): Promise<{ items: ReceivedDelegation[] }> {
    const now = this.clock();
    const rows = await this.namingCaller(principal);
    return {
      items: rows
        .filter((row) => stateOf(row, now) === 'active')
        .map((row) => ({
          id: row.id,
          type: row.document_type,
          holderName: row.holder_name,
          documentId: row.document_id,
          documentNumber: row.document_number,
          grants: row.grants,
          until: row.until,
        })),
    };
  }

  /** The unrevoked delegations naming the caller, running or not. */
  private async namingCaller(principal: Principal): Promise<DelegationRow[]> {
    const types = [...this.workflows()]
      .filter((w) => w.definition.delegation)
      .map((w) => w.definition.id);
    const names = await callerNames(this.db, this.accounts, principal);
    return delegationsNaming(this.db, names, types);
  }
}

/** The running delegations naming the caller, for My Library (library.ts). */
export async function runningDelegationsOf(
  db: Queryable,
  accounts: AccountLookup | undefined,
  workflows: Iterable<CompiledWorkflow>,
  principal: Principal,
  now: Date,
): Promise<DelegationRow[]> {
  const types = [...workflows].filter((w) => w.definition.delegation).map((w) => w.definition.id);
  const names = await callerNames(db, accounts, principal);
  const rows = await delegationsNaming(db, names, types);
  return rows.filter((row) => stateOf(row, now) === 'active' && row.holder !== principal.subject);
}

/**
 * Whom a notice to a document's holder also goes to: the accounts its running delegations name
 * (by sign-in name, else by an e-mail address only one account has), as owners to write to.
 */
export async function delegatesToTell(
  db: Queryable,
  accounts: AccountLookup | undefined,
  workflow: Pick<CompiledWorkflow['definition'], 'delegation'>,
  document: { id: string; type: string; owner: string },
  now: Date,
): Promise<DocumentOwner[]> {
  // A document not written yet has no delegation of its own, and is nobody else's yet.
  if (!workflow.delegation || !accounts || !UUID.test(document.id)) return [];
  const running = (await delegationsCovering(db, document)).filter(
    (d) => stateOf(d, now) === 'active',
  );
  const told = new Map<string, DocumentOwner>();
  for (const name of new Set(running.map((d) => d.delegate))) {
    const account =
      (await findByKey(db, accounts.type, accounts.login, name)) ??
      (name.includes('@') ? await accountByEmail(db, accounts.type, name) : undefined);
    if (account && account.id !== document.owner)
      told.set(account.id, { ...ownerOf(account), owner: account.id });
  }
  return [...told.values()];
}
