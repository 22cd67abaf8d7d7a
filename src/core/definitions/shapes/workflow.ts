/** A workflow definition (workflows/<id>.json; docs/workflows.md). */
import type { JsonValue } from '../json';
import { WorkflowAction } from './action';
import { WorkflowCaseNotes, WorkflowFlags } from './case-work';
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
  oneOf,
  record,
  relativePointer,
  roleSuffixes,
  some,
  STATUS_PATTERN,
  strict,
  Type,
  type Static,
} from './kit';
import { WorkflowCatalogCopy, WorkflowDerive, WorkflowLinks, WorkflowPayerConsent } from './links';
import { WorkflowReferencedByAll, WorkflowRenewal } from './renewal';
import { WorkflowDelegation } from './delegation';
import { WorkflowList } from './list';
import { WorkflowPayment } from './payment';
import { WorkflowPersons } from './persons';
import {
  AccessUnitDeclaration,
  AccountDeclaration,
  PasswordPolicyDeclaration,
  RecordKey,
  UserGroupDeclaration,
} from './records';
import { WorkflowScreen } from './screen';
import { WorkflowWorkload } from './workload';
import { WorkflowRequests } from './requests';
import { WorkflowScreening } from './screening';
import { WorkflowShareCodes } from './share-codes';
import { WorkflowRetention } from './retention';

/** The workflow whose documents are the inbox's messages (docs/inbox.md). */
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
  /** The system actions the engine takes on a message. */
  actions: strict({
    post: identifier,
    attempted: identifier,
    sent: identifier,
    failed: identifier,
  }),
});
export type WorkflowInbox = Static<typeof WorkflowInbox>;

/** `owner`: the statuses in which a document waits for its owner, and the screen it opens. */
export const WorkflowTasks = strict({
  owner: Type.Optional(Type.Array(strict({ status: Type.String(), open: Type.String() }))),
});

/**
 * A change to the stored documents' data, made once by the publish that brings it (docs/workflows.md,
 * "dataMoves"): a value given where a document has none (a new required field), a field moved to
 * another place, a field the schema no longer has removed. The fields a move writes are the
 * schema's (`x-names`); those it empties are ones the schema no longer has, checked by the publish.
 */
export const WorkflowDataMove = oneOf(
  strict({ setDefault: dataPointer, value: Type.Unsafe<JsonValue>({}) }),
  strict({ rename: relativePointer, to: dataPointer }),
  strict({ remove: relativePointer }),
);
export type WorkflowDataMove = Static<typeof WorkflowDataMove>;

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
        /** Delayed transitions: a declared timer's name -> `{target, guard?}` (docs/workflows.md, "Timers"). */
        after: Type.Optional(
          record(
            strict({ target: Type.String(), guard: Type.Optional(Type.Unsafe<JsonValue>({})) }),
            { minProperties: 1, propertyNames: { pattern: '^[a-z][a-zA-Z0-9]*$' } },
          ),
        ),
        type: Type.Optional(Type.Literal('final')),
        description: Type.Optional(Type.String()),
        meta: Type.Optional(strict({ estimatedDays: Type.Optional(Type.Integer({ minimum: 0 })) })),
      }),
      { required: ['NEW'], ...statusNames },
    ),
  }),
);

/** How long a timer waits from the document's entry into the status. */
export const TimerWait = oneOf(
  strict({ days: Type.Integer({ minimum: 0, maximum: 3650 }) }),
  strict({
    /** A date or date-time of the data: the timer is due then (a date: at its start, UTC). */
    until: dataPointer,
    /** Days from the entry when the data holds no date there. */
    days: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  }),
);
export type TimerWait = Static<typeof TimerWait>;

/** A notice to the holder some days before a timer is due: texts `<message>.subject`, `.body`. */
export const TimerReminder = strict({
  before: strict({ days: Type.Integer({ minimum: 1, maximum: 3650 }) }),
  /** Text key prefix; the texts get {number, date, days}. */
  message: filled,
});
export type TimerReminder = Static<typeof TimerReminder>;

/**
 * A durable timer of the machine's `after`: due a while after a document enters the status
 * naming it, it fires the workflow's system `action` unless the document left the status first.
 */
export const WorkflowTimer = strict({
  wait: TimerWait,
  /** A system action of the workflow: its history line, effects and fires run when it fires. */
  action: filled,
  reminders: Type.Optional(some(TimerReminder)),
});
export type WorkflowTimer = Static<typeof WorkflowTimer>;

