import type { CatalogDefinition, EntityDefinition, JsonSchema } from '../../core/definitions/types';
import { TRANSLATED_LANGUAGES, TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import { itemsAt, propertiesOf, schemaAt } from './check-records';
import type { WorkflowScope } from './check-references';
import { reporter, said, schemaFile, type ProblemText, type SaidProblem } from './problems';

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
      said('translationsFieldReserved', { field: TRANSLATIONS_FIELD }),
    );
  for (const [name, property] of Object.entries(properties))
    if (property.readOnly === true && required.has(name))
      report(`/schema/properties/${name}`, said('readOnlyFieldRequired', { field: name }));
  (catalog.translatable ?? []).forEach((field, i) => {
    const why = untranslatable(catalog, field, properties[field]);
    if (why) report(`/translatable/${i}`, why);
  });
  for (const field of Object.keys(catalog.money ?? {})) {
    const property = properties[field];
    if (!property) report(`/money/${field}`, said('notAFieldOfSchema', { field }));
    else if (!typesOf(property).some((type) => type === 'number' || type === 'integer'))
      report(`/money/${field}`, said('moneyNotANumber', { field }));
  }
}

function untranslatable(
  catalog: CatalogDefinition,
  field: string,
  property: JsonSchema | undefined,
): ProblemText | undefined {
  if (!property) return said('notAFieldOfSchema', { field });
  const types = typesOf(property);
  if (types.length !== 1 || types[0] !== 'string' || property.format !== undefined)
    return said('translatableNotAText', { field });
  if (catalog.key.includes(field)) return said('translatableIsKey', { field });
  if (catalog.references?.[field]) return said('translatableIsReference', { field });
  if (Array.isArray(property.enum) || property.const !== undefined)
    return said('translatableIsEnumeration', { field });
  if (property.readOnly === true) return said('translatableIsReadOnly', { field });
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
): ProblemText | undefined {
  const translations = propertiesOf(schema)[TRANSLATIONS_FIELD];
  for (const language of TRANSLATED_LANGUAGES) {
    const text = propertiesOf(propertiesOf(translations)[language])[target];
    if (!text || !typesOf(text).includes('string'))
      return said(of === 'items' ? 'itemsTranslationsUndeclared' : 'copyTranslationsUndeclared', {
        field: target,
        declare: `${TRANSLATIONS_FIELD}/${language}/${target}`,
      });
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
        const problem = undeclared(items, target);
        if (problem) report(`/catalogLists/${i}/sources/${j}/fields/${target}`, problem);
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
    const problem = undeclared(items, 'name');
    if (problem) report(`/payment/sources/${i}/name`, problem);
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
      const problem = undeclared(target, property, 'object');
      if (problem) report(`/fromCatalog/${i}/fields/${property}`, problem);
    }
  });
}
