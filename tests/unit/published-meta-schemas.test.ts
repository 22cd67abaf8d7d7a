import fs from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/config';

/**
 * The meta-schemas published in meta/ (`npm run gen:meta`) are what a code editor checks a
 * definition file with, through the file's `$schema`. An editor knows nothing of our server: a
 * plain draft-07 validator must accept every project definition with them, and refuse what the
 * server refuses for its shape.
 */

const FOLDERS: Array<[folder: string, metaSchema: string]> = [
  ['catalogs', 'catalog'],
  ['schemas', 'entity'],
  ['workflows', 'workflow'],
  ['translations', 'translations'],
];

/** Every definition file, relative to the project, with the meta-schema it must name. */
async function definitionFiles(): Promise<Array<{ file: string; meta: string }>> {
  const files: Array<{ file: string; meta: string }> = [{ file: 'modules.json', meta: 'modules' }];
  for (const [folder, meta] of FOLDERS) {
    const entries = await fs.readdir(path.join(PROJECT_ROOT, folder), { recursive: true });
    for (const entry of entries.filter((name) => name.endsWith('.json')).sort())
      files.push({ file: path.join(folder, entry), meta });
  }
  return files;
}

/** A validator as an editor has it: draft-07, our `x-names` an unknown keyword it ignores. */
async function editorValidator(meta: string): Promise<ValidateFunction> {
  const schema = JSON.parse(
    await fs.readFile(path.join(PROJECT_ROOT, 'meta', `${meta}.schema.json`), 'utf8'),
  ) as object;
  return new Ajv({ strict: false, allErrors: true }).compile(schema);
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(path.join(PROJECT_ROOT, file), 'utf8')) as Record<
    string,
    unknown
  >;
}

describe('the published meta-schemas', () => {
  it('are named by $schema in every definition file, as a path that leads to them', async () => {
    const files = await definitionFiles();
    expect(files.length).toBeGreaterThan(80);
    for (const { file, meta } of files) {
      const named = (await readJson(file)).$schema;
      expect(named, file).toBeTypeOf('string');
      const target = path.resolve(PROJECT_ROOT, path.dirname(file), named as string);
      expect(target, file).toBe(path.join(PROJECT_ROOT, 'meta', `${meta}.schema.json`));
    }
  });

  it('accept every project definition in a plain JSON Schema validator', async () => {
    for (const { file, meta } of await definitionFiles()) {
      const validate = await editorValidator(meta);
      expect(validate(await readJson(file)) ? [] : validate.errors, file).toEqual([]);
    }
  });

  it('refuse, in an editor, a misspelt property and a status with a hyphen', async () => {
    const validate = await editorValidator('workflow');
    const workflow = await readJson('workflows/sponsor-application.json');
    expect(validate({ ...workflow, seeAl: [] })).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({ params: { additionalProperty: 'seeAl' } }),
    );
    const machine = workflow.machine as { states: Record<string, unknown> };
    const states = { ...machine.states, 'SUB-MITTED': {} };
    expect(validate({ ...workflow, machine: { ...machine, states } })).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({ params: { propertyName: 'SUB-MITTED' } }),
    );
  });
});
