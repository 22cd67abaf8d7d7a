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

/** The public check of an issued document (`POST /api/evisa/verification`). */
export const WorkflowVerification = strict({
  /** Statuses in which the document counts as issued; in any other it is "not verified". */
  statuses: some(Type.String(), { uniqueItems: true }),
  /** Fields of the data, any one of which the caller must give (passport number, birth date...). */
  secondFactors: some(dataPointer, { uniqueItems: true }),
  /** First day of validity, when the document has one. */
  validFrom: Type.Optional(dataPointer),
  /** Last day of validity (inclusive), when the document has one. */
  validUntil: Type.Optional(dataPointer),
  /** Where the number checked is in the data, when not the document's own (`/header/reference`). */
  number: Type.Optional(dataPointer),
});
export type WorkflowVerification = Static<typeof WorkflowVerification>;

/** The validity a grant gives (`setValidity`), its length from a `periods` catalogue entry. */
export const WorkflowValidity = strict({
  period: dataPointer,
  periods: strict({ catalog: catalogId, unit: filled, count: filled }),
  from: dataPointer,
  until: dataPointer,
});

const money = Type.Optional(choice(['money']));

/** A column of a certificate's table: its heading (a text key) and the item's property. */
export const CertificateColumn = strict({
  label: textKey,
  pointer: relativePointer,
  format: money,
});
export type CertificateColumn = Static<typeof CertificateColumn>;

/** One line of a certificate; a field without a value is left off unless `empty` names a text. */
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
  /** For an object printed over several lines (an address): the pointers of its parts. */
  lines: Type.Optional(some(relativePointer)),
  /** On a holder's certificate, the pointer inside their item printed instead of `pointer`. */
  holder: Type.Optional(relativePointer),
});
export type CertificateField = Static<typeof CertificateField>;

/** People besides the holder who each get a certificate (a dependant's e-visa; docs/visa.md). */
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
  /** Translation key of a holder's download button (default `certificate.downloadHolder`). */
  download: Type.Optional(textKey),
});
export type CertificateHolders = Static<typeof CertificateHolders>;

/** The issued document as a PDF (`GET /:type/:id/certificate`), with a QR code to check it. */
export const WorkflowCertificate = strict({
  statuses: some(Type.String()),
  roles: someRoles,
  /** Translation key of the title printed at the top (e.g. Electronic visa). */
  title: textKey,
  /** ISO 4217 code printed with the fields formatted as `money`. */
  currency: Type.Optional(currencyCode),
  /** Translation key of the download button (default `certificate.download`). */
  download: Type.Optional(textKey),
  fields: some(CertificateField),
  /** People of a list of the document who each get a certificate of their own. */
  holders: Type.Optional(CertificateHolders),
});
export type WorkflowCertificate = Static<typeof WorkflowCertificate>;
