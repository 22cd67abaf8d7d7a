/** modules.json and the translations: the portal's modules, and a language's texts. */
import type { TextTree } from '../../i18n/translate';
import { definitionFile, identifier, some, strict, Type, type Static } from './kit';

/**
 * A module of the portal (modules.json): its route prefix, and whether it is on. A workflow
 * belongs to the module whose prefix starts its own; a module switched off has no workflows,
 * routes or menu entries, and the server serves none of its documents.
 */
export const ModuleDefinition = strict({
  $comment: Type.Optional(Type.String()),
  id: identifier,
  /** First segment of every route of the module, e.g. `/visa`. */
  prefix: Type.String({ pattern: '^/[a-z][a-z0-9-]*$' }),
  enabled: Type.Boolean(),
});
export type ModuleDefinition = Omit<Static<typeof ModuleDefinition>, '$comment'>;

export const modulesMetaSchema = definitionFile(
  'modules',
  strict({ modules: some(ModuleDefinition) }),
);

/** A language's texts: nested objects whose leaves are strings. */
export const translationsMetaSchema = Type.Unsafe<TextTree>({
  $id: 'meta/translations',
  type: 'object',
  additionalProperties: { anyOf: [{ type: 'string' }, { $ref: '#' }] },
});
