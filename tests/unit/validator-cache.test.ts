import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import { serverModules } from '../../src/modules/server';
import { PROJECT_ROOT } from '../../src/server/config';
import { loadDefinitions } from '../../src/server/definitions/load';
import { compileValidators, type ValidatorSet } from '../../src/server/definitions/validators';

/**
 * The validator modules kept between starts (definitions/validator-cache.ts): a start with the
 * same definitions imports what an earlier one generated and validates exactly as a compiled
 * set does; a change to a definition is never answered from an older folder; a folder that
 * cannot be read or written costs only the time of compiling.
 */
describe('validators kept between starts', () => {
  let bundle: DefinitionBundle;
  let compiled: ValidatorSet;
  let cacheDir: string;

  const AGENCY_ENTRIES = [
    {},
    { code: 'AB', startTime: '2026-01-01T00:00:00Z' },
    { code: 'ABCD', startTime: '2026-01-01T00:00:00Z' },
    { code: 'ABCDEFG', name: 7, startTime: 'soon', extra: true },
  ];
  const APPLICATIONS = [{}, { applicant: { familyName: 'x'.repeat(500) } }, []];

  /** What a validator answers for each input: valid or not, and its errors. */
  const answers = (set: ValidatorSet, kind: 'catalog' | 'schema', id: string, inputs: unknown[]) =>
    inputs.map((input) => {
      const validate = set.get(kind, id);
      if (!validate) throw new Error(`no validator ${kind}/${id}`);
      const valid = validate(input);
      return { valid, errors: validate.errors ?? null };
    });

  /** The agency catalogue with its code at most `maxLength` long. */
  const withAgencyCodeLength = (maxLength: number): DefinitionBundle => ({
    ...bundle,
    catalogs: bundle.catalogs.map((c) =>
      c.id !== 'agency'
        ? c
        : {
            ...c,
            schema: {
              ...c.schema,
              properties: {
                ...(c.schema.properties as object),
                code: { type: 'string', minLength: 1, maxLength },
              },
            },
          },
    ),
  });

  const keptFolders = async () =>
    (await fs.readdir(cacheDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => path.join(cacheDir, e.name));

  beforeAll(async () => {
    bundle = await loadDefinitions(PROJECT_ROOT, serverModules);
    compiled = await compileValidators(bundle);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'validator-cache-'));
  });
  afterAll(async () => {
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('keeps the modules of a start, and the next start validates as a compiled set does', async () => {
    const first = await compileValidators(bundle, { cacheDir });
    const [folder] = await keptFolders();
    expect(folder).toBeDefined();
    const second = await compileValidators(bundle, { cacheDir });
    for (const set of [first, second]) {
      expect(answers(set, 'catalog', 'agency', AGENCY_ENTRIES)).toEqual(
        answers(compiled, 'catalog', 'agency', AGENCY_ENTRIES),
      );
      expect(answers(set, 'schema', 'visa-application', APPLICATIONS)).toEqual(
        answers(compiled, 'schema', 'visa-application', APPLICATIONS),
      );
      expect(set.module('schema', 'visa-application')).toBe(
        compiled.module('schema', 'visa-application'),
      );
      expect(set.sectionModule('visa-application', 'applicant')).toBe(
        compiled.sectionModule('visa-application', 'applicant'),
      );
    }
    // The code 'ABCD' is valid, 'ABCDEFG' too long, whichever way the set was made.
    expect(answers(second, 'catalog', 'agency', AGENCY_ENTRIES).map((a) => a.valid)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('imports what the folder holds instead of compiling', async () => {
    const [folder = ''] = await keptFolders();
    const manifest = JSON.parse(
      await fs.readFile(path.join(folder, 'modules.json'), 'utf8'),
    ) as Record<string, string>;
    const agencyFile = path.join(folder, manifest['catalog/agency'] ?? '');
    const original = await fs.readFile(agencyFile, 'utf8');
    // A module of the same shape that refuses everything: only a set read from the folder has it.
    const refusing = `// kept\nconst validate = () => false;\nexport { validate };\nexport default validate;\n`;
    await fs.writeFile(agencyFile, refusing);
    try {
      const kept = await compileValidators(bundle, { cacheDir });
      expect(kept.module('catalog', 'agency')).toBe(refusing);
      expect(
        kept.get('catalog', 'agency')?.({ code: 'AB', startTime: '2026-01-01T00:00:00Z' }),
      ).toBe(false);
    } finally {
      await fs.writeFile(agencyFile, original);
    }
  });

  it('compiles a changed definition instead of answering from the older folder', async () => {
    const shorter = withAgencyCodeLength(3);
    const changed = await compileValidators(shorter, { cacheDir });
    const validate = changed.get('catalog', 'agency');
    expect(validate?.({ code: 'ABCD', startTime: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(validate?.errors?.map((e) => e.keyword)).toEqual(['maxLength']);
    expect(await keptFolders()).toHaveLength(2);
    // And the next start with that change reads its own folder.
    const again = await compileValidators(shorter, { cacheDir });
    expect(
      again.get('catalog', 'agency')?.({ code: 'ABCD', startTime: '2026-01-01T00:00:00Z' }),
    ).toBe(false);
  });

  it('compiles when a folder is incomplete, and keeps a whole one again', async () => {
    const [folder = ''] = (await keptFolders()).sort();
    const manifest = JSON.parse(
      await fs.readFile(path.join(folder, 'modules.json'), 'utf8'),
    ) as Record<string, string>;
    const anyModule = Object.values(manifest)[0] ?? '';
    await fs.rm(path.join(folder, anyModule));
    const sets = await Promise.all([
      compileValidators(bundle, { cacheDir }),
      compileValidators(withAgencyCodeLength(3), { cacheDir }),
    ]);
    for (const set of sets) {
      expect(answers(set, 'schema', 'visa-application', APPLICATIONS)).toEqual(
        answers(compiled, 'schema', 'visa-application', APPLICATIONS),
      );
    }
    // Whichever folder lost a file is whole again: every module of the manifest is there.
    for (const kept of await keptFolders()) {
      const files = JSON.parse(
        await fs.readFile(path.join(kept, 'modules.json'), 'utf8'),
      ) as Record<string, string>;
      for (const file of Object.values(files)) await fs.access(path.join(kept, file));
    }
  });

  it('compiles when the folder cannot be written', async () => {
    const notAFolder = path.join(cacheDir, 'a-file');
    await fs.writeFile(notAFolder, 'not a folder');
    const set = await compileValidators(bundle, { cacheDir: notAFolder });
    expect(answers(set, 'catalog', 'agency', AGENCY_ENTRIES)).toEqual(
      answers(compiled, 'catalog', 'agency', AGENCY_ENTRIES),
    );
  });
});
