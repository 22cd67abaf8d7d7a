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

/**
 * What a linked document offers to the document naming it (LinkFill values): its type, number,
 * status, owner's name, submission date, and, for a payable one (its workflow's `payment`), the
 * amount its frozen fees come to, the amount paid and their currency.
 */
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

/**
 * A value read from a linked document's data (an application's applicant, whoever owns it):
 * the first of `data`'s sources giving one, a source being a pointer of the linked document's
 * data or several separated by spaces, joined (a person's given and family names). Sources
 * naming fields of different linked types each serve their own (check-links.ts).
 */
export const LinkData = strict({
  data: some(Type.String({ pattern: '^(/[A-Za-z0-9_]+)+( (/[A-Za-z0-9_]+)+)*$' })),
});
export type LinkData = Static<typeof LinkData>;

/**
 * Documents this one names in a list of its data, by number (an invoice's items, each naming a
 * visa or sponsor application): `items` points at the array, `number` is the property of each
 * item holding a document number, of one of `types`. The server fills `fill`'s properties of
 * each item from the document it names and writes each `totals` sum, every time the data is
 * written: what the client sent there is ignored. An item may name only a document its author
 * may see, once. Actions move the named documents through `fires`.
 */
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
});
export type WorkflowLinks = Static<typeof WorkflowLinks>;

/**
 * What the form asks the server to compute while it is filled (`POST /:type/derive`): when a
 * value at one of `on` changes, the named deriving effects run on the form's data (nothing is
 * stored) and the values at `fills` are taken from the answer: the questions and attachments
 * of the chosen document, the fees due. No `effects` when the server only fills what `links`
 * show of the documents named.
 */
export const WorkflowDerive = strict({
  on: some(dataPointer),
  effects: strings,
  fills: some(dataPointer),
});
export type WorkflowDerive = Static<typeof WorkflowDerive>;

/** Entry field -> property of the object at `to` (check-catalog-copies.ts). */
const entryFields = record(fieldName, { propertyNames: fieldName });

/**
 * A catalogue entry copied into the document by the `copyFromCatalog` effect (on creation): the
 * settings the document is issued with, which an administrator changes in the catalogue without
 * a restart while documents already made keep theirs (the bank account an invoice is paid to,
 * and its due date from the entry's payment term).
 */
export const WorkflowCatalogCopy = strict({
  catalog: catalogId,
  /** The entry's key (the catalogue is keyed by one field): the entry valid at the copy. */
  code: Type.String({ minLength: 1, maxLength: 100 }),
  /** Data pointer of the object the values are written into. */
  to: dataPointer,
  /** Property of that object -> field of the entry copied into it. */
  fields: entryFields,
  /**
   * Property of that object -> number field of the entry: the date (YYYY-MM-DD) that many days
   * after the copy (a due date: the creation date plus the payment term).
   */
  daysAfter: Type.Optional(entryFields),
  /** Property of that object written with the document's own number (the reference to quote). */
  number: Type.Optional(fieldName),
});
export type WorkflowCatalogCopy = Static<typeof WorkflowCatalogCopy>;
