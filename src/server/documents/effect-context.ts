import type { Kysely, Transaction } from 'kysely';
import type { ActionRequest } from '../../core/documents/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { EntityDefinition } from '../../core/definitions/types';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import type { Language } from '../../core/i18n/translate';
import type { OutboxAttachment } from '../notifications/rows';
import type { CertificateEnvironment } from './certificate';
import type { CatalogSource } from '../catalog/valid-at';

/*
 * What an effect is given and may change. Kept apart from the effects themselves so the
 * store, the pipeline and modules can name these types without importing every effect.
 */

/** The document being changed by an action; effects edit it before it is written. */
export interface DocumentDraft {
  id: string;
  type: string;
  status: string;
  previousStatus: string | null;
  owner: string;
  ownerName: string | null;
  ownerEmail: string | null;
  /** Set only when the owner changes hands (`onBehalf`); otherwise the stored one is kept. */
  ownerMobile?: string | null;
  assignee: string | null;
  number: string | null;
  year: number | null;
  serial: number | null;
  submittedAt: Date | null;
  data: Record<string, unknown>;
}

/** What some effects need of the server besides the database (a certificate's texts). */
export interface EffectEnvironment extends CertificateEnvironment {
  /**
   * Where accounts are found by sign-in name (the workflow declaring `account`, and its key):
   * a document made for someone (`onBehalf`), an officer assigned by login. Undefined when no
   * workflow declares accounts: nobody can then be named.
   */
  accounts?: AccountLookup;
  /**
   * Who holds which roles now (the account directory): an assignment must name an account
   * holding one of the roles its action declares (`assignees`). Undefined without an account
   * directory: nobody can then be assigned.
   */
  roleHolders?: RoleHolders;
  /**
   * Whether the public (readers who are not officers of a document's type) is told which
   * officer acted (OFFICER_NAMES_TO_PUBLIC), rather than "Immigration Service".
   */
  officerNamesToPublic?: boolean;
  /**
   * The inbox (messages.ts): notices to a document's holder become its messages. Undefined when
   * no enabled workflow declares `inbox`: notices then go out by e-mail only.
   */
  inbox?: InboxEffects;
  /**
   * The catalogues as this process keeps them (catalog/cache.ts), for the fees, catalogue lists
   * and codes an action reads; without it they are read in the action's transaction.
   */
  catalogs?: CatalogSource;
}

/** A notice to a document's holder, in the language they chose. */
export interface Notice {
  subject: string;
  /** The text of the e-mail (and of the message, unless `inboxBody`). */
  body: string;
  /** The language the texts are written in. */
  language: Language;
  attachments?: OutboxAttachment[];
  /** The message's own wording when the e-mail carries what the portal cannot (a PDF). */
  inboxBody?: string;
  /** The portal route the message links to; by default the holder's screen of the document, none when null. */
  path?: string | null;
  /**
   * The SMS's own text, in place of the subject and the message's link: a holder who cannot
   * sign in yet gets the one link they can open (a returned registration's correction link).
   */
  sms?: string;
}

/** What the inbox does for the engine's effects (implemented by messages.ts's Inbox). */
export interface InboxEffects {
  post(
    context: Pick<EffectContext, 'trx' | 'workflow' | 'document' | 'principal'>,
    notice: Notice,
  ): Promise<void>;
  address(context: EffectContext): Promise<void>;
  queueWritten(context: EffectContext): Promise<void>;
  record(context: EffectContext): Promise<void>;
  requeue(context: EffectContext): Promise<void>;
}

/** An account as an assignment shows it: its id (the token's subject), sign-in name and name. */
export interface RoleHolder {
  id: string;
  login: string;
  name: string;
}

/** The account directory as assignments read it (src/modules/connectid/server/role-holders.ts). */
export interface RoleHolders {
  /**
   * The account a value names, by its id or its sign-in name (any case), with the roles it
   * holds now: none when it may not sign in (inactive, deleted) or is a service.
   */
  find(
    db: Kysely<Database>,
    named: string,
  ): Promise<(RoleHolder & { roles: string[] }) | undefined>;
  /** The people who may sign in and hold any of these roles (full codes), by name. */
  holding(db: Kysely<Database>, roles: readonly string[]): Promise<RoleHolder[]>;
}

/** The document type of accounts and the pointer of their sign-in name (its declared key). */
export interface AccountLookup {
  type: string;
  login: string;
  /** Where the account keeps the language its holder chose (their preferences). */
  language?: string;
}

export interface EffectContext {
  trx: Transaction<Database>;
  environment: EffectEnvironment;
  workflow: WorkflowDefinition;
  /** The entity the workflow's documents follow (its schema, e.g. for defaults). */
  entity: EntityDefinition;
  action: string;
  fromStatus: string;
  document: DocumentDraft;
  request: ActionRequest;
  principal: Principal;
  now: Date;
  /** The document whose action fired this one (`fires`): an invoice paying an application. */
  cause?: EffectCause;
  /** Who held the document before this action handed it to someone else (`onBehalf`). */
  previousOwner?: PreviousOwner;
}

/** A document's holder before it changed hands. */
export interface PreviousOwner {
  owner: string;
  ownerName: string | null;
  ownerEmail: string | null;
  ownerMobile: string | null;
}

/** The document that moved another through `fires` (its number is the receipt of a payment). */
export interface EffectCause {
  type: string;
  id: string;
  number: string | null;
}

export type Effect = (context: EffectContext) => Promise<void> | void;
