import type { CatalogList, CatalogListSource } from '../../core/definitions/types';
import { resolvePointer, setAt } from '../../core/rules/registry';
import type { CatalogReader } from '../catalog/valid-at';
import { copiedTranslations, TRANSLATIONS_FIELD } from '../../core/i18n/localized';

type Item = Record<string, unknown>;

function matches(
  entry: Record<string, unknown>,
  source: CatalogListSource,
  data: Record<string, unknown>,
): boolean {
  for (const [field, match] of Object.entries(source.where ?? {})) {
    const wanted = 'value' in match ? match.value : resolvePointer(data, match.pointer);
    // A pointer to nothing yet (no document chosen) matches no entry, not every entry.
    if (wanted === undefined || wanted === null || wanted === '') return false;
    if (String(entry[field] ?? '') !== String(wanted)) return false;
  }
  return true;
}

/** One list as the catalogues stand at `at`, keeping what the document's own items `keep`. */
export async function catalogListItems(
  catalogs: CatalogReader,
  list: CatalogList,
  data: Record<string, unknown>,
  at: Date,
): Promise<Item[]> {
  const current = resolvePointer(data, list.path);
  const previous = new Map<string, Item>();
  for (const item of Array.isArray(current) ? (current as unknown[]) : []) {
    const key = typeof item === 'object' && item !== null ? (item as Item)[list.key] : undefined;
    if (typeof key === 'string') previous.set(key, item as Item);
  }
  const items: Item[] = [];
  const seen = new Set<string>();
  for (const source of list.sources) {
    const entries = await catalogs.validAt(source.catalog, at);
    for (const { data: entry } of entries) {
      if (!matches(entry, source, data)) continue;
      const item: Item = {};
      for (const [target, field] of Object.entries(source.fields)) {
        // A copy: the entries read are shared (catalog/cache.ts), the document's data is its own.
        if (entry[field] !== undefined) item[target] = structuredClone(entry[field]);
      }
      // A translatable text comes with its translations (check-catalog-fields.ts declares them).
      const translations = copiedTranslations(entry, Object.entries(source.fields));
      if (translations) item[TRANSLATIONS_FIELD] = translations;
      const key = item[list.key];
      if (typeof key !== 'string' || seen.has(key)) continue;
      seen.add(key);
      const kept = previous.get(key);
      for (const field of list.keep)
        if (kept && kept[field] !== undefined) item[field] = kept[field];
      items.push(item);
    }
  }
  if (list.position) items.forEach((item, i) => (item[list.position!] = i + 1));
  return items;
}

/** Rebuilds every catalogue list of the document (the `fillCatalogLists` effect). */
export async function fillCatalogLists(
  catalogs: CatalogReader,
  lists: readonly CatalogList[],
  data: Record<string, unknown>,
  at: Date,
): Promise<void> {
  for (const list of lists)
    setAt(data, list.path, await catalogListItems(catalogs, list, data, at));
}
