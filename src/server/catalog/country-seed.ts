import countries from 'i18n-iso-countries';
import { TRANSLATED_LANGUAGES, type Translations } from '../../core/i18n/localized';

/** Longest name the Country catalogue accepts (catalogs/country.json). */
const NAME_MAX = 70;

/**
 * Codes the package lists that ISO 3166-1 does not assign: XK (Kosovo) is a user-assigned
 * code, used by some bodies but not part of the standard.
 */
const NOT_ISO_3166 = new Set(['XK']);

/**
 * A seeded country: the key and name the forms show, and the two ISO codes they keep hidden.
 * A type, not an interface, so it is a seed entry (a record of fields) as it stands.
 */
export type CountrySeedEntry = {
  code: string;
  name: string;
  /** ISO 3166-1 alpha-3 (WSM for WS). */
  alpha3Code: string;
  /** ISO 3166-1 numeric, as a number (882 for WS, 4 for AF, whose code is written 004). */
  numericCode: number;
  /** The name in the other languages, from the same package (the Country name is translatable). */
  i18n?: Translations;
};

/** The package's name of a country in each language besides English, where it has one. */
function translatedNames(code: string): Translations | undefined {
  const names: Translations = {};
  for (const language of TRANSLATED_LANGUAGES) {
    const name = countries.getName(code, language, { select: 'official' });
    if (name) names[language] = { name: name.slice(0, NAME_MAX) };
  }
  return Object.keys(names).length > 0 ? names : undefined;
}

/**
 * The Country catalogue's starting entries: every ISO 3166-1 country with its alpha-2 code, its
 * official short name in English (and in French, its translation) and its alpha-3 and numeric
 * codes, from the i18n-iso-countries package (so the list follows the package's updates instead
 * of being typed by hand), sorted by code.
 */
export function countrySeedEntries(): CountrySeedEntry[] {
  return Object.keys(countries.getAlpha2Codes())
    .filter((code) => !NOT_ISO_3166.has(code))
    .sort()
    .flatMap((code) => {
      const name = countries.getName(code, 'en', { select: 'official' });
      const alpha3Code = countries.alpha2ToAlpha3(code);
      const numericCode = Number(countries.alpha2ToNumeric(code));
      const i18n = translatedNames(code);
      return name && alpha3Code && numericCode > 0
        ? [{ code, name: name.slice(0, NAME_MAX), alpha3Code, numericCode, ...(i18n && { i18n }) }]
        : [];
    });
}
