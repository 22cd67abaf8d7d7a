/**
 * Cuts the definitions bundle into what the portal fetches (core/definitions/parts.ts): the
 * index every page needs and one part per document type.
 */
import {
  NAVIGATION_TEXTS,
  type DocumentPart,
  type PortalIndex,
} from '../../core/definitions/parts';
import type { DefinitionBundle } from '../../core/definitions/types';
import type { Language, TextTree } from '../../core/i18n/translate';
import { sectionsOf } from '../../core/rules/sections';

/** Drops `$comment` keys at any depth: notes for the definitions' authors, never read by pages. */
function withoutComments<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutComments) as T;
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key !== '$comment') result[key] = withoutComments(item);
  }
  return result as T;
}

function pick(tree: TextTree, keys: readonly string[]): TextTree {
  const picked: TextTree = {};
  for (const key of keys) if (tree[key] !== undefined) picked[key] = tree[key];
  return picked;
}

function languagesOf(bundle: DefinitionBundle): Language[] {
  return Object.keys(bundle.translations) as Language[];
}

/**
 * Texts only the server reads: the definitions checker's (translations/<language>/checker.json),
 * worded on the server for the analyst who asked; no page of the portal needs them.
 */
const SERVER_TEXTS = new Set(['checker']);

/** The index of a bundle: everything but the entities, their own texts and the server's. */
export function portalIndex(bundle: DefinitionBundle): PortalIndex {
  const entities = new Set(bundle.schemas.map((schema) => schema.id));
  const translations = {} as Record<Language, TextTree>;
  for (const language of languagesOf(bundle)) {
    const shared: TextTree = {};
    for (const [key, value] of Object.entries(bundle.translations[language])) {
      if (SERVER_TEXTS.has(key)) continue;
      shared[key] =
        entities.has(key) && typeof value === 'object' ? pick(value, NAVIGATION_TEXTS) : value;
    }
    translations[language] = shared;
  }
  return {
    version: bundle.version,
    modules: bundle.modules,
    catalogs: withoutComments(bundle.catalogs),
    workflows: withoutComments(bundle.workflows),
    documents: Object.fromEntries(bundle.schemas.map((schema) => [schema.id, sectionsOf(schema)])),
    translations,
  };
}

/** One document type's part, or undefined when the bundle has no such entity. */
export function documentPart(bundle: DefinitionBundle, id: string): DocumentPart | undefined {
  const schema = bundle.schemas.find((candidate) => candidate.id === id);
  if (!schema) return undefined;
  const translations = {} as Record<Language, TextTree>;
  for (const language of languagesOf(bundle)) {
    const own = bundle.translations[language][id];
    translations[language] = typeof own === 'object' ? own : {};
  }
  return { schema, translations };
}
