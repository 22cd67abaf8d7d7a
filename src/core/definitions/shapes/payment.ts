/** How a payable document's fees are computed (docs/payments.md, "Declaring the fees"). */
import {
  catalogId,
  currencyCode,
  dataPointer,
  fieldName,
  some,
  someRoles,
  STATUS_PATTERN,
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

/** Who a source's entries charge, by the flags of the entry of another catalogue at `pointer`. */
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
        /** How the line names the person: the first of these groups of fields not all empty. */
        narration: some(some(fieldName)),
      }),
    ),
  ),
});
export type WorkflowFeePayers = Static<typeof WorkflowFeePayers>;

/** One fee catalogue charged to the document: a line per matching entry and payer. */
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
  /**
   * Field of the entry naming the last refund stage (`payment.refunds.stages[].id`) in which its
   * lines are refundable; an entry without a value is not refundable. Absent, every line is
   * refundable in every stage (docs/payments.md, "Withdrawal and refund rules").
   */
  refundableUntil: Type.Optional(fieldName),
});
export type WorkflowFeeSource = Static<typeof WorkflowFeeSource>;

/** A stage of the document's life: the share of the refundable fees given back in it. */
export const WorkflowRefundStage = strict({
  /** The stage's name, which fee entries name (`refundableUntil`); frozen on each line. */
  id: Type.String({ pattern: '^[a-z][a-z0-9-]*$', maxLength: 40 }),
  /** The statuses the stage groups; a status in no stage refunds nothing. */
  statuses: some(Type.String({ pattern: STATUS_PATTERN }), { uniqueItems: true }),
  /** The percentage of each refundable line given back in this stage. */
  percent: Type.Integer({ minimum: 0, maximum: 100 }),
});
export type WorkflowRefundStage = Static<typeof WorkflowRefundStage>;

/**
 * Money given back (docs/payments.md, "Refunds"): who gives it, when a second officer must agree
 * (a refund above `approvalAbove` waits for a holder of an `approvers` role other than its
 * requester), and what a withdrawal gives back, stage by stage ("Withdrawal and refund rules").
 */
export const WorkflowRefunds = strict({
  /** The amount, in the payment's currency, above which a refund needs an approval ("500.00"). */
  approvalAbove: Type.String({ pattern: '^(0|[1-9][0-9]{0,11})\\.[0-9]{2}$' }),
  /** Role suffixes that approve or reject refunds waiting for approval. */
  approvers: someRoles,
  /** Role suffixes that open refunds by hand and record transfers; absent, the approvers'. */
  requesters: Type.Optional(someRoles),
  /**
   * In the order the document goes through them: a fee refundable until one is in the earlier.
   * Absent, a withdrawal refunds nothing.
   */
  stages: Type.Optional(some(WorkflowRefundStage)),
});
export type WorkflowRefunds = Static<typeof WorkflowRefunds>;

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
  /** Refunds of what was paid: the approval threshold, who decides, what a withdrawal gives. */
  refunds: Type.Optional(WorkflowRefunds),
});
export type WorkflowPayment = Static<typeof WorkflowPayment>;
