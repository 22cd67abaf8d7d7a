import { localizedText } from '../../core/i18n/localized';
import { DEFAULT_LANGUAGE, type Language } from '../../core/i18n/translate';
import { entryHolds, type ValidEntry } from './valid-at';

/** A catalogue entry as a form's select offers it. */
export interface CatalogOption {
  code: string;
  name: string;
}

/** An entry ready to be offered: its option, and lower-cased for matching (English too). */
export interface OfferedEntry {
  option: CatalogOption;
  code: string;
  name: string;
  /** The English name, lower-cased, when the reader's differs. */
  defaultName?: string;
  entry: ValidEntry;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** An entry's name in `language`: its name, else its description, else its code. */
function nameOf(data: Readonly<Record<string, unknown>>, language: Language): string {
  return (
    text(localizedText(data, 'name', language)) ||
    text(localizedText(data, 'description', language)) ||
    text(data.code)
  );
}

/** The entries that can be offered (those with a code), named in `language`, by name. */
export function offeredEntries(
  entries: readonly ValidEntry[],
  language: Language = DEFAULT_LANGUAGE,
): OfferedEntry[] {
  return entries
    .map((entry) => {
      const code = text(entry.data.code);
      const name = nameOf(entry.data, language);
      const defaultName = nameOf(entry.data, DEFAULT_LANGUAGE);
      return {
        option: { code, name },
        code: code.toLowerCase(),
        name: name.toLowerCase(),
        ...(defaultName !== name && { defaultName: defaultName.toLowerCase() }),
        entry,
      };
    })
    .filter((offered) => offered.option.code !== '')
    .sort((a, b) => a.option.name.localeCompare(b.option.name, language));
}

/**
 * The options of a select at `at`: entries valid then whose `fields` hold a value asked, whose
 * code or name contains `search`; codes starting with it first; at most `limit`.
 */
export function chooseOptions(
  offered: readonly OfferedEntry[],
  {
    at,
    search,
    fields,
    limit,
  }: { at: Date; search: string; fields: Readonly<Record<string, unknown>>; limit: number },
): CatalogOption[] {
  const wanted = Object.entries(fields).map(
    ([field, value]) =>
      [field, Array.isArray(value) ? value.map(String) : [String(value)]] as const,
  );
  const first: CatalogOption[] = [];
  const then: CatalogOption[] = [];
  for (const { option, code, name, defaultName, entry } of offered) {
    if (
      search !== '' &&
      !code.includes(search) &&
      !name.includes(search) &&
      !defaultName?.includes(search)
    )
      continue;
    if (!entryHolds(entry, at)) continue;
    if (!wanted.every(([field, values]) => values.includes(String(entry.data[field] ?? ''))))
      continue;
    if (code.startsWith(search)) {
      first.push(option);
      // Nothing after a full first group can make it into the answer.
      if (first.length >= limit) break;
    } else if (then.length < limit) then.push(option);
  }
  return [...first, ...then].slice(0, limit);
}
