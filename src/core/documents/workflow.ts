/**
 * The shape of a workflow definition (workflows/<id>.json): an XState machine whose states are
 * document statuses and whose events are actions, plus who may fire each action, the screens
 * that show the document in a mode, and the lists (finders) of documents.
 */
import type { JsonValue } from '../definitions/json';
import type { FilterCondition } from '../search/protocol';
import type {
  AccessUnitDeclaration,
  AccountDeclaration,
  FieldTest,
  PasswordPolicyDeclaration,
  RecordKey,
  UserGroupDeclaration,
} from './record-declarations';

/** What an action needs from its caller besides the version read. */
export type ActionPayload = 'none' | 'data' | 'assignee';

export interface WorkflowAction {
  /** Role suffixes (joined to the workflow's rolePrefix); holding any one allows the action. */
  roles: string[];
  /** Only the document's owner may fire it (applicant actions). */
  owner?: boolean;
  /** Notes are required (query, reject) or may be given. */
  notes?: 'required' | 'optional';
  payload?: ActionPayload;
  /**
   * With payload `assignee`: role suffixes of the workflow, one of which the account assigned
   * must hold (the roles of the step that follows: the verification officer's `forward`). The
   * server refuses anyone else, and lists those who hold one (`GET /:type/assignees/:action`).
   */
  assignees?: string[];
  /** Named effects run in the action's transaction, in order (see the effect registry). */
  effects?: string[];
  /**
   * Effects run before the machine decides, on the data the action brings, because a guard
   * reads what they compute (freezeFees: whether a fee is due decides SUBMITTED or SUBMITTED
   * FOR VERIFICATION).
   */
  before?: string[];
  /** Sections the action may change when its payload is data: ids, or "all"; default: every non-officer section. */
  editable?: string[] | 'all';
  /** Validate the whole document (every section and rule) before the action is taken. */
  validate?: boolean;
  /** Translation key of the success message. */
  success?: string;
  /**
   * The person stays on the screen after the action even when it moved the document on, to
   * take the next one there (verify, then forward): the success message and the actions now
   * allowed, instead of the view under a confirmation.
   */
  stay?: boolean;
  /**
   * Fired only by the server itself (a payment the gateway confirmed): the API refuses it from
   * any caller, and it is never among a document's allowed actions.
   */
  system?: boolean;
  /**
   * Pointers into the data that must hold a value once the action's payload is merged (an
   * issue needs its issuance details): a missing one is a 400 naming the field.
   */
  requires?: string[];
  /**
   * A destructive action (cancel, delete, reset to defaults): its button is danger-coloured and
   * it is taken only after the user confirms it in a dialog.
   */
  danger?: boolean;
  /**
   * How the action's button stands among the screen's others: `primary` the step most people
   * take there (filled), `secondary` one taken less often (plain, beside it). Unset: filled,
   * as before; a `danger` action is always drawn as destructive. `primary` also marks the step
   * the workflow expects next (submit, pay, reply, verify...): among a document's next steps,
   * the screen offering it is the filled button, first, the others secondary.
   */
  emphasis?: 'primary' | 'secondary';
  /**
   * The document is made or changed for someone else (an officer or agent at the counter for
   * a sponsor): the request names that person by `owner`, their sign-in name, and they own the
   * document from then on. Required when the action creates the document, optional otherwise.
   */
  onBehalf?: boolean;
  /**
   * A pointer to a flag an officer sets (the query's "changes required"): while it is true,
   * the action refuses the owner's data unchanged from the stored version (400 `noChanges`).
   */
  mustChange?: string;
  /**
   * System actions this action fires, in its transaction, on the documents the workflow's
   * `links` name (an invoice verified settles every application it pays): see LinkFiring.
   */
  fires?: LinkFiring;
}

/**
 * Which system action of a linked document's workflow an action fires, on which of the linked
 * documents: `added` those the action's data names and the stored version did not (all of them
 * when the document is created), `removed` those the stored version named and the action's data
 * no longer does, `each` every document named once the action is taken. If the machine of any
 * of them refuses, the whole action is refused and nothing changes.
 */
