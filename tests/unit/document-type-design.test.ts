import { beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { PROJECT_ROOT } from '../../src/server/config';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import {
  checkDefinitions,
  DefinitionsError,
  type DefinitionProblem,
} from '../../src/server/definitions/load';
import {
  copyableTypes,
  documentTypeFiles,
  documentTypeProblems,
  type DocumentTypeDesign,
  type DraftFilesReader,
} from '../../src/core/studio/document-type-design';

const APPEAL: DocumentTypeDesign = {
  id: 'appeal',
  titles: { en: 'Appeal', fr: 'Recours' },
  prefix: '/appeal',
  applicantRole: 'submit',
  officerRole: 'process',
};

let shipped: Map<string, string>;
const reader = (files: ReadonlyMap<string, string>): DraftFilesReader => ({
  paths: [...files.keys()],
  file: (path) => files.get(path),
});

/** The checker's problems with the generated files added to the shipped definitions. */
async function problemsWith(design: DocumentTypeDesign): Promise<DefinitionProblem[]> {
  const files = new Map(shipped);
  for (const [path, text] of Object.entries(documentTypeFiles(design, reader(shipped))))
    files.set(path, text);
  try {
    const bundle = await checkDefinitions(files, serverModules);
    expect(bundle.workflows.some((workflow) => workflow.id === design.id)).toBe(true);
    return [];
  } catch (error) {
    if (error instanceof DefinitionsError) return error.problems;
    throw error;
  }
}

beforeAll(async () => {
  shipped = await readDefinitionFiles(PROJECT_ROOT);
});

describe('a new document type generated for the studio', () => {
  it('from blank passes the checker beside the shipped definitions', async () => {
    expect(documentTypeProblems(APPEAL, reader(shipped))).toEqual([]);
    expect(await problemsWith(APPEAL)).toEqual([]);
  });

  it('from blank writes the module, schema, workflow and both languages', () => {
    const files = documentTypeFiles(APPEAL, reader(shipped));
    const modules = JSON.parse(files['modules.json'] ?? '{}') as {
      modules: Array<{ id: string; prefix: string }>;
    };
    expect(modules.modules).toContainEqual({ id: 'appeal', prefix: '/appeal', enabled: true });
    const workflow = JSON.parse(files['workflows/appeal.json'] ?? '{}') as {
      rolePrefix: string;
      machine: { states: Record<string, unknown> };
      lists: Array<{ roles: string[] }>;
    };
    expect(Object.keys(workflow.machine.states)).toEqual(['NEW', 'STORED', 'SUBMITTED', 'CLOSED']);
    expect(workflow.rolePrefix).toBe('appeal-');
    expect(workflow.lists.map((list) => list.roles)).toEqual([['submit'], ['process']]);
    expect(JSON.parse(files['translations/fr/appeal.json'] ?? '{}')._title).toBe('Recours');
    // The status's words: written by the design, or already shipped (an account's closure).
    const french = files['translations/fr.json'] ?? shipped.get('translations/fr.json') ?? '{}';
    expect(JSON.parse(french).statuses.CLOSED).toBe('Clôturé');
  });

  it('by copying an existing type passes the checker, its keys renamed', async () => {
    expect(copyableTypes(reader(shipped)).map((type) => type.id)).toContain('sponsor-application');
    const copy = { ...APPEAL, copyOf: 'sponsor-application' };
    expect(documentTypeProblems(copy, reader(shipped))).toEqual([]);
    expect(await problemsWith(copy)).toEqual([]);
    const workflow = documentTypeFiles(copy, reader(shipped))['workflows/appeal.json'] ?? '';
    expect(workflow).not.toContain('sponsor-application.');
    expect(workflow).toContain('"appeal.menu.new"');
    expect(JSON.parse(workflow).prefix).toBe('/appeal/application');
  });

  it('refuses an id or a prefix already taken, and a bad role', () => {
    const problems = documentTypeProblems(
      { ...APPEAL, id: 'sponsor-application', prefix: '/visa', officerRole: 'Officer' },
      reader(shipped),
    );
    expect(problems.map((problem) => problem.key)).toEqual([
      'studio.newType.takenId',
      'studio.newType.takenPrefix',
      'studio.newType.badRole',
    ]);
    expect(
      documentTypeProblems({ ...APPEAL, id: '9x', prefix: 'appeal' }, reader(shipped)).map(
        (problem) => problem.field,
      ),
    ).toEqual(['id', 'prefix']);
  });
});
