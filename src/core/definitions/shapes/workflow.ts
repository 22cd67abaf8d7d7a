/**
 * A workflow definition (workflows/<id>.json): an XState machine whose states are document
 * statuses and whose events are actions, plus who may fire each action, the screens that show
 * the document in a mode, the lists (finders) of documents, and what its documents are.
 */
import type { JsonValue } from '../json';
import { WorkflowAction } from './action';
import {
  Numbering,
  WorkflowCertificate,
  WorkflowValidity,
  WorkflowVerification,
} from './certificate';
import {
  anyObject,
  countKey,
  dataPointer,
  definitionFile,
  filled,
  identifier,
  record,
  roleSuffixes,
  some,
  STATUS_PATTERN,
  strict,
  Type,
  type Static,
} from './kit';
import { WorkflowCatalogCopy, WorkflowDerive, WorkflowLinks } from './links';
import { WorkflowList } from './list';
import { WorkflowPayment } from './payment';
import {
  AccessUnitDeclaration,
  AccountDeclaration,
  PasswordPolicyDeclaration,
  RecordKey,
  UserGroupDeclaration,
} from './records';
import { WorkflowScreen } from './screen';

/**
 * The workflow whose documents are the inbox's messages: every notice another workflow sends
 * its holder becomes one (posted by the `post` system action), and an officer may write one to
 * the holder of a document they see. A message is seen by its holder (the owner) and by whoever
 * wrote it, nobody else. Its e-mail and SMS go through the outbox; the outbox reports each
 * attempt back as a system action, so the message keeps its attempts and status. Pointers are
 * JSON pointers into the message's data.
 */
export const WorkflowInbox = strict({
  subject: dataPointer,
  body: dataPointer,
  note: dataPointer,
  /** An uploaded file, sent with the e-mail. */
  attachment: dataPointer,
  /** The document the message is about: an object {type, id, number, path}. */
  about: dataPointer,
  /** Whom it is for, filled by the server: {name, email, mobile}. */
  recipient: dataPointer,
  /** Who wrote it, filled by the server: {name}. */
  sender: dataPointer,
  /** Its delivery as the outbox reports it: {attempts, attemptDate, channels}. */
  delivery: dataPointer,
  /** The status of a message its holder has opened; every other one is unread. */
  read: filled,
  /**
   * The system actions the engine takes on a message: `post` a notice to the holder, `attempted`
   * an e-mail or SMS attempt failed and will be tried again, `sent` one was delivered, `failed`
   * the last attempt failed and no channel delivered.
   */
  actions: strict({
    post: identifier,
    attempted: identifier,
    sent: identifier,
    failed: identifier,
  }),
});
export type WorkflowInbox = Static<typeof WorkflowInbox>;

/**
 * Tasks a workflow declares beyond an officer's assignments and queues: `owner` lists the
 * statuses in which a document waits for its owner (a query to answer), each with the screen
 * (relative, with :id) the task opens on My Tasks.
 */
export const WorkflowTasks = strict({
  owner: Type.Optional(Type.Array(strict({ status: Type.String(), open: Type.String() }))),
});
export type WorkflowTasks = Static<typeof WorkflowTasks>;

const statusNames = { propertyNames: { pattern: STATUS_PATTERN } };

/** An XState machine config: states are statuses, events are actions, guards by name. */
const machine = Type.Unsafe<
  { id: string; initial: string; states: Record<string, JsonValue> } & Record<string, JsonValue>
>(
  Type.Object({
    id: Type.String(),
    initial: Type.Literal('NEW'),
    states: record(
      strict({
        on: Type.Optional(anyObject),
        type: Type.Optional(Type.Literal('final')),
        description: Type.Optional(Type.String()),
        meta: Type.Optional(strict({ estimatedDays: Type.Optional(Type.Integer({ minimum: 0 })) })),
      }),
      { required: ['NEW'], ...statusNames },
    ),
  }),
);

