import { describe, expect, it } from 'vitest';
import {
  flattenTexts,
  keyProblem,
  missingTexts,
  removeText,
  renameReferences,
  renameText,
  textHome,
} from '../../src/core/studio/text-keys';

const TREE = {
  $schema: '../../meta/translations.schema.json',
  _title: 'Appeal',
  details: { _: 'Details', summary: 'Summary' },
  lists: { mine: 'My documents' },
};

describe('text keys added, renamed and removed', () => {
  it('refuses a key that is a text, a group, inside a text, or badly written', () => {
    const flat = flattenTexts(TREE);
    expect(keyProblem(flat, 'lists.submitted')).toBeUndefined();
    expect(keyProblem(flat, 'lists.mine')).toBe('exists');
    expect(keyProblem(flat, 'details')).toBe('group');
    expect(keyProblem(flat, 'lists.mine.more')).toBe('underText');
    for (const bad of ['', 'lists..mine', '$schema', 'lists. mine'])
      expect(keyProblem(flat, bad)).toBe('badKey');
  });

  it('removes a text and the groups it leaves empty, keeping the rest', () => {
    expect(removeText(TREE, 'lists.mine')).toEqual({
      $schema: TREE.$schema,
      _title: 'Appeal',
      details: TREE.details,
    });
    expect(removeText(TREE, 'details.summary').details).toEqual({ _: 'Details' });
  });

  it('renames a text within the file', () => {
    const renamed = renameText(TREE, 'lists.mine', 'lists.own');
    expect(flattenTexts(renamed).get('lists.own')).toBe('My documents');
    expect(flattenTexts(renamed).has('lists.mine')).toBe(false);
    expect(renameText(TREE, 'lists.none', 'lists.other')).toBe(TREE);
  });

  it('renames the whole key wherever a definition names it, and only there', () => {
    const workflow = {
      lists: [
        { id: 'mine', label: 'appeal.lists.mine', columns: [{ label: 'appeal.lists.mine' }] },
      ],
      screens: [{ menu: 'appeal.lists.mine.x', label: 'other.lists.mine' }],
    };
    const { renamed, count } = renameReferences(workflow, 'appeal.lists.mine', 'appeal.lists.own');
    expect(count).toBe(2);
    expect(renamed).toEqual({
      lists: [{ id: 'mine', label: 'appeal.lists.own', columns: [{ label: 'appeal.lists.own' }] }],
      screens: [{ menu: 'appeal.lists.mine.x', label: 'other.lists.mine' }],
    });
  });

  it('reads the missing texts from the checker’s problems, each once with its languages', () => {
    const missing = missingTexts([
      {
        file: 'workflows/appeal.json',
        pointer: '/machine/states/CLOSED',
        message: 'no text "statuses.CLOSED" in en',
        key: 'noText',
        params: { key: 'statuses.CLOSED', language: 'en' },
      },
      {
        file: 'workflows/appeal.json',
        pointer: '/machine/states/CLOSED',
        // Worded in French for a French analyst: the key and values say the same.
        message: 'aucun texte « statuses.CLOSED » en fr',
        key: 'noText',
        params: { key: 'statuses.CLOSED', language: 'fr' },
      },
      {
        file: 'workflows/appeal.json',
        pointer: '/lists/0/label',
        message: 'no text "appeal.lists.mine" in fr',
        key: 'noText',
        params: { key: 'appeal.lists.mine', language: 'fr' },
      },
      {
        file: 'translations/en/appeal.json',
        pointer: '/details/note',
        message: 'missing label for details.note',
        key: 'missingLabel',
        params: { path: 'details.note' },
      },
      {
        file: 'translations/fr.json',
        pointer: '/appeal/menu/new',
        message: 'missing text present in en',
        key: 'missingTranslation',
        params: { language: 'en' },
      },
      {
        file: 'schemas/appeal.schema.json',
        pointer: '/schema',
        message:
          'no text for the rule "within" in fr: add "validation.within" to translations/fr.json',
        key: 'noRuleText',
        params: { rule: 'within', language: 'fr' },
      },
      {
        file: 'workflows/appeal.json',
        pointer: '/prefix',
        message: 'something else',
        key: 'prefixTaken',
      },
      // A message reading like a missing text, said by no such key, is none.
      { file: 'workflows/appeal.json', pointer: '/x', message: 'no text "x.y" in en' },
    ]);
    expect(missing).toEqual([
      { key: 'statuses.CLOSED', languages: ['en', 'fr'] },
      { key: 'appeal.lists.mine', languages: ['fr'] },
      { key: 'appeal.details.note', languages: ['en'] },
      { key: 'appeal.menu.new', languages: ['fr'] },
      { key: 'validation.within', languages: ['fr'] },
    ]);
  });

  it('finds a whole key’s file: its namespace’s, or the shared one', () => {
    const namespaces = new Set(['appeal']);
    expect(textHome('appeal.lists.mine', namespaces)).toEqual({
      namespace: 'appeal',
      key: 'lists.mine',
    });
    expect(textHome('statuses.CLOSED', namespaces)).toEqual({
      namespace: '',
      key: 'statuses.CLOSED',
    });
  });
});
