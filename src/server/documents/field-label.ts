import { translate, type Language, type TextTree } from '../../core/i18n/translate';

/** The label of the entity's field at `pointer` (`<entity>.<path>`, or its `._` for a group). */
export function fieldLabel(
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
  entity: string,
  pointer: string,
): string {
  const key = `${entity}${pointer.replaceAll('/', '.')}`;
  for (const candidate of [key, `${key}._`]) {
    const text = translate(texts, language, candidate);
    if (text !== candidate) return text;
  }
  return pointer.split('/').pop() ?? pointer;
}
