import { isNode as isObject } from '../../core/definitions/json';
import type { CatalogDefinition, EntityDefinition } from '../../core/definitions/types';
import { lookup, type Language, type TextTree } from '../../core/i18n/translate';
import { ruleName } from '../../core/validation/field-errors';
import { escapeSegment as escape } from '../../core/rules/registry';
import { catalogFile, problemOf, said, schemaFile, type SaidProblem } from './problems';

/**
 * Every rule a schema can fail by has a `validation.<rule>` text in every language, or the raw key
 * would show beside the real errors: the schema is refused at the keyword.
 */

/**
 * Keywords failing with an error of their own; `if` is never shown (field-errors.ts), and
 * `properties`, `items`, `allOf`, `then`, `else` fail by what they hold.
 */
export const REPORTING_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'additionalItems',
  'maxItems',
  'minItems',
  'uniqueItems',
  'contains',
  'maxProperties',
  'minProperties',
  'required',
  'additionalProperties',
  'dependencies',
  'propertyNames',
  'anyOf',
  'oneOf',
  'not',
]);

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const ONE_SCHEMA = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const ADDITIONAL = ['additionalProperties', 'additionalItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];

/** A rule a schema may fail by, where it is in the file, and the text it is shown with. */
export interface RuleText {
  pointer: string;
  rule: string;
}

/**
 * Whether a keyword reports an error of its own: `additionalProperties` (and `additionalItems`)
 * only when `false`, a schema there failing with its own keywords; `uniqueItems` only when true.
 */
function failsOnItsOwn(keyword: string, value: unknown): boolean {
  if (ADDITIONAL.includes(keyword)) return value === false;
  if (keyword === 'uniqueItems') return value === true;
  return true;
}

/** Every rule `schema` (at `pointer` in its file) can fail by, each at its keyword. */
export function rulesOfSchema(schema: unknown, pointer: string): RuleText[] {
  if (schema === false) return [{ pointer, rule: ruleName('false schema', {}) }];
  if (!isObject(schema)) return [];
  const found: RuleText[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    const at = `${pointer}/${escape(keyword)}`;
    if (REPORTING_KEYWORDS.has(keyword) && failsOnItsOwn(keyword, value))
      found.push({ pointer: at, rule: ruleName(keyword, { format: value, pattern: value }) });
    // `additionalProperties: false` fails as itself (above), not as a `false` schema.
    if (ONE_SCHEMA.includes(keyword) && !(ADDITIONAL.includes(keyword) && value === false))
      found.push(...rulesOfSchema(value, at));
    if ((SCHEMA_LISTS.includes(keyword) || keyword === 'items') && Array.isArray(value))
      value.forEach((item, i) => found.push(...rulesOfSchema(item, `${at}/${i}`)));
    else if (keyword === 'items') found.push(...rulesOfSchema(value, at));
    if ((SCHEMA_MAPS.includes(keyword) || keyword === 'dependencies') && isObject(value))
      for (const [name, item] of Object.entries(value))
        if (!Array.isArray(item)) found.push(...rulesOfSchema(item, `${at}/${escape(name)}`));
  }
  return found;
}

/**
 * Refuses each rule of the entities' and catalogues' schemas, and each named rule of an entity
 * without a `message` of its own, that has no `validation.<rule>` text in a language.
 */
export function checkRuleTexts(
  entities: readonly EntityDefinition[],
  catalogs: readonly CatalogDefinition[],
  translations: Partial<Record<Language, TextTree>>,
  problems: SaidProblem[],
): void {
  const inFile = (file: string, uses: RuleText[]) => uses.map((use) => ({ ...use, file }));
  const uses = [
    ...entities.flatMap((entity) =>
      inFile(schemaFile(entity.id), [
        ...rulesOfSchema(entity.schema, '/schema'),
        ...(entity.rules ?? []).flatMap((use, i) =>
          use.message ? [] : [{ pointer: `/rules/${i}/rule`, rule: use.rule }],
        ),
      ]),
    ),
    ...catalogs.flatMap((c) => inFile(catalogFile(c.id), rulesOfSchema(c.schema, '/schema'))),
  ];
  for (const [language, tree] of Object.entries(translations) as Array<[Language, TextTree]>)
    for (const { file, pointer, rule } of uses)
      if (lookup(tree, `validation.${rule}`) === undefined)
        problems.push(problemOf(file, pointer, said('noRuleText', { rule, language })));
}