export interface LinkFiring {
  added?: string;
  removed?: string;
  each?: string;
}

/**
 * What a linked document offers to the document naming it (LinkFill values): its type, number,
 * status, owner's name, submission date, and, for a payable one (its workflow's `payment`), the
 * amount its frozen fees come to, the amount paid and their currency.
 */
export type LinkValue =
  | 'type'
  | 'number'
  | 'status'
  | 'ownerName'
  | 'submittedAt'
  | 'amountDue'
  | 'amountPaid'
  | 'currency';

/**
 * A value read from a linked document's data (an application's applicant, whoever owns it):
 * the first of `data`'s sources giving one, a source being a pointer of the linked document's
 * data or several separated by spaces, joined (a person's given and family names). Sources
 * naming fields of different linked types each serve their own.
 */
export interface LinkData {
  data: string[];
}

/**
 * Documents this one names in a list of its data, by number (an invoice's items, each naming a
 * visa or sponsor application): `items` points at the array, `number` is the property of each
 * item holding a document number, of one of `types`. The server fills `fill`'s properties of
 * each item from the document it names and writes each `totals` sum, every time the data is
 * written: what the client sent there is ignored. An item may name only a document its author
 * may see, once. Actions move the named documents through `fires`.
 */
export interface WorkflowLinks {
  items: string;
  number: string;
  types: string[];
  /** Item property -> the value of the named document written there. */
  fill?: Record<string, LinkValue | LinkData>;
  /** Pointer -> the sum (to the cent) of one value over the named documents. */
  totals?: Record<string, LinkValue>;
  /** Translation key of the note written in a fired-on document's history, with {{number}}. */
  note: string;
}

export type ScreenMode =
  | 'new'
  | 'edit'
  | 'view'
  | 'version'
  | 'submission'
  | 'verification'
  | 'validation'
  | 'approval'
  | 'assignment'
  | 'reply-to-query'
  | 'amendment'
  | 'modification'
  | 'cancellation'
  | 'undo'
  | 'deletion'
  | 'dispatch'
  | 'print'
  | 'drop'
  | 'creation'
  | 'change'
  | 'confirmation'
  | 'initiate'
  | 'payment'
  | 'payment-integration'
  | 'finalisation';

export interface WorkflowScreen {
  /** Route below the workflow's prefix, e.g. `/view/:id`. */
  path: string;
  mode: ScreenMode;
  /** Role suffixes; holding any one opens the screen. */
  roles: string[];
  /** Actions offered as buttons here, when the machine allows them in the current state. */
  actions?: string[];
  /** Sections the user may edit here: their ids, or "all"; others are shown read-only. */
  editable?: string[] | 'all';
  /**
   * Translation key of the screen's entry in the application menu, for screens that take no
   * document (the visa menu's New); shown to users holding the screen's roles, before the lists.
   */
  menu?: string;
  /** Sections not shown here at all. */
  hidden?: string[];
  /**
   * The section the screen opens on (verification on the applicant's data, validation on the
   * issuance), or a list of them: the first one shown wins (a sponsor's identity is the
   * organisation's or the person's section, whichever applies); by default the first the user
   * may edit, or, read-only, the first with data.
   */
  open?: string | string[];
  /**
   * Actions whose notes the screen shows at its top, the latest of them from the document's
   * history (the officer's query on the reply-to-query screen).
   */
  showNotesOf?: string[];
  /**
   * `false` leaves out the document's workings (information, versions, timeline, history): a
   * person's own profile shows their data, not the record keeping behind it.
   */
  chrome?: boolean;
  /**
   * Translation key naming the link to this screen among another screen's next steps (the edit
   * screen's "Edit application"); by default the name of the first action it offers.
   */
  label?: string;
  /** Links to other pages of the portal the screen offers (the profile's Change password). */
  links?: ScreenLink[];
  /**
   * An action the screen takes as it opens, when the machine allows it to the caller now: a
   * message becomes READ when its holder opens it. Nothing is asked of the caller.
   */
  fire?: string;
  /**
   * What a new document starts with from the signed-in person's session (the token's claims) or
   * their profile (`{"profile": pointer}`: a field of their own account, the document of the
   * workflow declaring `account`): data pointer -> where from. A self-service application's
   * contact e-mail and mobile number; an invoice's payer, their e-mail and address.
   */
  prefill?: Record<string, SessionClaim | ProfileField>;
  /**
   * Panels of a business module shown on the screen below its actions, by the names the
   * module gives them (src/engine/modules-context.ts): a service account's API credentials.
   */
  panels?: string[];
  /**
   * The documents the screen is for (a service account's API credentials): another screen
   * offers it among its next steps only when the document's data holds this value.
   */
  when?: FieldTest;
}

