/** Requests for information: what an officer asks the owner for, item by item (docs/workflows.md). */
import {
  catalogId,
  fieldName,
  filled,
  record,
  scalar,
  some,
  strict,
  Type,
  type Static,
} from './kit';

/** A catalogue an officer may choose requested items from. */
/** A value a field must hold, or the values it may hold. */
type Scalar = string | number | boolean;

export const WorkflowRequestCatalog = strict({
  catalog: catalogId,
  /** Only the entries whose fields hold these values (or one of these) are offered and accepted. */
  where: Type.Optional(
    record(Type.Unsafe<Scalar | Scalar[]>({ anyOf: [scalar, some(scalar)] }), {
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    }),
  ),
  /** The field the item names an entry by; `code` unless said. */
  code: Type.Optional(fieldName),
});
export type WorkflowRequestCatalog = Static<typeof WorkflowRequestCatalog>;

/**
 * A request round: an `open` action (a query) asks for items, each a catalogue entry or a free
 * text, to be answered by a text or a file by a due date; an `answer` action closes the round
 * once every mandatory item is answered, a `save` action keeps answers without closing it.
 */
export const WorkflowRequests = strict({
  /** Actions opening a round; they all lead to the status the round waits in. */
  open: some(filled, { uniqueItems: true }),
  /** Actions answering the round, from the status it waits in; they close it. */
  answer: some(filled, { uniqueItems: true }),
  /** Actions saving answers without closing the round (they stay in its status). */
  save: Type.Optional(some(filled, { uniqueItems: true })),
  /** Catalogues items may be chosen from, besides free text. */
  catalogs: Type.Optional(some(WorkflowRequestCatalog)),
  /** Days from the opening to the due date an item is given unless the officer says. */
  dueDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
});
export type WorkflowRequests = Static<typeof WorkflowRequests>;
