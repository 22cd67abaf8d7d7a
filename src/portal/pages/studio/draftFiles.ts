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
