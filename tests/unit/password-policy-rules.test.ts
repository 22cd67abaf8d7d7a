import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runRules } from '../../src/core/rules/registry';
import type { RuleUse } from '../../src/core/rules/types';
import type { TextTree } from '../../src/core/i18n/translate';
import { validateSection } from '../../src/engine/form/validation';

/**
 * The password policy's consistency (schemas/password-policy.schema.json `rules`, named rule
 * `notAbove`): the same functions run in the browser as the administrator types and on the
 * server on every create and update.
 */
const uses = (
  JSON.parse(readFileSync('schemas/password-policy.schema.json', 'utf8')) as { rules: RuleUse[] }
).rules;

const rules = {
  minimumLength: 10,
  maximumLength: 20,
  minimumDigits: 1,
  minimumLowercase: 1,
  minimumUppercase: 1,
  minimumSpecial: 1,
  allowUsernameInPassword: false,
  passwordExpiryInDays: 90,
  passwordWarningInDays: 14,
};
const problems = (changes: Partial<typeof rules>) =>
  runRules(uses, { policy: { code: 'P', name: 'P' }, rules: { ...rules, ...changes } }).map(
    (p) => `${p.path} ${p.message}`,
  );

describe('password policy consistency', () => {
  it('accepts a consistent policy, and limits met exactly', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ minimumLength: 20, maximumLength: 20 })).toEqual([]);
    expect(problems({ maximumLength: 8, minimumLength: 8, minimumDigits: 5 })).toEqual([]);
  });

  it('refuses a minimum length above the maximum', () => {
    expect(problems({ minimumLength: 21 })).toEqual([
      '/rules/minimumLength validation.passwordMinimumAboveMaximum',
    ]);
  });

  it('refuses character-class minimums that together exceed the maximum length', () => {
    expect(problems({ minimumLength: 4, maximumLength: 9, minimumSpecial: 7 })).toEqual([
      '/rules/maximumLength validation.passwordClassesAboveMaximum',
    ]);
  });

  it('refuses a warning that is not fewer days than the expiry, unless it never expires', () => {
    expect(problems({ passwordExpiryInDays: 20, passwordWarningInDays: 50 })).toEqual([
      '/rules/passwordWarningInDays validation.passwordWarningNotBeforeExpiry',
    ]);
    expect(problems({ passwordExpiryInDays: 20, passwordWarningInDays: 20 })).toHaveLength(1);
    expect(problems({ passwordExpiryInDays: 0, passwordWarningInDays: 50 })).toEqual([]);
  });

  it('leaves a missing number to the required rule (a half-typed form)', () => {
    expect(runRules(uses, { rules: { minimumLength: 30, passwordWarningInDays: 9 } })).toEqual([]);
  });

  it('is shown under the field as the administrator types: the form checks the section each keystroke', () => {
    const texts = {
      en: JSON.parse(readFileSync('translations/en.json', 'utf8')) as TextTree,
      fr: JSON.parse(readFileSync('translations/fr.json', 'utf8')) as TextTree,
    };
    // What DocumentForm runs per keystroke: the active section alone, its schema and rules.
    const typed = { rules: { ...rules, passwordExpiryInDays: 20, passwordWarningInDays: 50 } };
    expect(validateSection('rules', undefined, uses, typed, texts, 'en')).toEqual([
      {
        path: '/rules/passwordWarningInDays',
        rule: 'notAbove',
        message: 'The expiry warning must come fewer days before expiry than the expiry itself',
      },
    ]);
    expect(
      validateSection(
        'rules',
        undefined,
        uses,
        { rules: { ...rules, minimumLength: 30 } },
        texts,
        'fr',
      ),
    ).toEqual([
      expect.objectContaining({
        path: '/rules/minimumLength',
        message: 'La longueur minimale ne peut pas dépasser la longueur maximale',
      }),
    ]);
  });
});
