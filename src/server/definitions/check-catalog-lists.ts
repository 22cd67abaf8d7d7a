import type { CatalogDefinition, EntityDefinition } from '../../core/definitions/types';
import { escapeSegment } from '../../core/rules/registry';
import { itemsAt, propertiesOf, schemaHasField } from './check-records';
import { reporter, said, schemaFile, type SaidProblem } from './problems';

/**
 * A catalogue list (`catalogLists`, src/server/documents/catalog-lists.ts) is rebuilt from
 * catalogue entries on every save: the entries' fields it reads and matches on are the
 * catalogue's, or no entry matches and the list is silently empty; the items' fields it writes
 * (each source's targets, `key`, `keep`, `position`) are the items', or every save is refused by
 * the document's own schema; each source copies the key, or its entries are all left out.
 */
export function checkCatalogLists(
  entity: EntityDefinition,
  catalogs: readonly CatalogDefinition[],
  problems: SaidProblem[],
): void {
  const report = reporter(problems, schemaFile(entity.id));
  (entity.catalogLists ?? []).forEach((list, i) => {
    const at = `/catalogLists/${i}`;
    // A path naming no field is reported by the references' check.
    if (!schemaHasField(entity.schema, list.path)) return;
    const items = itemsAt(entity.schema, list.path);
    if (!items) {
      report(`${at}/path`, said('catalogListNotObjects', { list: list.path }));
      return;
    }
    const written: Array<[pointer: string, field: string]> = [
      [`${at}/key`, list.key],
      ...list.keep.map((field, j): [string, string] => [`${at}/keep/${j}`, field]),
      ...(list.position ? [[`${at}/position`, list.position] as [string, string]] : []),
    ];
    list.sources.forEach((source, j) => {
      const from = `${at}/sources/${j}`;
      for (const target of Object.keys(source.fields))
        written.push([`${from}/fields/${escapeSegment(target)}`, target]);
      if (!Object.hasOwn(source.fields, list.key))
        report(`${from}/fields`, said('sourceCopiesNoKey', { key: list.key }));
      // An unknown catalogue is reported by the references' check.
      const catalog = catalogs.find((candidate) => candidate.id === source.catalog);
      if (!catalog) return;
      const entryFields = propertiesOf(catalog.schema);
      for (const [target, field] of Object.entries(source.fields))
        if (!Object.hasOwn(entryFields, field))
          report(
            `${from}/fields/${escapeSegment(target)}`,
            said('catalogueHasNoField', { catalogue: catalog.id, field }),
          );
      for (const field of Object.keys(source.where ?? {}))
        if (!Object.hasOwn(entryFields, field))
          report(
            `${from}/where/${escapeSegment(field)}`,
            said('catalogueHasNoWhereField', { catalogue: catalog.id, field }),
          );
    });
    for (const [pointer, field] of written)
      if (!schemaHasField(items, `/${field}`))
        report(pointer, said('itemsHaveNoField', { list: list.path, field }));
  });
}
