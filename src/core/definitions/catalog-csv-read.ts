import { formatNumber } from '../format';
import { TRANSLATIONS_FIELD } from '../i18n/localized';
import { DEFAULT_LANGUAGE, LANGUAGES, translate, type Language } from '../i18n/translate';
import { catalogFieldKinds, currencyOf, systemFieldsOf } from './catalog-entry';
import {
  CATALOG_IMPORT_MAX_ROWS,
  catalogCsvColumns,
  catalogCsvTitle,
  catalogFieldLabel,
  type CatalogCsvColumn,
  type Texts,
} from './catalog-csv';
import { enumerationLabel } from './enumerations';
import type { CatalogDefinition, JsonSchema } from './types';

/** What stops a file from being imported at all, before any row is looked at. */
export type CatalogCsvProblem =
  | { kind: 'unknownColumn'; title: string }
  | { kind: 'repeatedColumn'; title: string }
  | { kind: 'noRows' }
  | { kind: 'tooManyRows'; count: number };

/** A CSV file read as a catalogue's entries: what Import CSV sends, and what it says first. */
export interface CatalogCsvReading {
  /** One entry per row of the file (after its header), in order, as the API takes entries. */
  entries: Array<Record<string, unknown>>;
  /** What stops the import; the entries are not sent while there is any. */
  problems: CatalogCsvProblem[];
  /** Columns holding what only the system writes (a country's ISO codes): left out. */
  ignored: string[];
  /** The catalogue's columns the file lacks: their fields are empty in the entries. */
  missing: CatalogCsvColumn[];
}

/** Reads a CSV table (header first) as a catalogue's entries; a column is known by its title in any language, its label, or its field name. */
export function readCatalogCsv(
  table: ReadonlyArray<readonly string[]>,
  catalog: CatalogDefinition,
  texts: Texts,
  language: Language,
): CatalogCsvReading {
  const [header = [], ...rows] = table;
  const known = headerNames(catalog, texts, language);
  const problems: CatalogCsvProblem[] = [];
  const ignored: string[] = [];
  const taken = new Set<string>();
  const columns = header.map((title, index) => {
    const name = normalized(index === 0 ? title.replace(/^\ufeff/, '') : title);
    const found = known.get(name);
    if (found === undefined) {
      if (name !== '') problems.push({ kind: 'unknownColumn', title: title.trim() });
    } else if (found === 'system') ignored.push(title.trim());
    else if (taken.has(columnId(found)))
      problems.push({ kind: 'repeatedColumn', title: title.trim() });
    else {
      taken.add(columnId(found));
      return found;
    }
    return undefined;
  });
  const filled = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (filled.length === 0) problems.push({ kind: 'noRows' });
  if (filled.length > CATALOG_IMPORT_MAX_ROWS)
    problems.push({ kind: 'tooManyRows', count: filled.length });
  const entries = filled.map((row) => {
    const entry: Record<string, unknown> = {};
    columns.forEach((column, index) => {
      const text = row[index] ?? '';
      if (!column || text.trim() === '') return;
      if (column.language && column.language !== DEFAULT_LANGUAGE) {
        const translations = (entry[TRANSLATIONS_FIELD] ??= {}) as Record<string, object>;
        const own = (translations[column.language] ??= {}) as Record<string, string>;
        own[column.field] = text;
      } else entry[column.field] = readCatalogValue(catalog, column.field, text, texts, language);
    });
    return entry;
  });
  const missing = catalogCsvColumns(catalog).filter((column) => !taken.has(columnId(column)));
  return { entries, problems, ignored, missing };
}

/** A cell's value as the entry holds it, read as the export writes it in any language; what cannot be read is sent as written, for the server to refuse. */
export function readCatalogValue(
  catalog: CatalogDefinition,
  field: string,
  text: string,
  texts: Texts,
  language: Language,
): unknown {
  const value = text.trim();
  const property = ((catalog.schema.properties ?? {}) as Record<string, JsonSchema>)[field];
  const choices = Array.isArray(property?.enum) ? property.enum : undefined;
  if (choices) {
    const chosen = choices.find(
      (choice) =>
        sameWords(String(choice), value) ||
        LANGUAGES.some((code) =>
          sameWords(enumerationLabel(texts, code, choices, String(choice)) ?? '', value),
        ),
    );
    return chosen ?? text;
  }
  const readers: Record<string, () => unknown> = {
    boolean: () => readFlag(value, texts),
    number: () => readDecimal(value, currencyOf(catalog, field), language),
    datetime: () => readDateTime(value),
    date: () => readDate(value),
  };
  return readers[catalogFieldKinds(catalog)[field] ?? '']?.() ?? text;
}