/** The claims of a person's session a new document may start with (`prefill`). */
export const SESSION_CLAIMS = ['email', 'phoneNumber', 'name', 'locale'] as const;
export type SessionClaim = (typeof SESSION_CLAIMS)[number];

/** A field of the signed-in person's own account a new document may start with (`prefill`). */
export interface ProfileField {
  profile: string;
}

/**
 * A link a screen offers: its text (translation key) and the portal route it opens, given
 * (`to`) or read from the document's data (`pointer`: a message's link to what it is about).
 * A link whose data holds no route is not shown.
 */
export type ScreenLink = { label: string; to: string } | { label: string; pointer: string };

export type AssignmentFilter = 'me' | 'unassigned' | 'assigned';

/**
 * The columns every document has, which a list names without a pointer; `assigneeName` is the
 * assignee's name, read from the accounts (an "Assigned to" column).
 */
export const DOCUMENT_LIST_COLUMNS = [
  'status',
  'number',
  'owner',
  'ownerName',
  'assignee',
  'assigneeName',
  'year',
  'submittedAt',
  'createdAt',
  'updatedAt',
] as const;

export interface ListColumn {
  /** One of DOCUMENT_LIST_COLUMNS, or the name of a data field given by `pointer`. */
  field: string;
  /** JSON pointer into the document data, when the column is a data field. */
  pointer?: string;
  /** Translation key of the header. */
  label: string;
  /** `money`: an amount shown with two decimals and its currency, as the reader's language writes it. */
  format?: 'money';
}

/** A fixed condition of a list (`where`): a FilterCondition on a data pointer. */
export type ListCondition = Omit<FilterCondition, 'field'> & {
  /** JSON pointer into the document's data, a field of the workflow's schema. */
  pointer: string;
};

export interface WorkflowList {
  id: string;
  /** Route below the workflow's prefix ('' for the main finder). */
  path: string;
  roles: string[];
  /** Statuses shown; empty or absent means every status but DELETED. */
  status?: string[];
  assignment?: AssignmentFilter;
  /**
   * Conditions on the data every document of the list meets, all of them (the active accounts:
   * `/access/activationStatus` equals `active`): the search protocol's conditions, naming a
   * field of the schema by its pointer instead of a searchable field's name. The server adds
   * them to the list's scope like `status` and `assignment`; the loader checks each pointer.
   */
  where?: ListCondition[];
  columns: ListColumn[];
  /** Screen path (relative, with :id) a row opens. */
  open: string;
  /** Translation key of the menu entry (within its workflow's menu folder). */
  label: string;
  /**
   * Translation key naming the list wherever it is not under its workflow's menu folder (the
   * dashboard's links, its own page's heading): "Find visa applications" where the menu says
   * "Find". Default: `label`.
   */
  title?: string;
  /**
   * Translation key of the list's count ("2 accounts"): `<key>_one`, `<key>_other`,
   * `<key>More_one`, `<key>More_other`; by default the workflow's `count`, else "documents".
   */
  count?: string;
  /**
   * The menu entry shows how many of the list's documents meet this condition (the inbox's
   * unread messages: status not READ), when there are any.
   */
  badge?: FilterCondition;
}

