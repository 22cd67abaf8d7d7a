import type { Kysely } from 'kysely';
import type { EntityDefinition } from '../../core/definitions/types';
import { resolvePointer } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import type { FieldProblem } from '../http/api-error';
import { entriesValidAt } from '../catalog/valid-at';

/**
 * A field the form fills with a catalogue select (`ui:widget: catalog`): the browser offers
 * only entries valid today, so the server accepts only those, the same way, on every action that
 * validates. With `ui:options.match` the entry must also belong to what the document names
 * there (a sub-document of the chosen document).
 */
export interface CatalogField {
  /** Where the field is: pointer segments, `*` for every item of an array. */
  segments: string[];
  catalog: string;
  /** Entry field -> JSON pointer of the document whose value it must equal. */
  match: Array<[string, string]>;
  /** Translation key when the entry exists but does not match (`ui:options.matchMessage`). */
  matchMessage: string;
}

type Node = Record<string, unknown>;

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Node)
    : undefined;
}

const UNKNOWN = 'validation.unknownCatalogEntry';

/** The catalogue fields of an entity, walking its schema and uiSchema together. */
export function catalogFieldsOf(entity: EntityDefinition): CatalogField[] {
  const found: CatalogField[] = [];
  const visit = (schema: Node | undefined, ui: Node | undefined, segments: string[]) => {
    if (!schema || !ui) return;
    const options = asNode(ui['ui:options']);
    if (ui['ui:widget'] === 'catalog' && typeof options?.catalog === 'string') {
      found.push({
        segments,
        catalog: options.catalog,
        match: Object.entries(asNode(options.match) ?? {}).filter(
          (pair): pair is [string, string] => typeof pair[1] === 'string',
        ),
        matchMessage: typeof options.matchMessage === 'string' ? options.matchMessage : UNKNOWN,
      });
      return;
    }
    const properties = asNode(schema.properties);
    if (properties) {
      for (const [key, child] of Object.entries(properties)) {
        visit(asNode(child), asNode(ui[key]), [...segments, key]);
      }
    }
    if (asNode(schema.items)) visit(asNode(schema.items), asNode(ui.items), [...segments, '*']);
  };
  visit(asNode(entity.schema), asNode(entity.uiSchema), []);
  return found;
}

/** The values at a field's place in the document, each with its JSON pointer. */
function valuesAt(
  data: unknown,
  segments: readonly string[],
  pointer = '',
): Array<[string, unknown]> {
  if (segments.length === 0) return [[pointer, data]];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    return Array.isArray(data)
      ? data.flatMap((item, index) => valuesAt(item, rest, `${pointer}/${index}`))
      : [];
  }
  const node = asNode(data);
  return node && head in node ? valuesAt(node[head], rest, `${pointer}/${head}`) : [];
}

/**
 * A problem for each catalogue field whose code names no entry valid at `now`, or an entry that
 * does not match; empty values pass (whether a field is required is the schema's business).
 */
export async function catalogFieldProblems(
  db: Kysely<Database>,
  fields: readonly CatalogField[],
  data: Record<string, unknown>,
  now: Date,
): Promise<FieldProblem[]> {
  const given = fields.flatMap((field) =>
    valuesAt(data, field.segments)
      .filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== '')
      .map(([path, code]) => ({ field, path, code })),
  );
  const entries = new Map<string, Map<string, Record<string, unknown>>>();
  for (const catalog of new Set(given.map((g) => g.field.catalog))) {
    const codes = [...new Set(given.filter((g) => g.field.catalog === catalog).map((g) => g.code))];
    const valid = await entriesValidAt(db, catalog, now, codes);
    entries.set(catalog, new Map(valid.map((entry) => [entry.key, entry.data])));
  }
  const problems: FieldProblem[] = [];
  for (const { field, path, code } of given) {
    const entry = entries.get(field.catalog)?.get(code);
    const message = !entry
      ? UNKNOWN
      : field.match.every(([key, pointer]) => entry[key] === resolvePointer(data, pointer))
        ? undefined
        : field.matchMessage;
    if (message) {
      problems.push({ path, rule: message.replace(/^validation\./, ''), params: { code } });
    }
  }
  return problems;
}
