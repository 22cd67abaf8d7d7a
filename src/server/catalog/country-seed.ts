import countries from 'i18n-iso-countries';
import { TRANSLATED_LANGUAGES, type Translations } from '../../core/i18n/localized';

/** Longest name the Country catalogue accepts (catalogs/country.json). */
const NAME_MAX = 70;

/** Codes the package lists that ISO 3166-1 does not assign (XK, user-assigned). */
const NOT_ISO_3166 = new Set(['XK']);

/** A seeded country (a type, not an interface: it is a record of fields as it stands). */
type CountrySeedEntry = {
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

/** The Country catalogue's starting entries: every ISO 3166-1 country, from the package. */
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
