/** A workflow's action: an event of its machine, who may fire it and what it does. */
import {
  choice,
  currencyCode,
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

/** Which system action of linked documents' workflows an action fires: on those `added`, `removed`, or `each`; one refusal refuses all. */
export const LinkFiring = strict(
  {
    added: Type.Optional(filled),
    removed: Type.Optional(filled),
    each: Type.Optional(filled),
  },
  { minProperties: 1 },
);

/**
 * A payment received outside the gateway (a bank transfer) reconciled as the action is taken:
 * the officer records the amount received and the bank's reference; an exact amount lets the
 * action go on, a shortfall takes the `short` action instead (nothing settled, the payer told
 * the difference in their language), an excess goes on and opens a refund of it.
 */
export const ActionReconcile = strict({
  /** Where the amount due is (a decimal string written by the server). */
  due: dataPointer,
  /** Where the officer records the amount received (a decimal string); required to act. */
  received: dataPointer,
  /** Where the officer records the bank's reference of the transfer; required to act. */
  reference: dataPointer,
  /** ISO 4217 code of the amounts. */
  currency: currencyCode,
  /** The action taken instead when less was received: it asks the payer for the difference. */
  short: filled,
  /** Translation key of the note the `short` action writes: {{missing}}, {{received}}, {{due}}. */
  note: textKey,
  /** The payment method the payment report counts these payments under (`invoice`). */
  method: fieldName,
});
export type ActionReconcile = Static<typeof ActionReconcile>;

export const WorkflowAction = strict({
  /** Role suffixes (joined to the workflow's rolePrefix); holding any one allows the action. */
  roles: someRoles,
  /** Only the document's owner may fire it (applicant actions). */
  owner: Type.Optional(Type.Boolean()),
  /** Notes are required (query, reject) or may be given. */
  notes: Type.Optional(choice(['required', 'optional'])),
  /** What the action needs from its caller besides the version read. */
  payload: Type.Optional(choice(['none', 'data', 'assignee'])),
  /** With payload `assignee`: role suffixes one of which the account assigned must hold. */
  assignees: Type.Optional(some(roleSuffixes.items, { uniqueItems: true })),
  /** With payload `assignee`: handing an assigned document to someone else needs notes saying why. */
  reassignReason: Type.Optional(Type.Boolean()),
  /** Sections the action may change when its payload is data: ids, or "all"; default: every non-officer section. */
  editable: Type.Optional(sectionList),
  /** Named effects run in the action's transaction, in order (see the effect registry). */
  effects: Type.Optional(strings),
  /** Effects run before the machine decides, because a guard reads what they compute (freezeFees). */
  before: Type.Optional(strings),
  /** Validate the whole document (every section and rule) before the action is taken. */
  validate: Type.Optional(Type.Boolean()),
  /** Translation key of the success message. */
  success: Type.Optional(textKey),
  /** The person stays on the screen after the action, to take the next one there. */
  stay: Type.Optional(Type.Boolean()),
  /** Fired only by the server itself: the API refuses it from any caller. */
  system: Type.Optional(Type.Boolean()),
  /** Pointers that must hold a value once the payload is merged (a 400 otherwise). */
  requires: Type.Optional(Type.Array(dataPointer)),
  /** A destructive action: a danger-coloured button, taken only once confirmed. */
  danger: Type.Optional(Type.Boolean()),
  /** `primary`: the step most take there, and the next step expected; `secondary`: a plain button. */
  emphasis: Type.Optional(choice(['primary', 'secondary'])),
  /** Made or changed for someone else, named by `owner`; required when the action creates the document. */
  onBehalf: Type.Optional(Type.Boolean()),
  /** A flag an officer sets: while true, the owner's data unchanged is refused (400 `noChanges`). */
  mustChange: Type.Optional(dataPointer),
  /** System actions fired, in the same transaction, on the documents `links` name. */
  fires: Type.Optional(LinkFiring),
  /**
   * Separation of duties: a person who took any of these actions earlier on the same document
   * (its history) may not take this one (403 `SEPARATION_OF_DUTIES`, and it is not offered).
   */
  notBy: Type.Optional(some(filled, { uniqueItems: true })),
  /** Reconciles the amount received by transfer with the amount due before settling. */
  reconcile: Type.Optional(ActionReconcile),
});
export type WorkflowAction = Static<typeof WorkflowAction>;
