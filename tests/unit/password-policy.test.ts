import { describe, expect, it } from 'vitest';
import { checkPassword } from '../../src/core/identity/password-policy';

const rules = (problems: ReturnType<typeof checkPassword>) => problems.map((p) => p.rule);

describe('checkPassword', () => {
  it('accepts anything without a policy or with an empty one', () => {
    expect(checkPassword(undefined, 'x')).toEqual([]);
    expect(checkPassword({}, '')).toEqual([]);
  });

  it('checks the lengths, in characters', () => {
    expect(checkPassword({ minimumLength: 8 }, 'short')).toEqual([
      { rule: 'minimumLength', params: { limit: 8 } },
    ]);
    expect(checkPassword({ minimumLength: 3 }, 'éàü')).toEqual([]);
    expect(checkPassword({ maximumLength: 4 }, 'toolong')).toEqual([
      { rule: 'maximumLength', params: { limit: 4 } },
    ]);
    expect(checkPassword({ maximumLength: 0 }, 'anything at all')).toEqual([]);
  });

  it('counts digits, lowercase, uppercase and special characters', () => {
    const policy = {
      minimumDigits: 2,
      minimumLowercase: 2,
      minimumUppercase: 2,
      minimumSpecial: 2,
    };
    expect(rules(checkPassword(policy, 'aB1!'))).toEqual([
      'minimumDigits',
      'minimumLowercase',
      'minimumUppercase',
      'minimumSpecial',
    ]);
    expect(checkPassword(policy, 'abCD12!?')).toEqual([]);
    expect(checkPassword({ minimumSpecial: 1 }, 'with space')).toEqual([]);
    expect(checkPassword({ minimumUppercase: 1, minimumLowercase: 1 }, 'Éé')).toEqual([]);
    expect(checkPassword({ minimumDigits: 3 }, 'a1b2')[0]).toEqual({
      rule: 'minimumDigits',
      params: { limit: 3 },
    });
  });

  it('refuses the username inside the password when the policy says so, ignoring case', () => {
    const policy = { allowUsernameInPassword: false };
    expect(rules(checkPassword(policy, 'xxJohn.Smithyy', 'john.smith'))).toEqual([
      'usernameInPassword',
    ]);
    expect(checkPassword(policy, 'unrelated', 'john.smith')).toEqual([]);
    expect(checkPassword({ allowUsernameInPassword: true }, 'john.smith', 'john.smith')).toEqual(
      [],
    );
    expect(checkPassword({}, 'john.smith', 'john.smith')).toEqual([]);
    expect(checkPassword(policy, 'anything', '')).toEqual([]);
  });

  it('reports every broken rule at once', () => {
    expect(
      rules(
        checkPassword(
          { minimumLength: 12, minimumDigits: 1, allowUsernameInPassword: false },
          'bob',
          'bob',
        ),
      ),
    ).toEqual(['minimumLength', 'minimumDigits', 'usernameInPassword']);
  });
});