export const WorkflowDefinition = strict({
  id: identifier,
  /** Id of the entity schema in schemas/ the documents follow. */
  document: identifier,
  /** Named backend serving the documents (evisa unless a module declares its own). */
  backend: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9-]*$' })),
  /** Route prefix of the workflow's screens and lists, e.g. `/visa/application`. */
  prefix: Type.String({ pattern: '^(/[a-z0-9-]+)+$' }),
  /** Joined to every role suffix, e.g. `visa-application-`. */
  rolePrefix: Type.String({ pattern: '^[a-z][a-z0-9-]*-$' }),
  /** Reference numbers: `{prefix}-{year}-{serial}` from a gap-free sequence per type and year. */
  numbering: Type.Optional(Numbering),
  /** Role suffixes whose holders see every document of the type; others see only their own. */
  seeAll: roleSuffixes,
  /** A second number, given at grant by the `allocateReference` effect. */
  reference: Type.Optional(Numbering),
  /** How the `setValidity` effect dates a grant. */
  validity: Type.Optional(WorkflowValidity),
  /** Show the document's timeline (statuses reached, when, by whom, usual time per status). */
  timeline: Type.Optional(Type.Boolean()),
  /** Translation key of its lists' count (see WorkflowList.count): what its documents are called. */
  count: Type.Optional(countKey),
  /** Offer counts of the documents per status and per month. */
  statistics: Type.Optional(Type.Boolean()),
  /** Lets anyone check an issued document by its number and a second factor (home page). */
  verification: Type.Optional(WorkflowVerification),
  /** Documents of this type pay fees through the payment gateway. */
  payment: Type.Optional(WorkflowPayment),
  /** Documents screened against block catalogues at some actions (docs/workflows.md, "Screening"). */
  screening: Type.Optional(WorkflowScreening),
  /** Data the server derives while the form is filled. */
  derive: Type.Optional(WorkflowDerive),
  /** The document the holder is given once issued, as a PDF. */
  certificate: Type.Optional(WorkflowCertificate),
  /** The people the document is for, each granted or refused on their own (a family's visa). */
  persons: Type.Optional(WorkflowPersons),
  /** Removed status -> the status its documents move to at start (status-moves.ts). */
  statusMoves: Type.Optional(record(Type.String(), statusNames)),
  /** Changes to the stored documents' data, made by the publish that brings them (data-moves.ts). */
  dataMoves: Type.Optional(some(WorkflowDataMove)),
  /** Documents this one names by number and moves with its actions. */
  links: Type.Optional(WorkflowLinks),
  /** The holder may name another account who may pay the document (a `links` with payerConsent). */
  payerConsent: Type.Optional(WorkflowPayerConsent),
  /** The holder may let another person read the document and act on it (docs/delegation.md). */
  delegation: Type.Optional(WorkflowDelegation),
  /** Settings the document is issued with, copied from catalogue entries. */
  fromCatalog: Type.Optional(some(WorkflowCatalogCopy)),
  /** Target pointer -> source pointer, copied by the `copyValues` effect. */
  copies: Type.Optional(record(dataPointer, { minProperties: 1, propertyNames: dataPointer })),
  /** Where the data holds the holder's language for notices (English without it). */
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
  /** Durable timers the machine's states name in `after` (docs/workflows.md, "Timers"). */
  timers: Type.Optional(
    record(WorkflowTimer, { minProperties: 1, propertyNames: { pattern: '^[a-z][a-zA-Z0-9]*$' } }),
  ),
  screens: Type.Array(WorkflowScreen),
  lists: Type.Array(WorkflowList),
  /** What makes a document of this type a task on My Tasks besides assignments and queues. */
  tasks: Type.Optional(WorkflowTasks),
  /** The documents are the inbox's messages. */
  inbox: Type.Optional(WorkflowInbox),
  /** A team view: open documents per assignee and status, for those who assign (workload.ts). */
  workload: Type.Optional(WorkflowWorkload),
  /** Internal case notes per document, for officers only (case-work.ts). */
  caseNotes: Type.Optional(WorkflowCaseNotes),
  /** Flags officers set on a document, shown as badges and filtered on by lists (case-work.ts). */
  flags: Type.Optional(WorkflowFlags),
  /** Requests for information: items an action asks the owner for, answered one by one. */
  requests: Type.Optional(WorkflowRequests),
  /** Documents of this type renewing another of the type (docs/workflows.md, "Renewals"). */
  renewal: Type.Optional(WorkflowRenewal),
  /** Documents of other types naming this one: listed on its screen, flagged by `flagReferring`. */
  referencedBy: Type.Optional(WorkflowReferencedByAll),
  /** Codes the holder gives a third party to check their status (docs/status-sharing.md). */
  shareCodes: Type.Optional(WorkflowShareCodes),
  /** How long closed documents are kept, and what is cleared then (docs/retention.md). */
  retention: Type.Optional(WorkflowRetention),
});
export type WorkflowDefinition = Static<typeof WorkflowDefinition>;

export const workflowMetaSchema = definitionFile('workflow', WorkflowDefinition);