export interface WorkflowDefinition {
  id: string;
  /** Id of the entity schema in schemas/ the documents follow. */
  document: string;
  /** Named backend serving the documents (`evisa` by default; `connectid` for identity records). */
  backend?: 'evisa' | 'connectid';
  /** Route prefix of the workflow's screens and lists, e.g. `/visa/application`. */
  prefix: string;
  /** Joined to every role suffix, e.g. `visa-application-`. */
  rolePrefix: string;
  /** Reference numbers: `{prefix}-{year}-{serial}` from a gap-free sequence per type and year. */
  numbering?: { prefix: string; digits?: number };
  /** Role suffixes whose holders see every document of the type; others see only their own. */
  seeAll: string[];
  /**
   * A second number, given when the document is granted (a sponsorship number, as opposed to
   * the application's number given at submission): `{prefix}-{year}-{serial}` from its own
   * gap-free sequence per year, written at `/header/reference` by the `allocateReference` effect.
   */
  reference?: { prefix: string; digits?: number };
  /** How the `setValidity` effect dates a grant (see WorkflowValidity). */
  validity?: WorkflowValidity;
  /** Show the document's timeline (statuses reached, when, by whom, usual time per status). */
  timeline?: boolean;
  /** Translation key of its lists' count (see WorkflowList.count): what its documents are called. */
  count?: string;
  /**
   * Offer counts of the documents per status (current year) and per month (last six), on the
   * home page and at `GET /api/evisa/statistics/{id}`; off unless declared.
   */
  statistics?: boolean;
  /** Lets anyone check an issued document by its number and a second factor (home page). */
  verification?: WorkflowVerification;
  /** Documents of this type pay fees through the payment gateway (see WorkflowPayment). */
  payment?: WorkflowPayment;
  /** Data the server derives while the form is filled (see WorkflowDerive). */
  derive?: WorkflowDerive;
  /** The document the holder is given once issued, as a PDF (see WorkflowCertificate). */
  certificate?: WorkflowCertificate;
  /**
   * Removed status -> the status its documents move to (a status renamed, or merged into
   * another): applied once at start, each document getting a new version and a history line
   * (src/server/documents/status-moves.ts). A removed status that still holds documents and is
   * not mapped here stops the start, naming how many.
   */
  statusMoves?: Record<string, string>;
  /** Documents this one names by number and moves with its actions (see WorkflowLinks). */
  links?: WorkflowLinks;
  /** Settings the document is issued with, copied from catalogue entries (see WorkflowCatalogCopy). */
  fromCatalog?: WorkflowCatalogCopy[];
  /**
   * Target pointer -> source pointer: values of the document the `copyValues` effect copies
   * within it (the visa type the applicant chose, into the officers' issuance section), so the
   * target always holds what the source does; an empty source clears the target.
   */
  copies?: Record<string, string>;
  /**
   * Where the data holds the language its holder chose (`en` or `fr`): notices and the
   * certificate's e-mail are written in it. Without it, or without a value there, English.
   */
  holderLanguage?: string;
  /** The field identifying a record, unique within the type (record-declarations.ts). */
  key?: RecordKey;
  /** The documents are the identity server's accounts: what it reads of them. */
  account?: AccountDeclaration;
  /** The documents are user groups: what the account directory reads of them. */
  userGroup?: UserGroupDeclaration;
  /** The documents are password policies: where their rules are. */
  passwordPolicy?: PasswordPolicyDeclaration;
  /** The documents are access units: where their roles are. */
  accessUnit?: AccessUnitDeclaration;
  /** An XState machine config: states are statuses, events are actions, guards by name. */
  machine: { id: string; initial: string; states: Record<string, JsonValue> } & Record<
    string,
    JsonValue
  >;
  actions: Record<string, WorkflowAction>;
  screens: WorkflowScreen[];
  lists: WorkflowList[];
  /** What makes a document of this type a task on My Tasks besides assignments and queues. */
  tasks?: WorkflowTasks;
  /** The documents are the inbox's messages (see WorkflowInbox). */
  inbox?: WorkflowInbox;
}

