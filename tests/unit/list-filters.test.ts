import { afterEach, describe, expect, it } from 'vitest';
import type { EntityDefinition } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import { checkListFilters, fieldKind } from '../../src/server/definitions/check-list-filters';
import type { Language } from '../../src/core/i18n/translate';
import {
  DefinitionsError,
  loadDefinitions,
  type SaidProblem,
} from '../../src/server/definitions/load';
import { worded } from '../support/checker-texts';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

/**
 * A list's `where` conditions: the loader refuses one naming a field its schema lacks, a
 * criterion the field's kind cannot take, or missing / extra values for the criterion.
 */
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

type Json = Record<string, unknown>;

const schema: EntityDefinition = {
  id: 'thing',
  schema: {
    type: 'object',
    properties: {
      access: {
        type: 'object',
        properties: {
          activationStatus: { type: 'string', enum: ['active', 'inactive'] },
          attempts: { type: 'integer' },
          locked: { type: 'boolean' },
        },
      },
    },
  },
} as unknown as EntityDefinition;

const workflowWith = (where: unknown[]): WorkflowDefinition =>
  ({
    id: 'thing',
    document: 'thing',
    lists: [
      { id: 'one', path: '/one', roles: ['search'], columns: [], open: '', label: '', where },
    ],
  }) as unknown as WorkflowDefinition;

const problemsOf = (where: unknown[], language: Language = 'en') => {
  const problems: SaidProblem[] = [];
  checkListFilters(workflowWith(where), [schema], problems);
  return worded(problems, language);
};

describe('list where conditions', () => {
  it('accepts conditions on fields of the schema', () => {
    expect(
      problemsOf([
        { pointer: '/access/activationStatus', criterion: 'equals', value: 'active' },
        { pointer: '/access/attempts', criterion: 'between', value: 1, valueTo: 3 },
        { pointer: '/access/locked', criterion: 'notEmpty' },
      ]),
    ).toEqual([]);
  });

  it('refuses a pointer naming no field, a criterion not for the kind, and wrong values', () => {
    expect(
      problemsOf([
        { pointer: '/access/activation', criterion: 'equals', value: 'active' },
        { pointer: '/access/locked', criterion: 'startsWith', value: 'x' },
        { pointer: '/access/activationStatus', criterion: 'equals' },
        { pointer: '/access/activationStatus', criterion: 'empty', value: 'x' },
        { pointer: '/access/attempts', criterion: 'between', value: 1 },
      ]),
    ).toEqual([
      {
        file: 'workflows/thing.json',
        pointer: '/lists/0/where/0/pointer',
        message: '"/access/activation" is not a field of schema "thing"',
      },
      {
        file: 'workflows/thing.json',
        pointer: '/lists/0/where/1/criterion',
        message: 'criterion "startsWith" does not apply to a boolean field',
      },
      {
        file: 'workflows/thing.json',
        pointer: '/lists/0/where/2/value',
        message: 'criterion "equals" needs "value"',
      },
      {
        file: 'workflows/thing.json',
        pointer: '/lists/0/where/3/value',
        message: 'criterion "empty" takes no "value"',
      },
      {
        file: 'workflows/thing.json',
        pointer: '/lists/0/where/4/valueTo',
        message: 'criterion "between" needs "valueTo"',
      },
    ]);
  });

  it('says the same problems in French', () => {
    expect(
      problemsOf(
        [
          { pointer: '/access/activation', criterion: 'equals', value: 'active' },
          { pointer: '/access/locked', criterion: 'startsWith', value: 'x' },
          { pointer: '/access/activationStatus', criterion: 'equals' },
          { pointer: '/access/activationStatus', criterion: 'empty', value: 'x' },
        ],
        'fr',
      ).map((problem) => problem.message),
    ).toEqual([
      "« /access/activation » n'est pas un champ du schéma « thing »",
      "le critère « startsWith » ne s'applique pas à un champ de type « boolean »",
      'le critère « equals » a besoin de « value »',
      'le critère « empty » ne prend pas de « value »',
    ]);
  });

  it('reads the kind of value the schema declares', () => {
    expect(fieldKind(schema.schema, '/access/activationStatus')).toBe('text');
    expect(fieldKind(schema.schema, '/access/attempts')).toBe('number');
    expect(fieldKind(schema.schema, '/access/locked')).toBe('boolean');
  });

  const loaderProblems = async (where: unknown[]) => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const workflow = await readProjectJson<Json>('workflows/account.json');
    const lists = workflow.lists as Json[];
    const index = lists.findIndex((l) => l.id === 'inactive');
    lists[index]!.where = where;
    await copy.write('workflows/account.json', workflow);
    const problems = await loadDefinitions(copy.dir, serverModules).then(
      () => [],
      (error: unknown) => {
        expect(error).toBeInstanceOf(DefinitionsError);
        return (error as DefinitionsError).problems;
      },
    );
    return { index, problems };
  };

  it('stops the loader on a misspelt pointer of the account lists', async () => {
    const { index, problems } = await loaderProblems([
      { pointer: '/access/activationStatu', criterion: 'equals', value: 'x' },
    ]);
    expect(problems).toEqual([
      {
        file: 'workflows/account.json',
        pointer: `/lists/${index}/where/0/pointer`,
        message: '"/access/activationStatu" is not a field of schema "account"',
      },
    ]);
  });

  it('stops the loader on a criterion the search protocol does not know', async () => {
    const { index, problems } = await loaderProblems([
      { pointer: '/access/activationStatus', criterion: 'near', value: 'x' },
    ]);
    expect(problems.map((p) => p.pointer)).toContain(`/lists/${index}/where/0/criterion`);
  });

  it('loads the project, whose account lists filter on the activation', async () => {
    const { index, problems } = await loaderProblems([
      { pointer: '/access/activationStatus', criterion: 'notEquals', value: 'active' },
    ]);
    expect(problems).toEqual([]);
    const workflow = await readProjectJson<WorkflowDefinition>('workflows/account.json');
    expect(workflow.lists[index]!.where).toEqual([
      { pointer: '/access/activationStatus', criterion: 'notEquals', value: 'active' },
    ]);
    expect(workflow.lists.find((l) => l.id === 'active')?.where).toEqual([
      { pointer: '/access/activationStatus', criterion: 'equals', value: 'active' },
    ]);
  });
});