function readFlag(value: string, texts: Texts): boolean | undefined {
  for (const [flag, key] of [
    [true, 'catalog.yes'],
    [false, 'catalog.no'],
  ] as const) {
    if (sameWords(value, String(flag))) return flag;
    if (LANGUAGES.some((code) => sameWords(value, translate(texts, code, key)))) return flag;
  }
  return undefined;
}

/** An amount: the currency's code before it (English: "NZD 1,250.00") or after it (French: "1 250,00 NZD"), or a plain decimal. */
export function readDecimal(
  value: string,
  currency: string | undefined,
  language: Language,
): number | undefined {
  // Spaces group digits (French writes a narrow no-break one, which \s includes).
  let body = value.replace(/\s/g, '');
  let decimalComma = formatNumber(1.5, language).includes(',');
  if (currency) {
    const upper = body.toUpperCase();
    if (upper.startsWith(currency)) {
      body = body.slice(currency.length);
      decimalComma = false;
    } else if (upper.endsWith(currency)) {
      body = body.slice(0, -currency.length);
      decimalComma = true;
    }
  }
  let plain: string | undefined;
  if (/^-?\d+$/.test(body)) plain = body;
  else if (/^-?(\d{1,3}(,\d{3})+|\d+)\.\d+$/.test(body)) plain = body.replaceAll(',', '');
  else if (/^-?\d{1,3}(,\d{3})+$/.test(body))
    plain = decimalComma ? body.replace(',', '.') : body.replaceAll(',', '');
  else if (/^-?(\d{1,3}(\.\d{3})+|\d+),\d+$/.test(body))
    plain = body.replaceAll('.', '').replace(',', '.');
  if (plain === undefined) return undefined;
  const number = Number(plain);
  return Number.isFinite(number) ? number : undefined;
}

/** DD/MM/YYYY HH:mm:ss (seconds or the whole time optional) in local time, or ISO 8601. */
export function readDateTime(value: string): string | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(
    value,
  );
  if (match) {
    const [day, month, year, hours = 0, minutes = 0, seconds = 0] = match
      .slice(1)
      .map((part) => (part === undefined ? undefined : Number(part))) as number[];
    const date = new Date(year!, month! - 1, day, hours, minutes, seconds);
    // 31/02 or 25:00 would roll over into the next month or day: not a date and time.
    const same =
      date.getDate() === day &&
      date.getMonth() === month! - 1 &&
      date.getHours() === hours &&
      date.getMinutes() === minutes &&
      date.getSeconds() === seconds;
    return same ? date.toISOString() : undefined;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)))
    return new Date(value).toISOString();
  return undefined;
}

/** DD/MM/YYYY, or YYYY-MM-DD as stored. */
function readDate(value: string): string | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!match) return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
  const [, day, month, year] = match as unknown as [string, string, string, string];
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** Every name a column may be given, normalized, the page's language first so it wins a clash. */
function headerNames(
  catalog: CatalogDefinition,
  texts: Texts,
  language: Language,
): Map<string, CatalogCsvColumn | 'system'> {
  const names = new Map<string, CatalogCsvColumn | 'system'>();
  const add = (name: string, target: CatalogCsvColumn | 'system') => {
    const key = normalized(name);
    if (!names.has(key)) names.set(key, target);
  };
  const columns = catalogCsvColumns(catalog);
  const english = columns.filter((c) => !c.language || c.language === DEFAULT_LANGUAGE);
  const system = systemFieldsOf(catalog);
  const languages = [language, ...LANGUAGES.filter((code) => code !== language)];
  for (const code of languages)
    for (const column of columns) add(catalogCsvTitle(catalog, column, texts, code), column);
  for (const code of languages) {
    for (const column of english)
      add(catalogFieldLabel(catalog, column.field, texts, code), column);
    for (const field of system) add(catalogFieldLabel(catalog, field, texts, code), 'system');
  }
  for (const column of columns) {
    if (english.includes(column)) add(column.field, column);
    if (column.language) add(`${column.field} (${column.language})`, column);
  }
  for (const field of system) add(field, 'system');
  return names;
}

function columnId(column: CatalogCsvColumn): string {
  return `${column.field} ${column.language ?? ''}`;
}

function normalized(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function sameWords(a: string, b: string): boolean {
  return a !== '' && normalized(a) === normalized(b);
}