/**
 * The workflow whose documents are the inbox's messages: every notice another workflow sends
 * its holder becomes one (posted by the `post` system action), and an officer may write one to
 * the holder of a document they see. A message is seen by its holder (the owner) and by whoever
 * wrote it, nobody else. Its e-mail and SMS go through the outbox; the outbox reports each
 * attempt back as a system action, so the message keeps its attempts and status. Pointers are
 * JSON pointers into the message's data.
 */
export interface WorkflowInbox {
  subject: string;
  body: string;
  note: string;
  /** An uploaded file, sent with the e-mail. */
  attachment: string;
  /** The document the message is about: an object {type, id, number, path}. */
  about: string;
  /** Whom it is for, filled by the server: {name, email, mobile}. */
  recipient: string;
  /** Who wrote it, filled by the server: {name}. */
  sender: string;
  /** Its delivery as the outbox reports it: {attempts, attemptDate, channels}. */
  delivery: string;
  /** The status of a message its holder has opened; every other one is unread. */
  read: string;
  /** The system actions the engine takes on a message. */
  actions: {
    /** A notice posted to the holder. */
    post: string;
    /** An e-mail or SMS attempt failed and will be tried again. */
    attempted: string;
    /** An e-mail or SMS was delivered. */
    sent: string;
    /** The last attempt failed and no channel delivered. */
    failed: string;
  };
}

/**
 * Tasks a workflow declares beyond an officer's assignments and queues: `owner` lists the
 * statuses in which a document waits for its owner (a query to answer), each with the screen
 * (relative, with :id) the task opens on My Tasks.
 */
export interface WorkflowTasks {
  owner?: Array<{ status: string; open: string }>;
}

/**
 * The public check of an electronic document (`POST /api/evisa/verification`): which statuses
 * count as issued, which data fields a caller must know one of, and where the validity period
 * is. Pointers are JSON pointers into the document data.
 */
export interface WorkflowVerification {
  /** Statuses in which the document counts as issued; in any other it is "not verified". */
  statuses: string[];
  /** Fields of the data, any one of which the caller must give (passport number, birth date...). */
  secondFactors: string[];
  /** First day of validity (a date), when the document has one. */
  validFrom?: string;
  /** Last day of validity (a date, inclusive), when the document has one. */
  validUntil?: string;
  /**
   * Where the number checked is in the data, when it is not the document's own number (the
   * sponsorship number a grant gives, at `/header/reference`, rather than the application's).
   * The check finds it through an index made from this declaration.
   */
  number?: string;
}

/**
 * A catalogue entry copied into the document by the `copyFromCatalog` effect (on creation): the
 * settings the document is issued with, which an administrator changes in the catalogue without
 * a restart while documents already made keep theirs (the bank account an invoice is paid to,
 * and its due date from the entry's payment term).
 */
export interface WorkflowCatalogCopy {
  catalog: string;
  /** The entry's key (the catalogue is keyed by one field): the entry valid at the copy. */
  code: string;
  /** Data pointer of the object the values are written into. */
  to: string;
  /** Property of that object -> field of the entry copied into it. */
  fields: Record<string, string>;
  /**
   * Property of that object -> number field of the entry: the date (YYYY-MM-DD) that many days
   * after the copy (a due date: the creation date plus the payment term).
   */
  daysAfter?: Record<string, string>;
  /** Property of that object written with the document's own number (the reference to quote). */
  number?: string;
}

/** The pseudo-state a document is in before it exists; `store` or `drop` leave it. */
export const NEW_STATE = 'NEW';

export function fullRoles(
  workflow: Pick<WorkflowDefinition, 'rolePrefix'>,
  suffixes: readonly string[],
): string[] {
  return suffixes.map((suffix) => `${workflow.rolePrefix}${suffix}`);
}

