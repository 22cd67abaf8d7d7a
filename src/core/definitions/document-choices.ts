import type { EntityDefinition } from './types';
import { asNode } from './json';
import { walkUi } from './ui-walk';

/** A field whose values name existing documents of another type (`ui:widget: documentChoices`). */
export interface DocumentChoiceField {
  /** Where the values are: pointer segments, `*` for every item of an array. */
  segments: string[];
  /** An array of choices (the last segment is then its `*`). */
  many: boolean;
  document: string;
  code: string;
  label?: string;
  /** The refusal's message, a `validation.*` key (`ui:options.unknownMessage`), `{{code}}` filled. */
  unknownMessage: string;
}

export const DOCUMENT_CHOICES_WIDGET = 'documentChoices';
export const UNKNOWN_DOCUMENT_CHOICE = 'validation.unknownDocumentChoice';

const isPointer = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('/');

/** The document-choice fields of an entity, walking its schema and uiSchema together. */
export function documentChoiceFieldsOf(entity: EntityDefinition): DocumentChoiceField[] {
  const found: DocumentChoiceField[] = [];
  walkUi(entity.schema, entity.uiSchema, (schema, ui, segments) => {
    const options = asNode(ui['ui:options']);
    if (
      ui['ui:widget'] !== DOCUMENT_CHOICES_WIDGET ||
      typeof options?.document !== 'string' ||
      !isPointer(options.code)
    )
      return false;
    found.push({
      segments: schema.type === 'array' ? [...segments, '*'] : segments,
      many: schema.type === 'array',
      document: options.document,
      code: options.code,
      ...(isPointer(options.label) ? { label: options.label } : {}),
      unknownMessage:
        typeof options.unknownMessage === 'string'
          ? options.unknownMessage
          : UNKNOWN_DOCUMENT_CHOICE,
    });
    return true;
  });
  return found;
}
