/** Named validation rules referenced from entity definitions, run by browser and server alike. */

/** One use of a rule in a definition: its name, where it applies, and its parameters. */
export interface RuleUse {
  rule: string;
  /** JSON pointer of the value the rule checks (e.g. `/characterQuestions`). */
  path: string;
  /** Translation key of the message; defaults to `validation.<rule>`. */
  message?: string;
  /** Decided by the server alone: the browser skips it. */
  server?: boolean;
  [param: string]: unknown;
}

/** A rule's verdict on one place: where, which rule, the message key and its parameters. */
export interface RuleProblem {
  path: string;
  rule: string;
  message: string;
  params: Record<string, unknown>;
}

/** A synchronous rule: pure, runs identically in the browser and on the server. */
export type RuleCheck = (value: unknown, use: RuleUse, document: unknown) => boolean;
