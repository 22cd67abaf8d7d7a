/**
 * How a payable document's fees are computed and where they go: the `freezeFees` effect reads
 * each fee source's catalogue (the entries valid at that moment whose key field holds the
 * document's code and whose conditions are on), writes the lines, currency and total at `fees`;
 * payment orders are made from those frozen lines only. Nothing about fees is known to the code
 * beyond this declaration (docs/payments.md, "Declaring the fees").
 */
import {
  catalogId,
  currencyCode,
  dataPointer,
  fieldName,
  some,
  strict,
  textKey,
  Type,
  type Static,
} from './kit';

/** Boolean fields of the payers' entry that must all be true. */
const feeFlags = {
  flags: some(fieldName, { uniqueItems: true }),
  /** What a flag the entry lacks (or a missing entry) counts as; false unless said. */
  unset: Type.Optional(Type.Boolean()),
};
export const WorkflowFeeFlags = strict(feeFlags);
export type WorkflowFeeFlags = Static<typeof WorkflowFeeFlags>;

/**
 * Who a source's entries charge, by the flags of one entry of another catalogue (the
 * sub-document says whether the applicant, the dependants, the employees pay): the entry whose
 * key is the code at `pointer`.
 */
export const WorkflowFeePayers = strict({
  /** Id of the catalogue holding the flags; its key is a single field. */
  catalog: catalogId,
  /** Data pointer of that entry's key. */
  pointer: dataPointer,
  /** Charged once (the applicant) when these flags are all on. */
  once: Type.Optional(WorkflowFeeFlags),
  /** Charged once per person of a list of the document. */
  people: Type.Optional(
    Type.Array(
      strict({
        /** Data pointer of the array of people (e.g. /dependants). */
        list: dataPointer,
        ...feeFlags,
        /**
         * How the line names the person: the first of these groups of the person's fields whose
         * values are not all empty, joined by a space (e.g. [["givenName", "familyName"], ["name"]]).
         */
        narration: some(some(fieldName)),
      }),
    ),
  ),
});
export type WorkflowFeePayers = Static<typeof WorkflowFeePayers>;

/**
 * One fee catalogue charged to the document: each entry valid at the instant whose `match.field`
 * equals the code at `match.pointer` and whose `when` fields are all true makes one line per
 * payer, of the sum of its `amounts` (a line of zero is left out), named by its `code` and `name`.
 */
export const WorkflowFeeSource = strict({
  /** Id of the fee catalogue (catalogs/<id>.json). */
  catalog: catalogId,
  match: strict({
    /** Field of the fee entry naming what it is charged for (e.g. documentCode). */
    field: fieldName,
    /** Data pointer of the document's code it must equal (e.g. /visa/document). */
    pointer: dataPointer,
  }),
  /** Boolean fields of the entry that must all be true (in force, charged automatically). */
  when: Type.Array(fieldName, { uniqueItems: true }),
  /** Number fields of the entry summed into the line's amount. */
  amounts: some(fieldName, { uniqueItems: true }),
  /** Field of the entry giving the line's code. */
  code: fieldName,
  /** Field of the entry giving the line's name. */
  name: fieldName,
  /** Who each entry charges; absent, it charges once. */
  payers: Type.Optional(WorkflowFeePayers),
});
export type WorkflowFeeSource = Static<typeof WorkflowFeeSource>;

export const WorkflowPayment = strict({
  /** ISO 4217 code of every amount of the fee catalogues (e.g. NZD), frozen with the fees. */
  currency: currencyCode,
  /** Where fee lines come from, in the order the lines are listed. */
  sources: some(WorkflowFeeSource),
  /** Pointer where the frozen fee lines and total are written (an officer section). */
  fees: dataPointer,
  /** Pointer where the order and receipt details are written (an officer section). */
  receipt: dataPointer,
  /** Translation key of the description shown on the gateway's page and the receipt. */
  title: textKey,
});
export type WorkflowPayment = Static<typeof WorkflowPayment>;
