/** A workflow's action: an event of its machine, who may fire it and what it does. */
import {
  choice,
  dataPointer,
  fieldName,
  filled,
  oneOf,
  roleSuffixes,
  some,
  someRoles,
  strict,
  strings,
  textKey,
  Type,
  type Static,
} from './kit';

/** Sections by id, or "all". */
export const sectionList = oneOf(Type.Literal('all'), Type.Array(fieldName));

/**
 * Which system action of a linked document's workflow an action fires, on which of the linked
 * documents: `added` those the action's data names and the stored version did not (all of them
 * when the document is created), `removed` those the stored version named and the action's data
 * no longer does, `each` every document named once the action is taken. If the machine of any
 * of them refuses, the whole action is refused and nothing changes.
 */
export const LinkFiring = strict(
  {
    added: Type.Optional(filled),
    removed: Type.Optional(filled),
    each: Type.Optional(filled),
  },
  { minProperties: 1 },
);
export type LinkFiring = Static<typeof LinkFiring>;

export const WorkflowAction = strict({
  /** Role suffixes (joined to the workflow's rolePrefix); holding any one allows the action. */
  roles: someRoles,
  /** Only the document's owner may fire it (applicant actions). */
  owner: Type.Optional(Type.Boolean()),
  /** Notes are required (query, reject) or may be given. */
  notes: Type.Optional(choice(['required', 'optional'])),
  /** What the action needs from its caller besides the version read. */
  payload: Type.Optional(choice(['none', 'data', 'assignee'])),
  /**
   * With payload `assignee`: role suffixes of the workflow, one of which the account assigned
   * must hold (the roles of the step that follows: the verification officer's `forward`). The
   * server refuses anyone else, and lists those who hold one (`GET /:type/assignees/:action`);
   * check-roles.ts checks each role is used.
   */
  assignees: Type.Optional(some(roleSuffixes.items, { uniqueItems: true })),
  /** Sections the action may change when its payload is data: ids, or "all"; default: every non-officer section. */
  editable: Type.Optional(sectionList),
  /** Named effects run in the action's transaction, in order (see the effect registry). */
  effects: Type.Optional(strings),
  /**
   * Effects run before the machine decides, on the data the action brings, because a guard
   * reads what they compute (freezeFees: whether a fee is due decides SUBMITTED or SUBMITTED
   * FOR VERIFICATION).
   */
  before: Type.Optional(strings),
  /** Validate the whole document (every section and rule) before the action is taken. */
  validate: Type.Optional(Type.Boolean()),
  /** Translation key of the success message. */
  success: Type.Optional(textKey),
  /**
   * The person stays on the screen after the action even when it moved the document on, to
   * take the next one there (verify, then forward): the success message and the actions now
   * allowed, instead of the view under a confirmation.
   */
  stay: Type.Optional(Type.Boolean()),
  /**
   * Fired only by the server itself (a payment the gateway confirmed): the API refuses it from
   * any caller, and it is never among a document's allowed actions.
   */
  system: Type.Optional(Type.Boolean()),
  /**
   * Pointers into the data that must hold a value once the action's payload is merged (an
   * issue needs its issuance details): a missing one is a 400 naming the field.
   */
  requires: Type.Optional(Type.Array(dataPointer)),
  /**
   * A destructive action (cancel, delete, reset to defaults): its button is danger-coloured and
   * it is taken only after the user confirms it in a dialog.
   */
  danger: Type.Optional(Type.Boolean()),
  /**
   * How the action's button stands among the screen's others: `primary` the step most people
   * take there (filled), `secondary` one taken less often (plain, beside it). Unset: filled,
   * as before; a `danger` action is always drawn as destructive. `primary` also marks the step
   * the workflow expects next (submit, pay, reply, verify...): among a document's next steps,
   * the screen offering it is the filled button, first, the others secondary.
   */
  emphasis: Type.Optional(choice(['primary', 'secondary'])),
  /**
   * The document is made or changed for someone else (an officer or agent at the counter for
   * a sponsor): the request names that person by `owner`, their sign-in name, and they own the
   * document from then on. Required when the action creates the document, optional otherwise.
   */
  onBehalf: Type.Optional(Type.Boolean()),
  /**
   * A pointer to a flag an officer sets (the query's "changes required"): while it is true,
   * the action refuses the owner's data unchanged from the stored version (400 `noChanges`).
   */
  mustChange: Type.Optional(dataPointer),
  /**
   * System actions this action fires, in its transaction, on the documents the workflow's
   * `links` name (an invoice verified settles every application it pays): see LinkFiring.
   */
  fires: Type.Optional(LinkFiring),
});
export type WorkflowAction = Static<typeof WorkflowAction>;
export type ActionPayload = NonNullable<WorkflowAction['payload']>;
