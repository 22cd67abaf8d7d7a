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

/** Which system action of linked documents' workflows an action fires: on those `added`, `removed`, or `each`; one refusal refuses all. */
export const LinkFiring = strict(
  {
    added: Type.Optional(filled),
    removed: Type.Optional(filled),
    each: Type.Optional(filled),
  },
  { minProperties: 1 },
);

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
});
export type WorkflowAction = Static<typeof WorkflowAction>;
