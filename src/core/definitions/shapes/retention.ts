/** Retention: how long a workflow's closed documents are kept, and what goes then (docs/retention.md). */
import { flagName } from './case-work';
import { choice, dataPointer, oneOf, some, STATUS_PATTERN, strict, Type, type Static } from './kit';

/** A period in whole years, months and days (at least one given), counted in UTC calendar terms. */
export const RetentionPeriod = strict(
  {
    years: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    months: Type.Optional(Type.Integer({ minimum: 0, maximum: 1200 })),
    days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36500 })),
  },
  { minProperties: 1 },
);
export type RetentionPeriod = Static<typeof RetentionPeriod>;

/**
 * Where the period starts: `closed`, when the document entered the status (its history); or a
 * date of its data (a visa's expiry), the entry into the status standing in when the data has none.
 */
export const RetentionStart = oneOf(Type.Literal('closed'), strict({ date: dataPointer }));
export type RetentionStart = Static<typeof RetentionStart>;

/** What a rule does once due: `erase` clears the personal fields and deletes the uploads; `anonymise` only clears. */
export const RETENTION_ACTIONS = ['erase', 'anonymise'] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];

/** Documents in these statuses are kept `keep` from `from`, then erased or anonymised. */
export const RetentionRule = strict({
  statuses: some(Type.String({ pattern: STATUS_PATTERN }), { uniqueItems: true }),
  keep: RetentionPeriod,
  from: RetentionStart,
  /** `erase` unless said. */
  action: Type.Optional(choice(RETENTION_ACTIONS)),
});
export type RetentionRule = Static<typeof RetentionRule>;

export const WorkflowRetention = strict({
  rules: some(RetentionRule),
  /** The personal fields cleared in the data and in every version; whether uploads are deleted. */
  clear: strict({
    personal: some(dataPointer, { uniqueItems: true }),
    uploads: Type.Boolean(),
  }),
  /** Flags of the workflow's `flags` that keep a document whatever its period (a legal hold). */
  holdFlags: Type.Optional(some(flagName, { uniqueItems: true })),
});
export type WorkflowRetention = Static<typeof WorkflowRetention>;
