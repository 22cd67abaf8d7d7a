import type { CatalogDefinition } from '../../../core/definitions/types';
import type { StudioDraft } from './useStudioDraft';

/** The draft's catalogues, parsed (a file that does not parse is left to the checker). */
export function draftCatalogs(draft: Pick<StudioDraft, 'paths' | 'file'>): CatalogDefinition[] {
  return draft.paths
    .filter((path) => /^catalogs\/[^/]+\.json$/.test(path))
    .flatMap((path) => {
      try {
        return [JSON.parse(draft.file(path) ?? '') as CatalogDefinition];
      } catch {
        return [];
      }
    });
}

/** Catalogues as choices, by English title. */
export const catalogOptions = (catalogs: CatalogDefinition[]) =>
  catalogs
    .map((c) => ({ value: c.id, label: c.labels.en?.title ?? c.id }))
    .sort((a, b) => a.label.localeCompare(b.label));
