import { serverModules } from '../../src/modules/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import { loadDefinitions, type DefinitionProblem } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson, refusalOf } from '../support/definitions-dir';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

async function problemsWith(file: string, content: unknown): Promise<DefinitionProblem[]> {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  await copy.write(file, content);
  return refusalOf(copy.dir);
}

const country = () => readProjectJson<CatalogDefinition>('catalogs/country.json');

describe('loading definitions', () => {
  it('accepts the project definitions', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const bundle = await loadDefinitions(copy.dir, serverModules);
    expect(bundle.catalogs.map((c) => c.id)).toContain('country');
    expect(bundle.translations.fr.validation).toBeDefined();
    expect(bundle.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('leaves out the workflows of a module switched off in modules.json', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const modules = await readProjectJson<{ modules: Array<{ id: string; enabled: boolean }> }>(
      'modules.json',
    );
    const on = await loadDefinitions(copy.dir, serverModules);
    expect(on.workflows.map((w) => w.id)).toContain('account');
    await copy.write('modules.json', {
      modules: modules.modules.map((m) => ({ ...m, enabled: m.id !== 'connectid' })),
    });
    const off = await loadDefinitions(copy.dir, serverModules);
    expect(off.workflows.filter((w) => w.prefix.startsWith('/connectid/'))).toEqual([]);
    expect(off.modules.find((m) => m.id === 'connectid')?.enabled).toBe(false);
  });

  it('refuses a workflow under no module, and a module declared twice', async () => {
    const modules = await readProjectJson<{ modules: Array<{ id: string; prefix: string }> }>(
      'modules.json',
    );
    const problems = await problemsWith('modules.json', {
      modules: [
        ...modules.modules.filter((m) => m.id !== 'connectid'),
        { id: 'visa', prefix: '/visa2', enabled: true },
      ],
    });
    expect(problems).toContainEqual(
      expect.objectContaining({ file: 'workflows/account.json', pointer: '/prefix' }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ file: 'modules.json', message: expect.stringMatching(/repeats/) }),
    );
  });

  it('names the file and position of a file that is not JSON', async () => {
    const problems = await problemsWith('catalogs/country.json', '{ "id": "country", ');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'catalogs/country.json', pointer: '' });
    expect(problems[0]?.message).toMatch(/not valid JSON/);
  });

  it('names the JSON pointer of a field that breaks the meta-schema', async () => {
    const broken = await country();
    (broken as unknown as Record<string, unknown>).searcherRoles = 42;
    delete (broken.labels.fr as Partial<CatalogDefinition['labels']['fr']>).title;
    const problems = await problemsWith('catalogs/country.json', broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'catalogs/country.json', pointer: '/searcherRoles' }),
        expect.objectContaining({ file: 'catalogs/country.json', pointer: '/labels/fr/title' }),
      ]),
    );
  });

  it('refuses a key field that is not a field and a schema Ajv refuses', async () => {
    const broken = await country();
    broken.key = ['iso'];
    (broken.schema.properties as Record<string, unknown>).name = {
      type: 'string',
      maxLength: 'seventy',
    };
    const pointers = (await problemsWith('catalogs/country.json', broken)).map((p) => p.pointer);
    expect(pointers).toEqual(['/key/0', '/schema/properties/name/maxLength']);
  });

  it('refuses a reference to a catalogue that does not exist', async () => {
    const broken = await country();
    broken.references = { code: { catalog: 'planet' } };
    const problems = await problemsWith('catalogs/country.json', broken);
    expect(problems).toEqual([
      {
        file: 'catalogs/country.json',
        pointer: '/references/code/catalog',
        message: 'no catalogue "planet"',
      },
    ]);
  });

  it('refuses a field without a label in one language', async () => {
    const broken = await country();
    delete broken.labels.fr.fields.name;
    const problems = await problemsWith('catalogs/country.json', broken);
    expect(problems).toEqual([expect.objectContaining({ pointer: '/labels/fr/fields/name' })]);
  });

  it('refuses an id that differs from the file name', async () => {
    const problems = await problemsWith('catalogs/nation.json', await country());
    expect(problems).toEqual([
      {
        file: 'catalogs/nation.json',
        pointer: '/id',
        message: 'id must equal the file name "nation"',
      },
    ]);
  });

  it('refuses a text present in English and missing in French', async () => {
    const english =
      await readProjectJson<Record<string, Record<string, string>>>('translations/en.json');
    english.app = { ...english.app, onlyInEnglish: 'Hello' };
    const problems = await problemsWith('translations/en.json', english);
    expect(problems).toEqual([
      expect.objectContaining({ file: 'translations/fr.json', pointer: '/app/onlyInEnglish' }),
    ]);
  });
});
