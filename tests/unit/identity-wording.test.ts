import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { failureText } from '../../src/modules/connectid/portal/registrationChecks';

/**
 * The identity and catalogue screens' wording (specification 001, section 8) beside the business
 * screens' (specification 000): the shared `messages.unableToFetch` and `messages.processing`
 * have a `connectid` and a `catalog` context, which i18next picks when a screen names it and
 * falls back from for every other backend.
 */
const texts = (language: string) =>
  JSON.parse(readFileSync(`translations/${language}.json`, 'utf8')) as Record<string, unknown>;

async function translator(language: 'en' | 'fr') {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    resources: { en: { translation: texts('en') }, fr: { translation: texts('fr') } },
    interpolation: { escapeValue: false },
    showSupportNotice: false,
  });
  return instance.t.bind(instance) as (key: string, options?: Record<string, unknown>) => string;
}

describe('identity and catalogue wording', () => {
  it('says the companion document’s texts on identity and catalogue screens, in both languages', async () => {
    const en = await translator('en');
    for (const context of ['connectid', 'catalog']) {
      expect(en('messages.unableToFetch', { context })).toBe(
        'Unable to fetch data, you may be offline or unauthenticated',
      );
      expect(en('messages.processing', { context })).toBe(
        'Your request is processing, please wait and do NOT refresh or navigate away.',
      );
    }
    const fr = await translator('fr');
    expect(fr('messages.processing', { context: 'connectid' })).toMatch(/^Votre demande/);
    expect(fr('messages.unableToFetch', { context: 'catalog' })).toMatch(/^Impossible/);
  });

  it('keeps the business screens’ wording elsewhere', async () => {
    const en = await translator('en');
    expect(en('messages.processing', { context: 'evisa' })).toBe(en('messages.processing'));
    expect(en('messages.unableToFetch')).toBe(
      'Unable to fetch data, you may be offline or not authenticated',
    );
  });

  it('tells an identity page offline in that wording, and otherwise the server’s message', async () => {
    const en = await translator('en');
    expect(failureText({ status: 0, message: 'Failed to fetch' }, en)).toBe(
      'Unable to fetch data, you may be offline or unauthenticated',
    );
    expect(failureText({ status: 404, message: 'This link is no longer valid' }, en)).toBe(
      'This link is no longer valid',
    );
  });
});
