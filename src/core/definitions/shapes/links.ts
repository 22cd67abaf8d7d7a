/** What the server writes into a document's data: from linked documents, catalogues, the form. */
import {
  catalogId,
  choice,
  dataPointer,
  documentType,
  fieldName,
  naming,
  oneOf,
  record,
  some,
  strict,
  strings,
  Type,
  type Static,
} from './kit';

/** What a linked document offers to the document naming it (LinkFill values). */
export const LinkValue = choice([
  'type',
  'number',
  'status',
  'ownerName',
  'submittedAt',
  'amountDue',
  'amountPaid',
  'currency',
]);
export type LinkValue = Static<typeof LinkValue>;

/** A value read from a linked document's data: the first of `data`'s sources giving one. */
export const LinkData = strict({
  data: some(Type.String({ pattern: '^(/[A-Za-z0-9_]+)+( (/[A-Za-z0-9_]+)+)*$' })),
});
export type LinkData = Static<typeof LinkData>;

/** Documents this one names by number in a list of its data, filled by the server (docs/payments.md). */
export const WorkflowLinks = strict({
  items: dataPointer,
  number: fieldName,
  types: some(documentType, { uniqueItems: true }),
  /** Item property -> the value of the named document written there. */
  fill: Type.Optional(record(oneOf(LinkValue, LinkData), { propertyNames: fieldName })),
  /** Pointer -> the sum (to the cent) of one value over the named documents. */
  totals: Type.Optional(record(LinkValue, { propertyNames: dataPointer })),
  /** Translation key of the note written in a fired-on document's history, with {{number}}. */
  note: naming('text', { minLength: 1 }),
  /**
   * Also names documents of others whose holder named the caller as their payer (the linked
   * workflow's `payerConsent`, an unrevoked consent); anyone else's is refused with a 403.
   */
  payerConsent: Type.Optional(Type.Boolean()),
});
export type WorkflowLinks = Static<typeof WorkflowLinks>;

/**
 * The holder of a document may name another account as its payer (docs/payments.md, "Paying
 * for others"), and revoke that consent, while the document is in one of `statuses`: before it
 * is paid and while no payer's document holds it.
 */
export const WorkflowPayerConsent = strict({
  statuses: some(Type.String({ pattern: '^[A-Z][A-Z ]*$' }), { uniqueItems: true }),
});
export type WorkflowPayerConsent = Static<typeof WorkflowPayerConsent>;

/** What the form asks the server to compute while it is filled (`POST /:type/derive`). */
export const WorkflowDerive = strict({
  on: some(dataPointer),
  effects: strings,
  fills: some(dataPointer),
});

/** Entry field -> property of the object at `to` (check-catalog-copies.ts). */
const entryFields = record(fieldName, { propertyNames: fieldName });

/** A catalogue entry copied into the document by the `copyFromCatalog` effect (on creation). */
export const WorkflowCatalogCopy = strict({
  catalog: catalogId,
  /** The entry's key (the catalogue is keyed by one field): the entry valid at the copy. */
  code: Type.String({ minLength: 1, maxLength: 100 }),
  /** Data pointer of the object the values are written into. */
  to: dataPointer,
  /** Property of that object -> field of the entry copied into it. */
  fields: entryFields,
  /** Property -> number field of the entry: the date that many days after the copy (a due date). */
  daysAfter: Type.Optional(entryFields),
  /** Property of that object written with the document's own number (the reference to quote). */
  number: Type.Optional(fieldName),
});
export type WorkflowCatalogCopy = Static<typeof WorkflowCatalogCopy>;
