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
  type Value = Omit<EnumerationValue, 'label'>;
  const named = (
    id: EnumerationId,
    values: readonly Value[],
    labelKey = (value: string) => `enumerations.${id}.${value}`,
  ): Enumeration => ({
    label: text(`enumerations.${id}._`),
    values: values.map((value) => ({ ...value, label: text(labelKey(value.value)) })),
  });
  const plain = (names: readonly string[]): Value[] =>
    names.map((name, ordinal) => ({ name, ordinal, value: name }));
  const documentTypes = DOCUMENT_TYPES.map(({ name, value }) => ({
    name,
    ordinal: Number(value),
    value,
  }));
  return {
    checkType: named('checkType', plain(CHECK_TYPES)),
    attributeType: named('attributeType', plain(ATTRIBUTE_TYPES)),
    documentType: named('documentType', documentTypes),
    filterCriteria: named(
      'filterCriteria',
      plain(FILTER_CRITERIA),
      (name) => `catalog.criteria.${name}`,
    ),
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
