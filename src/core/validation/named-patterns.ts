/** Patterns the definitions share, by the rule name their message is found under. */
export const NAMED_PATTERNS: Readonly<Record<string, string>> = {
  '^\\+?[0-9 ()-]{6,20}$': 'mobileNumber',
};
