/**
 * Named validation rules referenced from entity definitions (`rules` in schemas/<id>.schema.json).
 * They cover what JSON Schema says awkwardly or not at all; both the browser and the server run
 * them, from the same registry in src/core/rules, so the browser's pass is never trusted alone.
 */

/** One use of a rule in a definition: its name, where it applies, and its parameters. */
export interface RuleUse {
  rule: string;
  /** JSON pointer of the value the rule checks (e.g. `/characterQuestions`). */
  path: string;
  /** Translation key of the message; defaults to `validation.<rule>`. */
  message?: string;
  /**
   * Decided by the server alone (it needs data the browser does not have, e.g. whether a
   * sponsorship is granted): the browser skips it and shows the server's answer.
   */
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
