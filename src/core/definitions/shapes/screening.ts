/** Screening a workflow's documents against block catalogues (docs/workflows.md, "Screening"). */
import {
  catalogId,
  dataPointer,
  fieldName,
  filled,
  identifier,
  some,
  strict,
  Type,
  type Static,
} from './kit';

/**
 * One field of a catalogue entry and what of the document it must equal: the value at a data
 * pointer (the passport number the applicant typed), or a fixed value (the workflow's document
 * code). Exactly one of `pointer` and `value` (the checker says so).
 */
export const ScreeningMatch = strict({
  /** Field of the catalogue entry (e.g. passportNumber). */
  field: fieldName,
  /** Data pointer of the document's value it must equal (e.g. /applicant/passportNumber). */
  pointer: Type.Optional(dataPointer),
  /** A fixed value it must equal instead (e.g. a document code the workflow always has). */
  value: Type.Optional(filled),
});
export type ScreeningMatch = Static<typeof ScreeningMatch>;

/** One catalogue screened: an entry valid at the moment whose fields all match is a hit. */
export const ScreeningRule = strict({
  /** Id of the block catalogue (catalogs/<id>.json). */
  catalog: catalogId,
  /** Every field the entry must hold as the document does; a document lacking one is not screened by this rule. */
  match: some(ScreeningMatch),
  /** Boolean fields of the entry that must all be true (the block in force: status). */
  when: Type.Optional(Type.Array(fieldName, { uniqueItems: true })),
});
export type ScreeningRule = Static<typeof ScreeningRule>;

export const WorkflowScreening = strict({
  /** The actions screened: a hit refuses them (submission; again before a grant). */
  on: some(identifier, { uniqueItems: true }),
  /** The catalogues screened and how their entries match the document. */
  rules: some(ScreeningRule),
});
export type WorkflowScreening = Static<typeof WorkflowScreening>;
