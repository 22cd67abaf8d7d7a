/**
 * Password rules of a group's policy, checked the same way on the server (on every set) and in
 * the browser (as the person types). Pure: no I/O, no dependencies.
 */
export interface PasswordRules {
  minimumLength?: number;
  maximumLength?: number;
  minimumDigits?: number;
  minimumLowercase?: number;
  minimumUppercase?: number;
  minimumSpecial?: number;
  /** False: the password may not contain the username (case-insensitive). */
  allowUsernameInPassword?: boolean;
}

/** One broken rule; `validation.<rule>` in translations/ is its message, `params` fill it. */
export interface PasswordProblem {
  rule:
    | 'minimumLength'
    | 'maximumLength'
    | 'minimumDigits'
    | 'minimumLowercase'
    | 'minimumUppercase'
    | 'minimumSpecial'
    | 'usernameInPassword';
  params: Record<string, unknown>;
}

const count = (password: string, pattern: RegExp) => (password.match(pattern) ?? []).length;

/** Every rule the password breaks (empty when it is acceptable). Lengths count characters. */
export function checkPassword(
  policy: PasswordRules | undefined,
  password: string,
  username?: string,
): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (!policy) return problems;
  const length = [...password].length;
  const atLeast = (
    rule: PasswordProblem['rule'],
    limit: number | undefined,
    actual: number,
  ): void => {
    if (typeof limit === 'number' && limit > 0 && actual < limit) {
      problems.push({ rule, params: { limit } });
    }
  };
  atLeast('minimumLength', policy.minimumLength, length);
  if (typeof policy.maximumLength === 'number' && policy.maximumLength > 0) {
    if (length > policy.maximumLength) {
      problems.push({ rule: 'maximumLength', params: { limit: policy.maximumLength } });
    }
  }
  atLeast('minimumDigits', policy.minimumDigits, count(password, /\p{Nd}/gu));
  atLeast('minimumLowercase', policy.minimumLowercase, count(password, /\p{Ll}/gu));
  atLeast('minimumUppercase', policy.minimumUppercase, count(password, /\p{Lu}/gu));
  atLeast('minimumSpecial', policy.minimumSpecial, count(password, /[^\p{L}\p{Nd}]/gu));
  if (policy.allowUsernameInPassword === false && username && username.trim() !== '') {
    if (password.toLowerCase().includes(username.trim().toLowerCase())) {
      problems.push({ rule: 'usernameInPassword', params: {} });
    }
  }
  return problems;
}