/** Every role of a workflow: those of its actions, screens and lists. */
export function workflowRoles(
  workflow: Pick<WorkflowDefinition, 'rolePrefix' | 'actions' | 'screens' | 'lists'>,
): string[] {
  const suffixes = new Set<string>([
    ...Object.values(workflow.actions).flatMap((action) => action.roles),
    ...workflow.screens.flatMap((screen) => screen.roles),
    ...workflow.lists.flatMap((list) => list.roles),
  ]);
  return fullRoles(workflow, [...suffixes]);
}

/**
 * How a payable document's fees are computed and where they go: the `freezeFees` effect reads
 * each fee source's catalogue (the entries valid at that moment whose key field holds the
 * document's code and whose conditions are on), writes the lines, currency and total at `fees`;
 * payment orders are made from those frozen lines only. Nothing about fees is known to the code
 * beyond this declaration (docs/payments.md, "Declaring the fees").
 */
export interface WorkflowPayment {
  /** ISO 4217 code of every amount of the fee catalogues (e.g. NZD), frozen with the fees. */
  currency: string;
  /** Where fee lines come from, in the order the lines are listed. */
  sources: WorkflowFeeSource[];
  /** Pointer where the frozen fee lines and total are written (an officer section). */
  fees: string;
  /** Pointer where the order and receipt details are written (an officer section). */
  receipt: string;
  /** Translation key of the description shown on the gateway's page and the receipt. */
  title: string;
}

/**
 * One fee catalogue charged to the document: each entry valid at the instant whose `match.field`
 * equals the code at `match.pointer` and whose `when` fields are all true makes one line per
 * payer, of the sum of its `amounts` (a line of zero is left out), named by its `code` and `name`.
 */
export interface WorkflowFeeSource {
  /** Id of the fee catalogue (catalogs/<id>.json). */
  catalog: string;
  match: {
    /** Field of the fee entry naming what it is charged for (e.g. documentCode). */
    field: string;
    /** Data pointer of the document's code it must equal (e.g. /visa/document). */
    pointer: string;
  };
  /** Boolean fields of the entry that must all be true (in force, charged automatically). */
  when: string[];
  /** Number fields of the entry summed into the line's amount. */
  amounts: string[];
  /** Field of the entry giving the line's code. */
  code: string;
  /** Field of the entry giving the line's name. */
  name: string;
  /** Who each entry charges; absent, it charges once. */
  payers?: WorkflowFeePayers;
}

/**
 * Who a source's entries charge, by the flags of one entry of another catalogue (the
 * sub-document says whether the applicant, the dependants, the employees pay): the entry whose
 * key is the code at `pointer`.
 */
export interface WorkflowFeePayers {
  /** Id of the catalogue holding the flags; its key is a single field. */
  catalog: string;
  /** Data pointer of that entry's key. */
  pointer: string;
  /** Charged once (the applicant) when these flags are all on. */
  once?: WorkflowFeeFlags;
  /** Charged once per person of a list of the document. */
  people?: Array<
    WorkflowFeeFlags & {
      /** Data pointer of the array of people (e.g. /dependants). */
      list: string;
      /**
       * How the line names the person: the first of these groups of the person's fields whose
       * values are not all empty, joined by a space (e.g. [["givenName", "familyName"], ["name"]]).
       */
      narration: string[][];
    }
  >;
}

/** Boolean fields of the payers' entry that must all be true. */
export interface WorkflowFeeFlags {
  flags: string[];
  /** What a flag the entry lacks (or a missing entry) counts as; false unless said. */
  unset?: boolean;
}

/**
 * What the form asks the server to compute while it is filled (`POST /:type/derive`): when a
 * value at one of `on` changes, the named deriving effects run on the form's data (nothing is
 * stored) and the values at `fills` are taken from the answer: the questions and attachments
 * of the chosen document, the fees due.
 */
export interface WorkflowDerive {
  on: string[];
  effects: string[];
  fills: string[];
}

/**
 * One line of a certificate: its label (the key of a text, a field's `._` for a group) and the
 * data pointer it prints. A date prints as DD/MM/YYYY, an enumeration value and a
 * catalogue code as their names. A field without a value is left off, unless `empty` names the
 * text to print instead (e.g. "No conditions").
 */
