// What the catalogue pages' component tests share: the project's files, the portal's texts in
// both languages, a validator that accepts everything, and a laptop's window.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import type { TextTree } from '../../src/core/i18n/translate';
import { changeLanguage, initI18n } from '../../src/portal/i18n';

const root = path.resolve(import.meta.dirname, '../..');

export const readJson = async <T>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

/** The portal's texts in every language, i18next started with them (in English). */
export async function startTexts(
  catalogs: CatalogDefinition[],
): Promise<DefinitionBundle['translations']> {
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const)
    translations[language] = await readJson<TextTree>(`translations/${language}.json`);
  await initI18n({
    modules: [],
    catalogs,
    workflows: [],
    schemas: [],
    translations,
    version: 'test',
  });
  return translations;
}

/**
 * The address of a validator module that accepts everything, written before the file's tests and
 * removed after them: the server's own is tested with the API.
 */
export function acceptingValidator(folder: string): string {
  const dir = path.join(root, 'node_modules/.cache', folder);
  const url = path.join(dir, 'accept.mjs');
  beforeAll(async () => {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(url, 'export default function validate() { return true; }\n');
  });
  afterAll(async () => fs.rm(dir, { recursive: true, force: true }));
  return url;
}

/**
 * A laptop's window for each test: every column shown (columns without a media query are asked
 * about too); English again after each.
 */
export function laptopWindow(): void {
  const matchMedia = window.matchMedia;
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: true,
    })) as typeof window.matchMedia;
  });
  afterEach(async () => {
    window.matchMedia = matchMedia;
    await changeLanguage('en');
  });
}

/** The file Export CSV offers, as text. */
export async function exported(): Promise<string> {
  const created: Blob[] = [];
  const createObjectURL = URL.createObjectURL;
  const revokeObjectURL = URL.revokeObjectURL;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return 'blob:export';
  });
  URL.revokeObjectURL = vi.fn();
  try {
    fireEvent.click(screen.getByRole('button', { name: /^(Export CSV|Exporter en CSV)$/ }));
    await waitFor(() => expect(created).toHaveLength(1));
    return await created[0]!.text();
  } finally {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  }
}