export const WorkflowDefinition = strict({
  id: identifier,
  /** Id of the entity schema in schemas/ the documents follow. */
  document: identifier,
  /**
   * Named backend serving the documents, at /api/<backend>: the default one (evisa) unless a
   * module declares its own (`backends` of defineModule; the loader refuses one nobody serves).
   */
  backend: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9-]*$' })),
  /** Route prefix of the workflow's screens and lists, e.g. `/visa/application`. */
  prefix: Type.String({ pattern: '^(/[a-z0-9-]+)+$' }),
  /** Joined to every role suffix, e.g. `visa-application-`. */
  rolePrefix: Type.String({ pattern: '^[a-z][a-z0-9-]*-$' }),
  /** Reference numbers: `{prefix}-{year}-{serial}` from a gap-free sequence per type and year. */
  numbering: Type.Optional(Numbering),
  /** Role suffixes whose holders see every document of the type; others see only their own. */
  seeAll: roleSuffixes,
  /**
   * A second number, given when the document is granted (a sponsorship number, as opposed to
   * the application's number given at submission): `{prefix}-{year}-{serial}` from its own
   * gap-free sequence per year, written at `/header/reference` by the `allocateReference` effect.
   */
  reference: Type.Optional(Numbering),
  /** How the `setValidity` effect dates a grant. */
  validity: Type.Optional(WorkflowValidity),
  /** Show the document's timeline (statuses reached, when, by whom, usual time per status). */
  timeline: Type.Optional(Type.Boolean()),
  /** Translation key of its lists' count (see WorkflowList.count): what its documents are called. */
  count: Type.Optional(countKey),
  /**
   * Offer counts of the documents per status (current year) and per month (last six), on the
   * home page and at `GET /api/evisa/statistics/{id}`; off unless declared.
   */
  statistics: Type.Optional(Type.Boolean()),
  /** Lets anyone check an issued document by its number and a second factor (home page). */
  verification: Type.Optional(WorkflowVerification),
  /** Documents of this type pay fees through the payment gateway. */
  payment: Type.Optional(WorkflowPayment),
  /** Data the server derives while the form is filled. */
  derive: Type.Optional(WorkflowDerive),
  /** The document the holder is given once issued, as a PDF. */
  certificate: Type.Optional(WorkflowCertificate),
  /**
   * Removed status -> the status its documents move to (a status renamed, or merged into
   * another): applied once at start, each document getting a new version and a history line
   * (src/server/documents/status-moves.ts). A removed status that still holds documents and is
   * not mapped here stops the start, naming how many.
   */
  statusMoves: Type.Optional(record(Type.String(), statusNames)),
  /** Documents this one names by number and moves with its actions. */
  links: Type.Optional(WorkflowLinks),
  /** Settings the document is issued with, copied from catalogue entries. */
  fromCatalog: Type.Optional(some(WorkflowCatalogCopy)),
  /**
   * Target pointer -> source pointer: values of the document the `copyValues` effect copies
   * within it (the visa type the applicant chose, into the officers' issuance section), so the
   * target always holds what the source does; an empty source clears the target
   * (check-copies.ts: of one type, not the same).
   */
  copies: Type.Optional(record(dataPointer, { minProperties: 1, propertyNames: dataPointer })),
  /**
   * Where the data holds the language its holder chose (`en` or `fr`): notices and the
   * certificate's e-mail are written in it. Without it, or without a value there, English.
   */
  holderLanguage: Type.Optional(dataPointer),
  /** The field identifying a record, unique within the type. */
  key: Type.Optional(RecordKey),
  /** The documents are the identity server's accounts: what it reads of them. */
  account: Type.Optional(AccountDeclaration),
  /** The documents are user groups: what the account directory reads of them. */
  userGroup: Type.Optional(UserGroupDeclaration),
  /** The documents are password policies: where their rules are. */
  passwordPolicy: Type.Optional(PasswordPolicyDeclaration),
  /** The documents are access units: where their roles are. */
  accessUnit: Type.Optional(AccessUnitDeclaration),
  machine,
  actions: record(WorkflowAction, { propertyNames: { pattern: '^[a-z][a-zA-Z-]*$' } }),
  screens: Type.Array(WorkflowScreen),
  lists: Type.Array(WorkflowList),
  /** What makes a document of this type a task on My Tasks besides assignments and queues. */
  tasks: Type.Optional(WorkflowTasks),
  /** The documents are the inbox's messages. */
  inbox: Type.Optional(WorkflowInbox),
});
export type WorkflowDefinition = Static<typeof WorkflowDefinition>;

export const workflowMetaSchema = definitionFile('workflow', WorkflowDefinition);
