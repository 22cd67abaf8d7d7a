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
  | 'finalisation';

/** The claims of a person's session a new document may start with (`prefill`). */
export const SESSION_CLAIMS = ['email', 'phoneNumber', 'name', 'locale'] as const;
export type SessionClaim = (typeof SESSION_CLAIMS)[number];

/** A field of the signed-in person's own account (check-prefill.ts) a new document may start with. */
export const ProfileField = strict({ profile: relativePointer });
export type ProfileField = Static<typeof ProfileField>;

/**
 * A link a screen offers: its text (translation key) and the portal route it opens, given
 * (`to`) or read from the document's data (`pointer`: a message's link to what it is about).
 * A link whose data holds no route is not shown.
 */
export const ScreenLink = oneOf(
  strict({ label: textKey, to: Type.String({ pattern: '^/' }) }),
  strict({ label: textKey, pointer: dataPointer }),
);
export type ScreenLink = Static<typeof ScreenLink>;

export const WorkflowScreen = strict({
  /**
   * Route below the workflow's prefix, e.g. `/view/:id`; `:id`, or the key's own name
   * (`:loginIdentifier`) where the document is named by its key.
   */
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
  /**
   * Translation key of the screen's entry in the application menu, for screens that take no
   * document (the visa menu's New); shown to users holding the screen's roles, before the lists.
   */
  menu: Type.Optional(textKey),
  /**
   * The section the screen opens on (verification on the applicant's data, validation on the
   * issuance), or a list of them: the first one shown wins (a sponsor's identity is the
   * organisation's or the person's section, whichever applies); by default the first the user
   * may edit, or, read-only, the first with data.
   */
  open: Type.Optional(oneOf(fieldName, some(fieldName, { uniqueItems: true }))),
  /**
   * Actions whose notes the screen shows at its top, the latest of them from the document's
   * history (the officer's query on the reply-to-query screen); each an action of the workflow
   * that takes notes (check-documents.ts).
   */
  showNotesOf: Type.Optional(some(filled, { uniqueItems: true })),
  /**
   * `false` leaves out the document's workings (information, versions, timeline, history): a
   * person's own profile shows their data, not the record keeping behind it.
   */
  chrome: Type.Optional(Type.Boolean()),
  /**
   * Translation key naming the link to this screen among another screen's next steps (the edit
   * screen's "Edit application"); by default the name of the first action it offers.
   */
  label: Type.Optional(textKey),
  /** Links to other pages of the portal the screen offers (the profile's Change password). */
  links: Type.Optional(Type.Array(ScreenLink)),
  /**
   * An action the screen takes as it opens, when the machine allows it to the caller now: a
   * message becomes READ when its holder opens it. Nothing is asked of the caller.
   */
  fire: Type.Optional(filled),
  /**
   * Panels of a business module shown on the screen below its actions, by the names the
   * module gives them (src/engine/modules-context.ts): a service account's API credentials.
   */
  panels: Type.Optional(
    Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }), { uniqueItems: true }),
  ),
  /**
   * What a new document starts with from the signed-in person's session (the token's claims) or
   * their profile (`{"profile": pointer}`: a field of their own account, the document of the
   * workflow declaring `account`): data pointer -> where from. A self-service application's
   * contact e-mail and mobile number; an invoice's payer, their e-mail and address.
   */
  prefill: Type.Optional(
    record(oneOf(choice(SESSION_CLAIMS), ProfileField), { propertyNames: dataPointer }),
  ),
  /**
   * The documents the screen is for (a service account's API credentials): another screen
   * offers it among its next steps only when the document's data holds this value.
   */
  when: Type.Optional(FieldTest),
});
export type WorkflowScreen = Static<typeof WorkflowScreen>;
