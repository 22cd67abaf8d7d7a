import countries from 'i18n-iso-countries';

/** Longest name the Country catalogue accepts (catalogs/country.json). */
const NAME_MAX = 70;

/**
 * Codes the package lists that ISO 3166-1 does not assign: XK (Kosovo) is a user-assigned
 * code, used by some bodies but not part of the standard.
 */
const NOT_ISO_3166 = new Set(['XK']);

/**
 * The Country catalogue's starting entries: every ISO 3166-1 country with its alpha-2 code and
 * its official English short name, from the i18n-iso-countries package (so the list follows the
 * package's updates instead of being typed by hand), sorted by code.
 */
export function countrySeedEntries(): Array<{ code: string; name: string }> {
  return Object.keys(countries.getAlpha2Codes())
    .filter((code) => !NOT_ISO_3166.has(code))
    .sort()
    .flatMap((code) => {
      const name = countries.getName(code, 'en', { select: 'official' });
      return name ? [{ code, name: name.slice(0, NAME_MAX) }] : [];
    });
}
