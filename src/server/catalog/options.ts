import { entryHolds, type ValidEntry } from './valid-at';

/** A catalogue entry as a form's select offers it. */
export interface CatalogOption {
  code: string;
  name: string;
}

/** An entry ready to be offered: its option, the same lower-cased for matching, its period. */
export interface OfferedEntry {
  option: CatalogOption;
  code: string;
  name: string;
  entry: ValidEntry;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The entries that can be offered (those with a code), named by their name, else their
 * description, else their code, in the order a select lists them: by name, entries of the
 * same name in key order. Made once per catalogue as kept (catalog/cache.ts).
 */
export function offeredEntries(entries: readonly ValidEntry[]): OfferedEntry[] {
  return entries
    .map((entry) => {
      const code = text(entry.data.code);
      const name = text(entry.data.name) || text(entry.data.description) || code;
      return { option: { code, name }, code: code.toLowerCase(), name: name.toLowerCase(), entry };
    })
    .filter((offered) => offered.option.code !== '')
    .sort((a, b) => a.option.name.localeCompare(b.option.name));
}

/**
 * The options of a select at `at`: the entries valid then whose `fields` hold one of the values
 * asked (a parameter given more than once allows each of its values), whose code or name
 * contains what was typed (`search`, lower-cased); codes starting with it first, each group in
 * the order offered; at most `limit`.
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
  for (const { option, code, name, entry } of offered) {
    if (search !== '' && !code.includes(search) && !name.includes(search)) continue;
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
