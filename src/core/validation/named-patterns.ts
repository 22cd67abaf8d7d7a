/**
 * Patterns the definitions share, by the rule name their message is found under. A field whose
 * schema uses one of these exact patterns gets that rule's message ("Enter a valid mobile
 * number...") rather than the generic "does not have the expected format", on both sides.
 */
export const NAMED_PATTERNS: Readonly<Record<string, string>> = {
  '^\\+?[0-9 ()-]{6,20}$': 'mobileNumber',
};