export interface CertificateField {
  label: string;
  pointer: string;
  /** Translation key of the heading of the section this field opens or continues. */
  section?: string;
  /** For a list: the pointer, inside each item, of the text printed for it (one line each). */
  each?: string;
  /** Translation key of the text printed when the field has no value. */
  empty?: string;
  /** `money`: a number printed with two decimals and the certificate's `currency`. */
  format?: 'money';
  /** For a list printed as a table (an invoice's items): one column per item property. */
  columns?: CertificateColumn[];
  /**
   * For an object printed over several lines (an address): the pointers, inside the object at
   * `pointer`, of its parts, each printed on a line of its own when it has a value.
   */
  lines?: string[];
  /**
   * On the certificate of one of the `holders`, the pointer inside that person's item printed
   * instead of `pointer` (their family name where the main holder's is printed).
   */
  holder?: string;
}

/** A column of a certificate's table: its heading (a text key) and the item's property. */
export interface CertificateColumn {
  label: string;
  /** Pointer inside each item of the list. */
  pointer: string;
  format?: 'money';
}

/**
 * The issued document as a PDF (`GET /:type/:id/certificate`): printable in `statuses` by its
 * owner and the holders of `roles`, with a QR code opening the public document check; the
 * `mailCertificate` effect e-mails it to the owner.
 */
export interface WorkflowCertificate {
  statuses: string[];
  roles: string[];
  /** Translation key of the title printed at the top (e.g. Electronic visa). */
  title: string;
  /** ISO 4217 code printed with the fields formatted as `money`. */
  currency?: string;
  /** Translation key of the download button's label (default: `certificate.download`, the e-visa's). */
  download?: string;
  fields: CertificateField[];
  /** People of a list of the document who each get a certificate of their own (see CertificateHolders). */
  holders?: CertificateHolders;
}

/**
 * People besides the document's own holder who each get a certificate (a dependant's e-visa):
 * the items of the list at `list`, or with `charged` only those the workflow's `payment`
 * charges (a `payers.people` group of the same list, its flags on when the fees were frozen).
 * The `allocateHolderNumbers` effect gives each of them a number of the workflow's `numbering`
 * (at issue), written at `number` inside their item; their certificate prints the fields'
 * `holder` pointers in place of the main holder's, is downloaded at
 * `GET /:type/:id/certificate/:number`, mailed with the main one by `mailCertificate`, and, for
 * a workflow with `verification`, checked publicly by that number and one of `secondFactors`.
 */
export interface CertificateHolders {
  /** Data pointer of the list of people (e.g. /dependants). */
  list: string;
  /** Only the people the payment charges, rather than every item of the list. */
  charged?: boolean;
  /** Pointer inside an item where its certificate's number is written. */
  number: string;
  /** Fields of an item naming the person (joined by a space): the download button's label. */
  name: string[];
  /** Pointers inside an item, any one of which the public check asks with the number. */
  secondFactors: string[];
  /** Translation key of a holder's download button (`{{name}}`, `{{number}}`); default `certificate.downloadHolder`. */
  download?: string;
}

/**
 * The validity a grant gives (`setValidity`): `period` points at the code the officer chose,
 * an entry of the catalogue `periods.catalog` (the Sub-Document) whose fields `periods.unit`
 * (DAY, WEEK, MONTH, YEAR) and `periods.count` give its length; the first day (today) is
 * written at `from` and the last at `until`.
 */
export interface WorkflowValidity {
  period: string;
  periods: { catalog: string; unit: string; count: string };
  from: string;
  until: string;
}

/**
 * The action a workflow declares under this name. A name comes from a request, and the actions
 * are a plain object: `constructor` or `toString` would otherwise find what every object has.
 */
export function declaredAction(
  workflow: Pick<WorkflowDefinition, 'actions'>,
  name: string,
): WorkflowAction | undefined {
  return Object.hasOwn(workflow.actions, name) ? workflow.actions[name] : undefined;
}
