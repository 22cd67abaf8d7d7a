import type { Node } from '../../../core/definitions/json';
import type { CatalogDefinition } from '../../../core/definitions/types';
import type { StudioDraft } from './useStudioDraft';

/** A draft file's JSON object (or array), undefined when it is missing or does not parse. */
export function parseNode(text: string | undefined): Node | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return typeof value === 'object' && value !== null ? (value as Node) : undefined;
  } catch {
    return undefined;
  }
}

/** The ids in the draft's paths that `pattern` matches, its first group. */
export const draftIds = (paths: readonly string[], pattern: RegExp) =>
  paths.map((path) => pattern.exec(path)?.[1]).filter((id): id is string => id !== undefined);

/** The draft's catalogues, parsed (a file that does not parse is left to the checker). */
export function draftCatalogs(draft: Pick<StudioDraft, 'paths' | 'file'>): CatalogDefinition[] {
  return draft.paths
    .filter((path) => /^catalogs\/[^/]+\.json$/.test(path))
    .flatMap((path) => {
      const catalog = parseNode(draft.file(path));
      return catalog ? [catalog as CatalogDefinition] : [];
    });
}

/** Catalogues as choices, by English title. */
export const catalogOptions = (catalogs: CatalogDefinition[]) =>
  catalogs
    .map((c) => ({ value: c.id, label: c.labels.en?.title ?? c.id }))
    .sort((a, b) => a.label.localeCompare(b.label));
