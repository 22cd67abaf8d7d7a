import type { EntityDefinition } from './types';

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

type Node = Record<string, unknown>;

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Node)
    : undefined;
}

const isPointer = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('/');

/** The document-choice fields of an entity, walking its schema and uiSchema together. */
export function documentChoiceFieldsOf(entity: EntityDefinition): DocumentChoiceField[] {
  const found: DocumentChoiceField[] = [];
  const visit = (schema: Node | undefined, ui: Node | undefined, segments: string[]) => {
    if (!schema || !ui) return;
    const options = asNode(ui['ui:options']);
    if (
      ui['ui:widget'] === DOCUMENT_CHOICES_WIDGET &&
      typeof options?.document === 'string' &&
      isPointer(options.code)
    ) {
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
      return;
    }
    const properties = asNode(schema.properties);
    if (properties) {
      for (const [key, child] of Object.entries(properties)) {
        visit(asNode(child), asNode(ui[key]), [...segments, key]);
      }
    }
    if (asNode(schema.items)) visit(asNode(schema.items), asNode(ui.items), [...segments, '*']);
  };
  visit(asNode(entity.schema), asNode(entity.uiSchema), []);
  return found;
}
