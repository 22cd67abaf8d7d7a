/** A workflow's screen: a route showing a document in a mode, with the actions it offers. */
import { sectionList } from './action';
import { FieldTest } from './records';
import {
  choice,
  dataPointer,
  fieldName,
  filled,
  oneOf,
  record,
  relativePointer,
  some,
  someRoles,
  strict,
  strings,
  textKey,
  Type,
  type Static,
} from './kit';

/** The modes the portal knows; the loader takes any name. */
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
  | 'finalisation'
  /** The workflow's refunds waiting for approval (docs/payments.md, "Refunds"); no document. */
  | 'refund-approvals';

/** The claims of a person's session a new document may start with (`prefill`). */
export const SESSION_CLAIMS = ['email', 'phoneNumber', 'name', 'locale'] as const;

/** A field of the signed-in person's own account (check-prefill.ts) a new document may start with. */
export const ProfileField = strict({ profile: relativePointer });

/** A link a screen offers: a route given (`to`) or read from the data (`pointer`); none, no link. */
export const ScreenLink = oneOf(
  strict({ label: textKey, to: Type.String({ pattern: '^/' }) }),
  strict({ label: textKey, pointer: dataPointer }),
);

export const WorkflowScreen = strict({
  /** Route below the workflow's prefix, e.g. `/view/:id` (or the key's name, `:loginIdentifier`). */
  path: Type.String({ pattern: '^(/([a-z0-9-]+|:[A-Za-z][A-Za-z0-9]*))+$' }),
  mode: Type.Unsafe<ScreenMode>(Type.String()),
  /** Role suffixes; holding any one opens the screen. */
  roles: someRoles,
  /** Actions offered as buttons here, when the machine allows them in the current state. */
  actions: Type.Optional(strings),
  /** Sections the user may edit here: their ids, or "all"; others are shown read-only. */
  editable: Type.Optional(sectionList),
  /** Sections not shown here at all. */
  hidden: Type.Optional(Type.Array(fieldName)),
  /** Translation key of the screen's menu entry, for screens that take no document. */
  menu: Type.Optional(textKey),
  /** The section the screen opens on, or a list of them (the first shown wins). */
  open: Type.Optional(oneOf(fieldName, some(fieldName, { uniqueItems: true }))),
  /** Actions whose latest notes the screen shows at its top (the officer's query). */
  showNotesOf: Type.Optional(some(filled, { uniqueItems: true })),
  /** `false` leaves out the document's workings (information, versions, timeline, history). */
  chrome: Type.Optional(Type.Boolean()),
  /** Translation key naming the link to this screen among next steps (default: its first action). */
  label: Type.Optional(textKey),
  /** Links to other pages of the portal the screen offers (the profile's Change password). */
  links: Type.Optional(Type.Array(ScreenLink)),
  /** An action the screen takes as it opens, when allowed (a message becomes READ). */
  fire: Type.Optional(filled),
  /** Panels of a business module shown below the actions (src/engine/modules-context.ts). */
  panels: Type.Optional(
    Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }), { uniqueItems: true }),
  ),
  /** Data pointer -> the session claim or profile field a new document starts with. */
  prefill: Type.Optional(
    record(oneOf(choice(SESSION_CLAIMS), ProfileField), { propertyNames: dataPointer }),
  ),
  /** The documents the screen is for: offered among next steps only when the data holds this. */
  when: Type.Optional(FieldTest),
});
export type WorkflowScreen = Static<typeof WorkflowScreen>;
