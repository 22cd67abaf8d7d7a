import type { CatalogDefinition, EntityDefinition, JsonSchema } from '../../core/definitions/types';
import { TRANSLATED_LANGUAGES, TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import { itemsAt, propertiesOf, schemaAt } from './check-records';
import type { WorkflowScope } from './check-references';
import { reporter, schemaFile, type SaidProblem } from './problems';

const typesOf = (property: JsonSchema | undefined): unknown[] =>
  Array.isArray(property?.type) ? property.type : [property?.type];

/**
 * A catalogue's field declarations (docs/catalogues.md): a translatable field is a plain text the
 * entry owns, money is a number, no field is called `i18n`, and a readOnly field is not required.
 */
export function checkCatalogFields(
  file: string,
  catalog: CatalogDefinition,
  problems: SaidProblem[],
): void {
  const report = reporter(problems, file);
  const properties = propertiesOf(catalog.schema);
  const required = new Set(Array.isArray(catalog.schema.required) ? catalog.schema.required : []);
  if (Object.hasOwn(properties, TRANSLATIONS_FIELD))
    report(
      `/schema/properties/${TRANSLATIONS_FIELD}`,
      `"${TRANSLATIONS_FIELD}" is reserved for the entries' translations`,
    );
  for (const [name, property] of Object.entries(properties))
    if (property.readOnly === true && required.has(name))
      report(
        `/schema/properties/${name}`,
        `field "${name}" is written only by the system (readOnly) and cannot be required`,
      );
  (catalog.translatable ?? []).forEach((field, i) => {
    const why = untranslatable(catalog, field, properties[field]);
    if (why) report(`/translatable/${i}`, why);
  });
  for (const field of Object.keys(catalog.money ?? {})) {
    const property = properties[field];
    if (!property) report(`/money/${field}`, `"${field}" is not a field of the schema`);
    else if (!typesOf(property).some((type) => type === 'number' || type === 'integer'))
      report(
        `/money/${field}`,
        `field "${field}" is not a number: only a number is an amount of money`,
      );
  }
}

function untranslatable(
  catalog: CatalogDefinition,
  field: string,
  property: JsonSchema | undefined,
): string | undefined {
  if (!property) return `"${field}" is not a field of the schema`;
  const types = typesOf(property);
  if (types.length !== 1 || types[0] !== 'string' || property.format !== undefined)
    return `field "${field}" is not a text: only a text is given in every language`;
  if (catalog.key.includes(field))
    return `field "${field}" is a key: a code, the same in every language`;
  if (catalog.references?.[field]) return `field "${field}" names another entry by its code`;
  if (Array.isArray(property.enum) || property.const !== undefined)
    return `field "${field}" is an enumeration: its values are codes`;
  if (property.readOnly === true) return `field "${field}" is written only by the system`;
  return undefined;
}

/**
 * Why a list's items (or, `of: 'object'`, the object a copy writes) cannot keep the translations
 * of `target`: every translated language must be declared in its `i18n` with `target` a text, or
 * the copy would be refused as an unknown property (or lost, and the reader would get English).
 */
function undeclared(
  schema: JsonSchema | undefined,
  target: string,
  of: 'items' | 'object' = 'items',
): string | undefined {
  const translations = propertiesOf(schema)[TRANSLATIONS_FIELD];
  const whose = of === 'items' ? "the items'" : "the object's";
  for (const language of TRANSLATED_LANGUAGES) {
    const text = propertiesOf(propertiesOf(translations)[language])[target];
    if (!text || !typesOf(text).includes('string'))
      return `${of === 'items' ? 'the items copy' : 'the copy writes'} "${target}" from a translatable field: declare "${TRANSLATIONS_FIELD}/${language}/${target}" (a string) in ${whose} schema`;
  }
  return undefined;
}

/**
 * A catalogue list (`catalogLists`) copying a translatable field copies its translations too,
 * into the item's `i18n`: the items' schema must declare them.
 */
export function checkCatalogListTranslations(
  entity: EntityDefinition,
  catalogs: readonly CatalogDefinition[],
  problems: SaidProblem[],
): void {
  const report = reporter(problems, schemaFile(entity.id));
  (entity.catalogLists ?? []).forEach((list, i) => {
    const items = itemsAt(entity.schema, list.path);
    list.sources.forEach((source, j) => {
      const translatable = catalogs.find((c) => c.id === source.catalog)?.translatable ?? [];
      for (const [target, field] of Object.entries(source.fields)) {
        if (!translatable.includes(field)) continue;
        const message = undeclared(items, target);
        if (message) report(`/catalogLists/${i}/sources/${j}/fields/${target}`, message);
      }
    });
  });
}

/**
 * A fee source whose name field is translatable freezes the name's translations beside it, on
 * each fee line (`name`): the lines' schema (the `lines` of `payment.fees`) must declare them.
 */
export function checkFeeTranslations({ workflow, entity, catalogs, report }: WorkflowScope): void {
  const payment = workflow.payment;
  if (!payment || !entity) return;
  const items = itemsAt(entity.schema, `${payment.fees}/lines`);
  payment.sources.forEach((source, i) => {
    const translatable = catalogs.find((c) => c.id === source.catalog)?.translatable ?? [];
    if (!translatable.includes(source.name)) return;
    const message = undeclared(items, 'name');
    if (message) report(`/payment/sources/${i}/name`, message);
  });
}

/**
 * A catalogue copy (`fromCatalog`) of a translatable field copies its translations too, into the
 * `i18n` of the object it writes (an invoice's payee): that object's schema must declare them.
 */
export function checkCatalogCopyTranslations(scope: WorkflowScope): void {
  const { workflow, entity, catalogs, report } = scope;
  if (!entity) return;
  (workflow.fromCatalog ?? []).forEach((copy, i) => {
    const translatable = catalogs.find((c) => c.id === copy.catalog)?.translatable ?? [];
    const target = schemaAt(entity.schema, copy.to);
    for (const [property, field] of Object.entries(copy.fields)) {
      if (!translatable.includes(field)) continue;
      const message = undeclared(target, property, 'object');
      if (message) report(`/fromCatalog/${i}/fields/${property}`, message);
    }
  });
}
