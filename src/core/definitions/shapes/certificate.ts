/** What an issued document is given: its number, validity, PDF and public check. */
import {
  catalogId,
  choice,
  currencyCode,
  dataPointer,
  fieldName,
  filled,
  relativePointer,
  some,
  someRoles,
  strict,
  textKey,
  Type,
  type Static,
} from './kit';

/** `{prefix}-{year}-{serial}` numbering, from a gap-free sequence per type and year. */
export const Numbering = strict({
  prefix: Type.String({ pattern: '^[A-Z]{1,6}$' }),
  digits: Type.Optional(Type.Integer({ minimum: 3, maximum: 10 })),
});

/**
 * The public check of an electronic document (`POST /api/evisa/verification`): which statuses
 * count as issued, which data fields a caller must know one of, and where the validity period
 * is. Pointers are JSON pointers into the document data.
 */
export const WorkflowVerification = strict({
  /** Statuses in which the document counts as issued; in any other it is "not verified". */
  statuses: some(Type.String(), { uniqueItems: true }),
  /** Fields of the data, any one of which the caller must give (passport number, birth date...). */
  secondFactors: some(dataPointer, { uniqueItems: true }),
  /** First day of validity (a date), when the document has one. */
  validFrom: Type.Optional(dataPointer),
  /** Last day of validity (a date, inclusive), when the document has one. */
  validUntil: Type.Optional(dataPointer),
  /**
   * Where the number checked is in the data, when it is not the document's own number (the
   * sponsorship number a grant gives, at `/header/reference`, rather than the application's).
   * The check finds it through an index made from this declaration.
   */
  number: Type.Optional(dataPointer),
});
export type WorkflowVerification = Static<typeof WorkflowVerification>;

/**
 * The validity a grant gives (`setValidity`): `period` points at the code the officer chose,
 * an entry of the catalogue `periods.catalog` (the Sub-Document) whose fields `periods.unit`
 * (DAY, WEEK, MONTH, YEAR) and `periods.count` give its length; the first day (today) is
 * written at `from` and the last at `until`.
 */
export const WorkflowValidity = strict({
  period: dataPointer,
  periods: strict({ catalog: catalogId, unit: filled, count: filled }),
  from: dataPointer,
  until: dataPointer,
});
export type WorkflowValidity = Static<typeof WorkflowValidity>;

const money = Type.Optional(choice(['money']));

/** A column of a certificate's table: its heading (a text key) and the item's property. */
export const CertificateColumn = strict({
  label: textKey,
  /** Pointer inside each item of the list. */
  pointer: relativePointer,
  format: money,
});
export type CertificateColumn = Static<typeof CertificateColumn>;

/**
 * One line of a certificate: its label (the key of a text, a field's `._` for a group) and the
 * data pointer it prints. A date prints as DD/MM/YYYY, an enumeration value and a
 * catalogue code as their names. A field without a value is left off, unless `empty` names the
 * text to print instead (e.g. "No conditions").
 */
export const CertificateField = strict({
  label: textKey,
  pointer: dataPointer,
  /** `money`: a number printed with two decimals and the certificate's `currency`. */
  format: money,
  /** Translation key of the heading of the section this field opens or continues. */
  section: Type.Optional(textKey),
  /** For a list: the pointer, inside each item, of the text printed for it (one line each). */
  each: Type.Optional(relativePointer),
  /** Translation key of the text printed when the field has no value. */
  empty: Type.Optional(textKey),
  /** For a list printed as a table (an invoice's items): one column per item property. */
  columns: Type.Optional(some(CertificateColumn)),
  /**
   * For an object printed over several lines (an address): the pointers, inside the object at
   * `pointer`, of its parts, each printed on a line of its own when it has a value.
   */
  lines: Type.Optional(some(relativePointer)),
  /**
   * On the certificate of one of the `holders`, the pointer inside that person's item printed
   * instead of `pointer` (their family name where the main holder's is printed; check-holders.ts).
   */
  holder: Type.Optional(relativePointer),
});
export type CertificateField = Static<typeof CertificateField>;

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
export const CertificateHolders = strict({
  /** Data pointer of the list of people (e.g. /dependants). */
  list: dataPointer,
  /** Only the people the payment charges, rather than every item of the list. */
  charged: Type.Optional(Type.Boolean()),
  /** Pointer inside an item where its certificate's number is written. */
  number: relativePointer,
  /** Fields of an item naming the person (joined by a space): the download button's label. */
  name: some(fieldName),
  /** Pointers inside an item, any one of which the public check asks with the number. */
  secondFactors: some(relativePointer, { uniqueItems: true }),
  /** Translation key of a holder's download button (`{{name}}`, `{{number}}`); default `certificate.downloadHolder`. */
  download: Type.Optional(textKey),
});
export type CertificateHolders = Static<typeof CertificateHolders>;

/**
 * The issued document as a PDF (`GET /:type/:id/certificate`): printable in `statuses` by its
 * owner and the holders of `roles`, with a QR code opening the public document check; the
 * `mailCertificate` effect e-mails it to the owner.
 */
export const WorkflowCertificate = strict({
  statuses: some(Type.String()),
  roles: someRoles,
  /** Translation key of the title printed at the top (e.g. Electronic visa). */
  title: textKey,
  /** ISO 4217 code printed with the fields formatted as `money`. */
  currency: Type.Optional(currencyCode),
  /** Translation key of the download button's label (default: `certificate.download`, the e-visa's). */
  download: Type.Optional(textKey),
  fields: some(CertificateField),
  /** People of a list of the document who each get a certificate of their own. */
  holders: Type.Optional(CertificateHolders),
});
export type WorkflowCertificate = Static<typeof WorkflowCertificate>;
