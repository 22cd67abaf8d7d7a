import type { DocumentPart, PortalIndex } from '../core/definitions/parts';
import { withDocumentParts } from '../core/definitions/parts';
import type { DefinitionBundle, EntitySection } from '../core/definitions/types';
import type { Language, TextTree } from '../core/i18n/translate';
import { fetchOrLastCopy } from './api';
import { listeners } from './listeners';

/** index.html preloads this very address: keep the two the same. */
export const DEFINITIONS_INDEX_URL = '/api/definitions/index';

/** The address of a document type's part. */
export function documentPartUrl(entityId: string): string {
  return `/api/definitions/documents/${encodeURIComponent(entityId)}`;
}

/** A public definitions file (offline: the cached copy); no header, to match the preload. */
const fetchJson = <T>(url: string): Promise<T | undefined> =>
  fetchOrLastCopy(url, { credentials: 'same-origin' })
    .then((response) => (response.ok ? (response.json() as Promise<T>) : undefined))
    .catch(() => undefined);

/** The index, or undefined when the server cannot be reached and no earlier copy is kept. */
export function fetchDefinitionsIndex(): Promise<PortalIndex | undefined> {
  return fetchJson<PortalIndex>(DEFINITIONS_INDEX_URL);
}

/** The document parts a page needs, fetched when it opens. */
export interface DocumentParts {
  /** The sections of a document type, from the index (before its part arrives). */
  sections(entityId: string): readonly EntitySection[];
  /** Whether the parts of these document types are all here. */
  loaded(entityIds: readonly string[]): boolean;
  /** Fetches the missing ones; rejects when one cannot be had. */
  load(entityIds: readonly string[]): Promise<void>;
}

/** The portal's definitions: the index and the parts fetched so far, as one bundle. */
export interface DefinitionStore extends DocumentParts {
  /** The bundle the pages read (a new object each time a part arrives). */
  current(): DefinitionBundle;
  subscribe(listener: () => void): () => void;
}

/** The definitions of this visit; `onTexts` hears each part's texts before the pages do. */
export function definitionStore(
  index: PortalIndex,
  onTexts: (entityId: string, texts: Record<Language, TextTree>) => void,
): DefinitionStore {
  const parts = new Map<string, DocumentPart>();
  const pending = new Map<string, Promise<void>>();
  const changes = listeners();
  let bundle = withDocumentParts(index, []);

  const loadOne = (id: string): Promise<void> => {
    let loading = pending.get(id);
    if (!loading) {
      loading = fetchJson<DocumentPart>(documentPartUrl(id)).then((part) => {
        if (!part || part.schema.id !== id) {
          pending.delete(id);
          throw new Error(`The definitions of ${id} could not be loaded`);
        }
        parts.set(id, part);
        onTexts(id, part.translations);
        bundle = withDocumentParts(index, [...parts.values()]);
        changes.notify();
      });
      pending.set(id, loading);
    }
    return loading;
  };

  return {
    current: () => bundle,
    subscribe: changes.subscribe,
    sections: (id) => index.documents[id] ?? [],
    loaded: (ids) => ids.every((id) => parts.has(id) || !(id in index.documents)),
    load: async (ids) => {
      await Promise.all(ids.filter((id) => id in index.documents).map(loadOne));
    },
  };
}
