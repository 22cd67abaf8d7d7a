import { REFUND_REASONS } from '../../payments/refunds';
/** A decision per person of one document (docs/workflows.md, "A decision per person"). */
import { dataPointer, fieldName, filled, some, strict, Type, type Static } from './kit';

/**
 * The people one document is for (its main person and those of a list), each decided on their
 * own by the actions named: granted with conditions or refused with a reason.
 */
export const WorkflowPersons = strict({
  /** Actions whose request carries a decision for every person (the grant). */
  actions: some(filled, { uniqueItems: true }),
  /** Data pointers of the main person's name parts, joined by a space. */
  main: some(dataPointer),
  /** Data pointer of the list of the other people. */
  list: dataPointer,
  /** Fields of an item of the list naming the person (joined by a space, as fee narrations are). */
  name: some(fieldName),
  /**
   * Data pointer of the decisions: a list, the main person's first, then one per item of `list`
   * in its order, each `{person, outcome: GRANTED | REFUSED, conditions, reason}`.
   */
  decisions: dataPointer,
  /** A refused person's fee lines (named by their narration) are waived and refunded. */
  refund: Type.Optional(
    strict({ reason: Type.Union(REFUND_REASONS.map((reason) => Type.Literal(reason))) }),
  ),
});
export type WorkflowPersons = Static<typeof WorkflowPersons>;
