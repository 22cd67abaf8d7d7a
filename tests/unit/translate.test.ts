import { describe, expect, it } from 'vitest';
import { missingKeys, pickLanguage, translate } from '../../src/core/i18n/translate';
import { toFieldErrors } from '../../src/core/validation/field-errors';
import { readProjectJson } from '../support/definitions-dir';
import type { TextTree } from '../../src/core/i18n/translate';

const texts = {
  en: {
    greet: 'Hello {{name}}',
    onlyEn: 'English',
    validation: { maxLength: 'At most {{limit}}' },
  },
  fr: { greet: 'Bonjour {{name}}', validation: { maxLength: 'Au plus {{limit}}' } },
};

describe('translate', () => {
  it('fills placeholders in the chosen language', () => {
    expect(translate(texts, 'fr', 'greet', { name: 'Ana' })).toBe('Bonjour Ana');
  });
  it('falls back to English, then to the key', () => {
    expect(translate(texts, 'fr', 'onlyEn')).toBe('English');
    expect(translate(texts, 'fr', 'nowhere.at.all')).toBe('nowhere.at.all');
  });
  it('picks the language from locale, then Accept-Language, else English', () => {
    expect(pickLanguage('fr', 'en')).toBe('fr');
    expect(pickLanguage(undefined, 'de-DE,fr-CA;q=0.8')).toBe('fr');
    expect(pickLanguage('de', 'es')).toBe('en');
  });
  it('chooses field messages by rule name, never Ajv English', () => {
    const errors = [
      { instancePath: '/code', keyword: 'maxLength', params: { limit: 2 } },
      { instancePath: '', keyword: 'required', params: { missingProperty: 'name' } },
    ];
    expect(toFieldErrors(errors, texts, 'fr')).toEqual([
      { path: '/code', rule: 'maxLength', message: 'Au plus 2' },
      { path: '/name', rule: 'required', message: 'validation.required' },
    ]);
  });
  it('keeps the English and French translation files complete', async () => {
    const en = await readProjectJson<TextTree>('translations/en.json');
    const fr = await readProjectJson<TextTree>('translations/fr.json');
    expect(missingKeys(en, fr)).toEqual([]);
    expect(missingKeys(fr, en)).toEqual([]);
  });
});
