import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';

const NUMBER_TYPES = new Set(['integer', 'number']);

/**
 * A workflow's `fromCatalog` copies named fields of one catalogue entry into an object of its
 * document: the catalogue must be keyed by one field, have those fields (the `daysAfter` ones
 * numbers), and the document's schema the properties they are written to.
 */
export function checkCatalogCopies({ workflow, catalogs, entity, report }: WorkflowScope): void {
  const schema = entity?.schema;
  (workflow.fromCatalog ?? []).forEach((copy, i) => {
    const at = `/fromCatalog/${i}`;
    const push = (pointer: string, message: string) => report(`${at}${pointer}`, message);
    // An unknown catalogue is reported by the references' check.
    const catalog = catalogs.find((c) => c.id === copy.catalog);
    const fields = (catalog?.schema.properties ?? {}) as Record<string, { type?: unknown }>;
    if (catalog && catalog.key.length !== 1)
      push(
        '/catalog',
        `catalogue "${copy.catalog}" is keyed by several fields: name one entry by one`,
      );
    const targets: Array<[string, string]> = [
      ...Object.keys(copy.fields).map((p): [string, string] => [`/fields/${p}`, p]),
      ...Object.keys(copy.daysAfter ?? {}).map((p): [string, string] => [`/daysAfter/${p}`, p]),
      ...(copy.number ? [['/number', copy.number] as [string, string]] : []),
    ];
    for (const [pointer, property] of targets)
      if (schema && !schemaHasField(schema, `${copy.to}/${property}`))
        push(pointer, `no field "${copy.to}/${property}" in the document's schema`);
    if (!catalog) return;
    for (const [property, field] of Object.entries(copy.fields))
      if (!Object.hasOwn(fields, field))
        push(`/fields/${property}`, `catalogue "${copy.catalog}" has no field "${field}"`);
    for (const [property, field] of Object.entries(copy.daysAfter ?? {}))
      if (!NUMBER_TYPES.has(String(fields[field]?.type)))
        push(
          `/daysAfter/${property}`,
          `catalogue "${copy.catalog}" has no number field "${field}" to count days by`,
        );
  });
}
