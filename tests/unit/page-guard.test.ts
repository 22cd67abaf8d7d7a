import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadVocabulary,
  textProblems,
  type PageText,
  type PageVocabulary,
} from '../support/page-guard';

/**
 * The persona walk's check of what a page shows (tests/support/page-guard.ts), on texts as a
 * page gives them: a French page showing the English of reference data that has a French text
 * fails, wherever it shows it (a catalogue's own table cells included), however the portal
 * writes it; an entry with the same name in both languages, a part marked English and the same
 * text on an English page do not.
 */
let vocabulary: PageVocabulary;
beforeAll(() => {
  vocabulary = loadVocabulary();
});

const shown = (text: string, more: Partial<PageText> = {}): PageText => ({
  text,
  where: 'p',
  inDataCell: false,
  lang: '',
  ...more,
});

const problemsOn = (texts: PageText[], language: 'en' | 'fr', cellsAreData = false): string[] =>
  textProblems(texts, vocabulary, { language, cellsAreData });

describe('the page guard on catalogue texts', () => {
  it('knows the seed’s English texts that have French ones, and the countries’', () => {
    for (const english of [
      'Work visa',
      'Have you ever been convicted of a criminal offence in any country?',
      'Copy of the passport photo page',
      'Application fee',
      'Passport',
      'Germany',
    ])
      expect(vocabulary.catalogueTexts.has(english), english).toBe(true);
    // The same in both languages: no sign of English.
    for (const same of ['Samoa', 'Visas', 'France'])
      expect(vocabulary.catalogueTexts.has(same), same).toBe(false);
  });

  it('fails a French page on an entry’s English, alone or as the portal writes it', () => {
    const texts = [
      shown('Work visa'),
      shown('WRK - Work visa'),
      shown('Issue fee (Lani Tui)'),
      shown('Germany (DE)'),
      shown('Have you ever been convicted of a criminal offence in any country?'),
    ];
    expect(problemsOn(texts, 'fr')).toEqual([
      'English catalogue text "Work visa" on a French page at p',
      'English catalogue text "Issue fee" on a French page at p',
      'English catalogue text "Germany" on a French page at p',
      'English catalogue text "Have you ever been convicted of a criminal offence in any country?" on a French page at p',
    ]);
    expect(problemsOn(texts, 'en')).toEqual([]);
  });

  it('looks in a catalogue’s table cells and in a select’s chosen entry too', () => {
    expect(
      problemsOn([shown('Visitor visa', { inDataCell: true, where: 'td' })], 'fr', true),
    ).toEqual(['English catalogue text "Visitor visa" on a French page at td']);
    expect(
      problemsOn([shown('VIS - Visitor visa', { inInput: true, where: 'input[value]' })], 'fr'),
    ).toEqual(['English catalogue text "Visitor visa" on a French page at input[value]']);
  });

  it('passes French, a text marked English, and what a person typed that is no entry', () => {
    expect(
      problemsOn(
        [
          shown('WRK - Visa de travail'),
          shown('Visa de visiteur', { inDataCell: true }),
          shown('Work visa', { lang: 'en' }),
          // A person's own words in a text box are theirs: only reference data is looked for.
          shown('Port Town', { inInput: true }),
          shown('Human resources manager', { inInput: true }),
          shown('Cancel', { inInput: true }),
        ],
        'fr',
      ),
    ).toEqual([]);
  });
});
