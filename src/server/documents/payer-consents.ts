import type { Kysely } from 'kysely';
import {
  PAYER_NAMED,
  PAYER_REVOKED,
  type DocumentPayers,
  type PayableDocument,
  type PayerConsent,
} from '../../core/documents/payer-consent';
import { resolvePointer } from '../../core/rules/registry';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { UUID } from '../db/ids';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { asObject, invalid } from '../search/compile-search';
import type { FrozenFees } from '../payments/fees';
import { visibleRow } from './commands';
import type { AccountLookup } from './effect-context';
import { findByKey } from './store/lookups';
import {
  accountByEmail,
  consentedTo,
  insertConsent,
  liveConsents,
  revokeConsent,
  writeConsentLine,
  type PayerConsentRow,
} from './store/payer-consents';
import type { DocumentRow, VersionAuthor } from './store/rows';
import { iso } from './views';
import type { CompiledWorkflow } from './workflows';

/**
 * Paying for others (docs/payments.md, "Paying for others"): the holder of a document whose
 * workflow declares `payerConsent` names another account, by sign-in name or e-mail address, who
 * may then put the document on their own payment document (a `links` with `payerConsent`,
 * links.ts). Naming and revoking take the document's row lock, as the payer's payment document
 * does when it takes the document in: of a revoke and a payer's submit racing, one wins.
 */

const MAX_PAYER_LENGTH = 200;

function authorOf(principal: Principal): VersionAuthor {
  return {
    subject: principal.subject,
    name: principal.name ?? principal.preferredUsername ?? principal.subject,
    email: principal.email ?? null,
    mobile: principal.phoneNumber ?? null,
  };
}

function consentOf(row: PayerConsentRow): PayerConsent {
  return {
    id: row.id,
    payer: { subject: row.payer, name: row.payer_name, login: row.payer_login },
    grantedBy: { subject: row.granted_by, name: row.granted_by_name },
    grantedAt: iso(row.granted_at),
  };
}

