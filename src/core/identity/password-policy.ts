/** The rules of a policy that ask for a number (of characters, digits...), in the order listed. */
export const COUNTED_RULES = [
  'minimumLength',
  'maximumLength',
  'minimumDigits',
  'minimumLowercase',
  'minimumUppercase',
  'minimumSpecial',
] as const;
type CountedRule = (typeof COUNTED_RULES)[number];

/**
 * Password rules of a group's policy, checked the same way on the server (on every set) and in
 * the browser (as the person types). Pure: no I/O, no dependencies.
 */
export type PasswordRules = Partial<Record<CountedRule, number>> & {
  /** False: the password may not contain the username (case-insensitive). */
  allowUsernameInPassword?: boolean;
};

/** One broken rule; `validation.<rule>` in translations/ is its message, `params` fill it. */
export interface PasswordProblem {
  rule: CountedRule | 'usernameInPassword';
  params: Record<string, unknown>;
}

const count = (password: string, pattern: RegExp) => (password.match(pattern) ?? []).length;

/** Every rule the password breaks (empty when it is acceptable). Lengths count characters. */
export function checkPassword(
  policy: PasswordRules | undefined,
  password: string,
  username?: string,
): PasswordProblem[] {
  if (!policy) return [];
  const length = [...password].length;
  const actual: Record<CountedRule, number> = {
    minimumLength: length,
    maximumLength: length,
    minimumDigits: count(password, /\p{Nd}/gu),
    minimumLowercase: count(password, /\p{Ll}/gu),
    minimumUppercase: count(password, /\p{Lu}/gu),
    minimumSpecial: count(password, /[^\p{L}\p{Nd}]/gu),
  };
  const name = username?.trim().toLowerCase();
  return policyRules(policy).flatMap(([rule, limit]): PasswordProblem[] => {
    if (rule === 'usernameInPassword')
      return name && password.toLowerCase().includes(name) ? [{ rule, params: {} }] : [];
    const broken = rule === 'maximumLength' ? actual[rule] > limit : actual[rule] < limit;
    return broken ? [{ rule, params: { limit } }] : [];
  });
}

/** The rules a policy sets, with the number each one asks for (0 for the username's). */
export function policyRules(
  rules: PasswordRules | undefined,
): Array<[PasswordProblem['rule'], number]> {
  if (!rules) return [];
  const listed = COUNTED_RULES.flatMap((rule): Array<[CountedRule, number]> => {
    const limit = rules[rule];
    return typeof limit === 'number' && limit > 0 ? [[rule, limit]] : [];
  });
  return rules.allowUsernameInPassword === false ? [...listed, ['usernameInPassword', 0]] : listed;
}
