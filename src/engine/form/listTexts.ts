import { lookup, translate, type Language } from '../../core/i18n/translate';
import { fieldLabel, type Texts } from './texts';

/** What a list's items and buttons are called, in the reader's language. */
export interface ListTexts {
  /** An item's heading: "Dependant 1". */
  item(number: number): string;
  /** The button adding an item: "Add a dependant". */
  add: string;
  /** The buttons of an item: "Remove dependant 1", "Move up: Dependant 2"... */
  remove(number: number): string;
  moveUp(number: number): string;
  moveDown(number: number): string;
  copy(number: number): string;
}

/**
 * A list's texts (docs/forms.md, "Lists"): its own `_item`, `_add`, `_remove`, else the form's
 * generic ones naming the list, so every item has a heading and every button its own name.
 */
export function listTexts(
  texts: Texts,
  language: Language,
  entityId: string,
  listPath: string,
): ListTexts {
  const own = (name: string) => {
    const key = `${entityId}.${listPath}.${name}`;
    return lookup(texts[language] ?? {}, key) !== undefined || lookup(texts.en ?? {}, key)
      ? key
      : undefined;
  };
  const list = fieldLabel(texts, language, entityId, listPath);
  const itemKey = own('_item');
  const addKey = own('_add');
  const removeKey = own('_remove');
  const item = (number: number) =>
    itemKey
      ? translate(texts, language, itemKey, { number })
      : translate(texts, language, 'form.list.item', { list, number });
  const ofItem = (key: string) => (number: number) =>
    translate(texts, language, key, { item: item(number) });
  return {
    item,
    add: addKey
      ? translate(texts, language, addKey)
      : translate(texts, language, 'form.list.add', { list }),
    remove: removeKey
      ? (number) => translate(texts, language, removeKey, { number })
      : ofItem('form.list.remove'),
    moveUp: ofItem('form.list.moveUp'),
    moveDown: ofItem('form.list.moveDown'),
    copy: ofItem('form.list.copy'),
  };
}

/** A list's text path from an RJSF field path: property names joined by dots, indices left out. */
export function listPathOf(path: ReadonlyArray<string | number>): string {
  return path.filter((segment) => typeof segment === 'string' && !/^\d+$/.test(segment)).join('.');
}