export class PayerConsentService {
  constructor(
    private readonly db: Kysely<Database>,
    /** The workflow a type names (404 for an unknown one): the documents service's. */
    private readonly workflowOf: (type: string) => CompiledWorkflow,
    /** The workflows served, for the payer's list. */
    private readonly workflows: () => Iterable<CompiledWorkflow>,
    /** Where accounts are found; without it nobody can be named. */
    private readonly accounts: AccountLookup | undefined,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The workflow, if it lets holders name payers (else 404). */
  private declaring(type: string): CompiledWorkflow {
    const workflow = this.workflowOf(type);
    if (!workflow.definition.payerConsent) throw new ApiProblem(404, ERROR_CODES.notFound);
    return workflow;
  }

  private mayChange(workflow: CompiledWorkflow, row: DocumentRow, principal: Principal): boolean {
    return (
      row.owner === principal.subject &&
      (workflow.definition.payerConsent?.statuses ?? []).includes(row.status)
    );
  }

  /** The holder only, and only in the declared statuses (else 403, 409 with the status). */
  private requireChange(workflow: CompiledWorkflow, row: DocumentRow, principal: Principal) {
    if (row.owner !== principal.subject) throw new ApiProblem(403, ERROR_CODES.notOwner);
    if (!this.mayChange(workflow, row, principal))
      throw new ApiProblem(409, ERROR_CODES.payerConsentClosed, { status: row.status });
  }

  /** Who may pay the document: for whoever sees it (its holder, officers). */
  async list(type: string, principal: Principal, id: string): Promise<DocumentPayers> {
    const workflow = this.declaring(type);
    const row = await visibleRow(this.db, workflow, principal, id);
    const consents = await liveConsents(this.db, row.id);
    return { items: consents.map(consentOf), mayChange: this.mayChange(workflow, row, principal) };
  }

  /** The account a sign-in name or an e-mail address names (400 on `/payer` if none). */
  private async payerNamed(given: unknown) {
    const name = typeof given === 'string' ? given.trim() : '';
    if (!name) throw invalid([{ path: '/payer', rule: 'required' }]);
    if (name.length > MAX_PAYER_LENGTH)
      throw invalid([{ path: '/payer', rule: 'maxLength', params: { limit: MAX_PAYER_LENGTH } }]);
    const accounts = this.accounts;
    const account =
      accounts &&
      ((await findByKey(this.db, accounts.type, accounts.login, name)) ??
        (name.includes('@') ? await accountByEmail(this.db, accounts.type, name) : undefined));
    if (!account || !accounts)
      throw invalid([{ path: '/payer', rule: 'unknownPayer', params: { name } }]);
    const login = resolvePointer(account.data, accounts.login);
    return {
      // An account owns itself: its id is its holder's token subject (on-behalf.ts).
      subject: account.id,
      name: account.owner_name ?? (typeof login === 'string' ? login : account.id),
      login: typeof login === 'string' ? login : null,
    };
  }

  /** Names a payer of the caller's document; naming one already named changes nothing. */
  async grant(
    type: string,
    principal: Principal,
    id: string,
    body: unknown,
  ): Promise<DocumentPayers> {
    const workflow = this.declaring(type);
    const payer = await this.payerNamed(asObject(body).payer);
    return this.db.transaction().execute(async (trx) => {
      const row = await visibleRow(trx, workflow, principal, id, true);
      this.requireChange(workflow, row, principal);
      if (payer.subject === row.owner)
        throw invalid([{ path: '/payer', rule: 'payerIsHolder', params: { name: payer.name } }]);
      const live = await liveConsents(trx, row.id);
      if (!live.some((c) => c.payer === payer.subject)) {
        const author = authorOf(principal);
        await insertConsent(trx, row, payer, author, this.clock());
        await writeConsentLine(trx, row, PAYER_NAMED, payer.name, author);
      }
      return { items: (await liveConsents(trx, row.id)).map(consentOf), mayChange: true };
    });
  }

  /** Revokes a consent, while the document is in a declared status (not paid, on no invoice). */
  async revoke(
    type: string,
    principal: Principal,
    id: string,
    consentId: string,
  ): Promise<DocumentPayers> {
    const workflow = this.declaring(type);
    return this.db.transaction().execute(async (trx) => {
      // The lock the payer's document takes too: a revoke and a submit naming it, one wins.
      const row = await visibleRow(trx, workflow, principal, id, true);
      this.requireChange(workflow, row, principal);
      const revoked = UUID.test(consentId)
        ? await revokeConsent(trx, row.id, consentId, principal.subject, this.clock())
        : undefined;
      if (!revoked) throw new ApiProblem(404, ERROR_CODES.notFound);
      await writeConsentLine(trx, row, PAYER_REVOKED, revoked.payer_name, authorOf(principal));
      return { items: (await liveConsents(trx, row.id)).map(consentOf), mayChange: true };
    });
  }

  /** The documents whose holders named the caller as payer, of every workflow declaring it. */
  async payable(principal: Principal): Promise<{ items: PayableDocument[] }> {
    const declaring = new Map(
      [...this.workflows()]
        .filter((w) => w.definition.payerConsent)
        .map((w) => [w.definition.id, w] as const),
    );
    const found = await consentedTo(this.db, principal.subject, [...declaring.keys()]);
    return {
      items: found.map(({ consent, document }) => {
        const payment = declaring.get(document.type)?.definition.payment;
        const fees = payment
          ? (resolvePointer(document.data, payment.fees) as Partial<FrozenFees> | undefined)
          : undefined;
        return {
          consent: consent.id,
          type: document.type,
          id: document.id,
          number: document.number,
          status: document.status,
          holderName: document.owner_name,
          amountDue: fees?.total ?? null,
          currency: fees?.currency ?? payment?.currency ?? null,
          grantedAt: iso(consent.granted_at),
        };
      }),
    };
  }
}
