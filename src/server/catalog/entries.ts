import { sql, type Kysely, type Selectable } from 'kysely';
import {
  catalogFieldKinds,
  entryKey,
  translatableFieldsOf,
  type CatalogEntryRecord,
} from '../../core/definitions/catalog-entry';
import { TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import { DEFAULT_LANGUAGE, type Language } from '../../core/i18n/translate';
import type { CatalogDefinition } from '../../core/definitions/types';
import { normalizePage, type SearchResult } from '../../core/search/protocol';
import type { CatalogEntryTable, Database } from '../db/schema';
import { iso } from '../documents/views';
import { compileSearch, type SearchField } from '../search/compile-search';

/** A catalogue entry as the API returns it. */
export interface CatalogEntry extends CatalogEntryRecord {
  /** When a manager deleted it: only in the list of deleted entries. */
  deletedAt?: string;
}

export type EntryRow = Selectable<CatalogEntryTable>;

/** The entries nobody deleted: what every finder, select, reference and check reads. */
export function liveEntries(db: Kysely<Database>) {
  return db.selectFrom('catalog_entry').where('deleted_at', 'is', null);
}

const CAST: Record<string, string> = {
  number: 'numeric',
  boolean: 'boolean',
  datetime: 'timestamptz',
  date: 'date',
};

/** The searchable fields of a catalogue; a translatable one as its reader reads it. */
function catalogSearchFields(
  catalog: CatalogDefinition,
  language: Language = DEFAULT_LANGUAGE,
): Record<string, SearchField> {
  const fields: Record<string, SearchField> = {};
  const translatable = new Set(language === DEFAULT_LANGUAGE ? [] : translatableFieldsOf(catalog));
  for (const [name, kind] of Object.entries(catalogFieldKinds(catalog))) {
    if (name === 'startTime') fields[name] = { kind, sql: sql.ref('start_time') };
    else if (name === 'endTime') fields[name] = { kind, sql: sql.ref('end_time') };
    else if (translatable.has(name)) {
      const translated = sql`nullif(data->${TRANSLATIONS_FIELD}->${language}->>${name}, '')`;
      fields[name] = { kind, sql: sql`coalesce(${translated}, data->>${name})` };
    } else {
      const text = sql`(data->>${name})`;
      const cast = CAST[kind];
      fields[name] = { kind, sql: cast ? sql`cast(${text} as ${sql.raw(cast)})` : text };
    }
  }
  return fields;
}

export async function searchEntries(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  body: unknown,
  maxItems: number,
  language: Language = DEFAULT_LANGUAGE,
): Promise<SearchResult<CatalogEntry>> {
  const defaultSort = [
    ...catalog.key.map((field) => ({ field, direction: 'asc' as const })),
    { field: 'startTime', direction: 'asc' as const },
  ];
  const search = compileSearch(body, catalogSearchFields(catalog, language), defaultSort);
  const window = normalizePage(search.options, maxItems);
  const base = liveEntries(db).where('catalog', '=', catalog.id).where(search.where);
  const [{ total }] = (await base
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .execute()) as [{ total: string }];
  const rows = await base
    .selectAll()
    .orderBy(search.orderBy)
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  const count = Number(total);
  return {
    items: rows.map(toEntry),
    total: count,
    page: window.page,
    itemsPerPage: window.itemsPerPage,
    capped: window.itemsPerPage === -1 && count > window.limit,
  };
}

export async function readEntry(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
): Promise<CatalogEntry | undefined> {
  const row = await liveEntries(db)
    .selectAll()
    .where('catalog', '=', catalog.id)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toEntry(row);
}

/** Inserts a validated entry; the exclusion constraint refuses an overlapping period. */
export async function insertEntry(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  entry: Record<string, unknown>,
  actor: string,
): Promise<CatalogEntry> {
  const { startTime, endTime, ...data } = entry;
  const row = await db
    .insertInto('catalog_entry')
    .values({
      catalog: catalog.id,
      entry_key: entryKey(catalog, data),
      data: JSON.stringify(data),
      start_time: String(startTime),
      end_time: endTime ? String(endTime) : null,
      created_by: actor,
      updated_by: actor,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toEntry(row);
}

export function toEntry(row: EntryRow): CatalogEntry {
  return {
    id: row.id,
    version: row.version,
    data: {
      ...row.data,
      startTime: iso(row.start_time),
      endTime: row.end_time ? iso(row.end_time) : null,
    },
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
    updatedAt: iso(row.updated_at),
    updatedBy: row.updated_by,
    ...(row.deleted_at ? { deletedAt: iso(row.deleted_at) } : {}),
  };
}

/** PostgreSQL's code for an exclusion-constraint violation (an overlapping period). */
export function isOverlapError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: string }).code === '23P01'
  );
}
