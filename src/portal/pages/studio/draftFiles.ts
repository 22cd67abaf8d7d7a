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

type Draft = Pick<StudioDraft, 'paths' | 'file'>;

/** The draft's definitions in `folder`, parsed; one that does not parse is left to the checker. */
export function draftDefinitions(draft: Draft, folder: 'catalogs' | 'workflows') {
  return draft.paths
    .filter((path) => new RegExp(`^${folder}/[^/]+\\.json$`).test(path))
    .flatMap((path) => {
      const definition = parseNode(draft.file(path));
      return definition ? [{ path, definition }] : [];
    });
}

/** The draft's catalogues, parsed. */
export const draftCatalogs = (draft: Draft) =>
  draftDefinitions(draft, 'catalogs').map((c) => c.definition as CatalogDefinition);

/** Catalogues as choices, by English title. */
export const catalogOptions = (catalogs: CatalogDefinition[]) =>
  catalogs
    .map((c) => ({ value: c.id, label: c.labels.en?.title ?? c.id }))
    .sort((a, b) => a.label.localeCompare(b.label));
