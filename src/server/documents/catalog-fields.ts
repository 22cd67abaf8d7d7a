import { UNKNOWN_CATALOG_ENTRY, type CatalogField } from '../../core/definitions/catalog-fields';
import { resolvePointer } from '../../core/rules/registry';
import { isNode } from '../../core/definitions/json';
import type { FieldProblem } from '../http/api-error';
import type { CatalogReader } from '../catalog/valid-at';

// The server's half of core/definitions/catalog-fields.ts: codes name entries valid now.

/**
 * The codes (non-empty texts) at a field's place in the document, each with its JSON pointer;
 * with `many`, a list of choices reports at the field, not at each item: the widget is the field.
 */
export function codesAt(
  data: unknown,
  segments: readonly string[],
  many = false,
  pointer = '',
): Array<[string, string]> {
  if (segments.length === 0)
    return typeof data === 'string' && data !== '' ? [[pointer, data]] : [];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (!Array.isArray(data)) return [];
    const last = many && rest.length === 0;
    return data.flatMap((item, index) =>
      codesAt(item, rest, many, last ? pointer : `${pointer}/${index}`),
    );
  }
  if (!isNode(data) || !(head in data)) return [];
  return codesAt(data[head], rest, many, `${pointer}/${head}`);
}

/** A problem for each catalogue field naming no matching entry valid at `now`; empty passes. */
export async function catalogFieldProblems(
  catalogs: CatalogReader,
  fields: readonly CatalogField[],
  data: Record<string, unknown>,
  now: Date,
): Promise<FieldProblem[]> {
  const given = fields.flatMap((field) =>
    codesAt(data, field.segments).map(([path, code]) => ({ field, path, code })),
  );
  const entries = new Map<string, Map<string, Record<string, unknown>>>();
  for (const catalog of new Set(given.map((g) => g.field.catalog))) {
    const codes = [...new Set(given.filter((g) => g.field.catalog === catalog).map((g) => g.code))];
    const valid = await catalogs.validAt(catalog, now, codes);
    entries.set(catalog, new Map(valid.map((entry) => [entry.key, entry.data])));
  }
  const problems: FieldProblem[] = [];
  for (const { field, path, code } of given) {
    const entry = entries.get(field.catalog)?.get(code);
    const message = !entry
      ? UNKNOWN_CATALOG_ENTRY
      : field.match.every(([key, pointer]) => entry[key] === resolvePointer(data, pointer)) &&
          field.allowed.every(([key, values]) => values.includes(String(entry[key] ?? '')))
        ? undefined
        : field.matchMessage;
    if (message) {
      problems.push({ path, rule: message.replace(/^validation\./, ''), params: { code } });
    }
  }
  return problems;
}
