import { describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { PROJECT_ROOT } from '../../src/server/config';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { checkDefinitions, DefinitionsError } from '../../src/server/definitions/load';
import { documentTypeFiles } from '../../src/core/studio/document-type-design';
import { missingTexts, removeText } from '../../src/core/studio/text-keys';
import { wordProblems } from '../../src/server/definitions/problems';
import { projectCheckerTexts } from '../support/checker-texts';

/**
 * The texts tab offers the texts the real checker reports missing: a new type whose status,
 * list, menu entry and field label lost their texts is read back key by key.
 */
describe('missing texts as the checker reports them', () => {
  it('names every text a new type lacks, with its languages', async () => {
    const files = await readDefinitionFiles(PROJECT_ROOT);
    const reader = { paths: [...files.keys()], file: (path: string) => files.get(path) };
    const generated = documentTypeFiles(
      {
        id: 'appeal',
        titles: { en: 'Appeal', fr: 'Recours' },
        prefix: '/appeal',
        applicantRole: 'submit',
        officerRole: 'process',
      },
      reader,
    );
    const edited = new Map(files);
    for (const [path, text] of Object.entries(generated)) edited.set(path, text);
    const without = (path: string, ...keys: string[]) => {
      let tree = JSON.parse(edited.get(path) ?? '{}') as Record<string, unknown>;
      for (const key of keys) tree = removeText(tree, key);
      edited.set(path, JSON.stringify(tree));
    };
    without('translations/en.json', 'statuses.CLOSED');
    without('translations/fr.json', 'statuses.CLOSED');
    without('translations/fr/appeal.json', 'lists.mine', 'menu.new');
    without('translations/en/appeal.json', 'details.summary');
    const said = await checkDefinitions(edited, serverModules).then(
      () => [],
      (error: unknown) => (error instanceof DefinitionsError ? (error.said ?? []) : []),
    );
    // As Check answers a French analyst: worded in French, with the checker's keys and values.
    const problems = wordProblems(said, projectCheckerTexts(), 'fr', true);
    expect(problems.find((p) => p.message.includes('statuses.CLOSED'))?.message).toMatch(
      /^aucun texte/,
    );
    const missing = missingTexts(problems);
    for (const expected of [
      { key: 'statuses.CLOSED', languages: ['en', 'fr'] },
      { key: 'appeal.lists.mine', languages: ['fr'] },
      { key: 'appeal.menu.new', languages: ['fr'] },
      { key: 'appeal.details.summary', languages: ['en'] },
    ])
      expect(missing).toContainEqual(expected);
  });
});
