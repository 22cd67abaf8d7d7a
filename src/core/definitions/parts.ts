/** The definitions as the portal fetches them: an index, and one part per document type (docs/api.md, "Definitions"). */
import type { Language, TextTree } from '../i18n/translate';
import type { DefinitionBundle, EntityDefinition, EntitySection } from './types';

/**
 * `GET /api/definitions/index`: what every page of the portal needs, the bundle but its schemas.
 * Its `version` is the whole bundle's (a part of another version is not mixed in), its
 * `translations` the shared texts and, of each document, only its `NAVIGATION_TEXTS`.
 */
export interface PortalIndex extends Omit<DefinitionBundle, 'schemas'> {
  /** Each document type that has a part, with its sections in order. */
  documents: Record<string, EntitySection[]>;
}

/** `GET /api/definitions/documents/:id`: one document type's definition and texts. */
export interface DocumentPart {
  schema: EntityDefinition;
  /** The texts under the entity's id, in every language (`translations[lang][id]`). */
  translations: Record<Language, TextTree>;
}

/** Texts of a document type that pages of other modules show; `flags`: officers' list badges. */
export const NAVIGATION_TEXTS = ['_title', 'lists', 'menu', 'screens', 'flags'] as const;

/** The bundle the pages read: the index with the parts fetched so far. */
export function withDocumentParts(
  index: PortalIndex,
  parts: readonly DocumentPart[],
): DefinitionBundle {
  const translations = {} as Record<Language, TextTree>;
  for (const language of Object.keys(index.translations) as Language[]) {
    const merged: TextTree = { ...index.translations[language] };
    for (const part of parts) {
      const own = part.translations[language];
      if (own) merged[part.schema.id] = own;
    }
    translations[language] = merged;
  }
  return {
    version: index.version,
    modules: index.modules,
    catalogs: index.catalogs,
    workflows: index.workflows,
    schemas: parts.map((part) => part.schema),
    translations,
  };
}
