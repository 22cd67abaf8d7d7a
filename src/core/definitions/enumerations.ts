import { FILTER_CRITERIA } from '../search/criteria';
import { translate, type Language, type TextTree } from '../i18n/translate';

/** The enumerations of the specification (001, section 9); `value` is what an entry stores. */
export const CHECK_TYPES = ['MANDATORY', 'OPTIONAL', 'PROHIBITED'] as const;
export const ATTRIBUTE_TYPES = ['FREE_TEXT', 'CATALOG'] as const;
/** The `type` field of declarations, questions, requirements, relations and attachments. */
export const DOCUMENT_TYPES = [
  { name: 'DOCUMENT', value: '1' },
  { name: 'SUB_DOCUMENT', value: '2' },
] as const;

export interface EnumerationValue {
  name: string;
  ordinal: number;
  value: string;
  label: string;
}

export interface Enumeration {
  label: string;
  values: EnumerationValue[];
}

export type EnumerationId = 'checkType' | 'attributeType' | 'documentType' | 'filterCriteria';

/** Every enumeration with its values labelled in `language`. */
export function enumerations(
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): Record<EnumerationId, Enumeration> {
  const text = (key: string) => translate(texts, language, key);
  const named = (id: EnumerationId, names: readonly string[]): Enumeration => ({
    label: text(`enumerations.${id}._`),
    values: names.map((name, ordinal) => ({
      name,
      ordinal,
      value: name,
      label: text(`enumerations.${id}.${name}`),
    })),
  });
  return {
    checkType: named('checkType', CHECK_TYPES),
    attributeType: named('attributeType', ATTRIBUTE_TYPES),
    documentType: {
      label: text('enumerations.documentType._'),
      values: DOCUMENT_TYPES.map(({ name, value }) => ({
        name,
        ordinal: Number(value),
        value,
        label: text(`enumerations.documentType.${value}`),
      })),
    },
    filterCriteria: {
      label: text('enumerations.filterCriteria._'),
      values: FILTER_CRITERIA.map((name, ordinal) => ({
        name,
        ordinal,
        value: name,
        label: text(`catalog.criteria.${name}`),
      })),
    },
  };
}

/** The enumeration whose values a field's `enum` lists; undefined for any other list. */
export function enumerationOf(values: readonly unknown[]): EnumerationId | undefined {
  const all = values.map(String);
  if (CHECK_TYPES.every((v) => all.includes(v))) return 'checkType';
  if (ATTRIBUTE_TYPES.every((v) => all.includes(v))) return 'attributeType';
  if (DOCUMENT_TYPES.every((d) => all.includes(d.value))) return 'documentType';
  return undefined;
}

/** The label of one of an enumerated field's values; undefined when it is no enumeration's. */
export function enumerationLabel(
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
  values: readonly unknown[],
  value: string,
): string | undefined {
  const id = enumerationOf(values);
  return id && translate(texts, language, `enumerations.${id}.${value}`);
}
