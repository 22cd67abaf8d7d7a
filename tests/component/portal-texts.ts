import fs from 'node:fs/promises';
import path from 'node:path';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { TextTree } from '../../src/core/i18n/translate';
import { initI18n } from '../../src/portal/i18n';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the portal's i18next with the project's texts in both languages: translations/<lang>.json
 * and, under their namespaces as the server loads them, the namespace files named.
 */
export async function initPortalTexts(namespaces: readonly string[] = []): Promise<void> {
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const) {
    const read = async (file: string) =>
      JSON.parse(await fs.readFile(path.join(root, 'translations', file), 'utf8')) as TextTree;
    translations[language] = await read(`${language}.json`);
    for (const namespace of namespaces)
      translations[language][namespace] = await read(`${language}/${namespace}.json`);
  }
  await initI18n({
    modules: [],
    catalogs: [],
    workflows: [],
    schemas: [],
    translations,
    version: 'test',
  });
}
