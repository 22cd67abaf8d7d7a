import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said, type ProblemText } from './problems';

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
    const push = (pointer: string, text: ProblemText) => report(`${at}${pointer}`, text);
    // An unknown catalogue is reported by the references' check.
    const catalog = catalogs.find((c) => c.id === copy.catalog);
    const fields = (catalog?.schema.properties ?? {}) as Record<string, { type?: unknown }>;
    if (catalog && catalog.key.length !== 1)
      push('/catalog', said('copyCatalogueKeyedBySeveral', { catalogue: copy.catalog }));
    const targets: Array<[string, string]> = [
      ...Object.keys(copy.fields).map((p): [string, string] => [`/fields/${p}`, p]),
      ...Object.keys(copy.daysAfter ?? {}).map((p): [string, string] => [`/daysAfter/${p}`, p]),
      ...(copy.number ? [['/number', copy.number] as [string, string]] : []),
    ];
    for (const [pointer, property] of targets)
      if (schema && !schemaHasField(schema, `${copy.to}/${property}`))
        push(pointer, said('noFieldInDocumentSchema', { field: `${copy.to}/${property}` }));
    if (!catalog) return;
    for (const [property, field] of Object.entries(copy.fields))
      if (!Object.hasOwn(fields, field))
        push(
          `/fields/${property}`,
          said('catalogueHasNoField', { catalogue: copy.catalog, field }),
        );
    for (const [property, field] of Object.entries(copy.daysAfter ?? {}))
      if (!NUMBER_TYPES.has(String(fields[field]?.type)))
        push(
          `/daysAfter/${property}`,
          said('catalogueHasNoDaysField', { catalogue: copy.catalog, field }),
        );
  });
}
