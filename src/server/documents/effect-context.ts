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
import type { DocumentOwner } from './on-behalf';
import type { Inbox } from './messages';

// What an effect is given and may change, apart from the effects so others name the types alone.

/** The document being changed by an action; effects edit it before it is written. */
export interface DocumentDraft extends Omit<DocumentOwner, 'ownerMobile'> {
  id: string;
  type: string;
  status: string;
  previousStatus: string | null;
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
  /** Where accounts are found by sign-in name; without it nobody can be named (`onBehalf`). */
  accounts?: AccountLookup;
  /** Who holds which roles now; without it nobody can be assigned. */
  roleHolders?: RoleHolders;
  /** The public is told which officer acted (OFFICER_NAMES_TO_PUBLIC). */
  officerNamesToPublic?: boolean;
  /** The inbox (messages.ts); without it notices go out by e-mail only. */
  inbox?: InboxEffects;
  /** The catalogues as this process keeps them; without it read in the action's transaction. */
  catalogs?: CatalogSource;
  /**
   * Told of sign-in sessions an effect ended (an account closed) once its action committed: this
   * process refuses their tokens from the action's answer on.
   */
  sessionsEnded?: (sids: readonly string[]) => void;
}

/** A notice to a document's holder, in the language they chose. */
export interface Notice {
  subject: string;
  /** The text of the e-mail (and of the message, unless `inboxBody`). */
  body: string;
  language: Language;
  attachments?: OutboxAttachment[];
  /** The message's own wording when the e-mail carries what the portal cannot (a PDF). */
  inboxBody?: string;
  /** The portal route the message links to; by default the document's, none when null. */
  path?: string | null;
  /** The SMS's own text (a holder who cannot sign in yet gets the one link they can open). */
  sms?: string;
}

/** What the inbox does for the engine's effects. */
export type InboxEffects = Pick<Inbox, 'post' | 'address' | 'queueWritten' | 'record' | 'requeue'>;

/** An account as an assignment shows it: its id (the token's subject), sign-in name and name. */
export interface RoleHolder {
  id: string;
  login: string;
  name: string;
}

/** The account directory as assignments read it (a module's `StartedModule.roleHolders`). */
export interface RoleHolders {
  /** The account named by id or sign-in name with its roles now; none if it may not sign in. */
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
  previousOwner?: DocumentOwner;
}

/** The document that moved another through `fires` (its number is the receipt of a payment). */
export interface EffectCause {
  type: string;
  id: string;
  number: string | null;
  /** Its data as its action leaves them (a renewal's granted period), when the firing gives them. */
  data?: Record<string, unknown>;
}

export type Effect = (context: EffectContext) => Promise<void> | void;
