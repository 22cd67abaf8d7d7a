import type { ColumnType, Generated } from 'kysely';

/** Rows as Kysely sees them; one interface per table, kept beside the migrations. */
export interface CatalogEntryTable {
  id: Generated<string>;
  catalog: string;
  entry_key: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  start_time: ColumnType<Date, string, string>;
  end_time: ColumnType<Date | null, string | null, string | null>;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string;
  updated_at: Generated<Date>;
  updated_by: string;
}

export interface Database {
  catalog_entry: CatalogEntryTable;
}
