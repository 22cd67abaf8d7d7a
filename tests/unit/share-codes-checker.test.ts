import { describe, expect, it } from 'vitest';
import type { EntityDefinition } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { checkShareCodes } from '../../src/server/definitions/check-share-codes';
import type { ProblemText } from '../../src/server/definitions/problems';

/** `shareCodes` (docs/status-sharing.md): what the checker refuses before a holder meets it. */
const entity = {
  id: 'permit',
  schema: {
    type: 'object',
    properties: {
      person: { type: 'object', properties: { birthDate: { type: 'string' } } },
      uploads: {
        type: 'array',
        items: {
          type: 'object',
          properties: { kind: { type: 'string' }, file: { type: 'object', properties: {} } },
        },
      },
      rules: {
        type: 'array',
        items: { type: 'object', properties: { text: { type: 'string' } } },
      },
    },
  },
} as unknown as EntityDefinition;

const translations = {
  en: { permit: { work: 'Work', rules: 'Rules' } },
  fr: { permit: { work: 'Travail', rules: 'Règles' } },
};

const shareCodes = {
  statuses: ['GRANTED'],
  holderFactors: ['/person/birthDate'],
  name: ['/person/birthDate'],
  photo: { list: '/uploads', match: { field: 'kind', equals: 'PHOTO' }, file: '/file' },
  defaultDays: 30,
  maxDays: 90,
  purposes: [
    {
      id: 'work',
      label: 'permit.work',
      fields: [{ label: 'permit.rules', pointer: '/rules', each: '/text' }],
    },
  ],
};

function problemsOf(declared: unknown, fr: Record<string, unknown> = translations.fr) {
  const workflow = {
    id: 'permit',
    machine: { id: 'permit', initial: 'NEW', states: { NEW: {}, GRANTED: {} } },
    shareCodes: declared,
  } as unknown as WorkflowDefinition;
  const found: Array<[string, string]> = [];
  checkShareCodes({
    workflow,
    entity,
    translations: { en: translations.en, fr },
    report: (pointer: string, problem: ProblemText) => found.push([pointer, problem.key]),
  } as unknown as Parameters<typeof checkShareCodes>[0]);
  return found;
}

describe('the checker of shareCodes', () => {
  it('accepts statuses of the machine, texts in both languages, a photo among a list’s items', () => {
    expect(problemsOf(shareCodes)).toEqual([]);
  });

  it('refuses an unknown status, more days by default than at most, a purpose twice', () => {
    const purpose = shareCodes.purposes[0]!;
    expect(
      problemsOf({
        ...shareCodes,
        statuses: ['GRANTED', 'ISSUED'],
        defaultDays: 120,
        purposes: [purpose, purpose],
      }),
    ).toEqual([
      ['/shareCodes/statuses/1', 'noStatus'],
      ['/shareCodes/defaultDays', 'shareCodesDays'],
      ['/shareCodes/purposes/1/id', 'shareCodesPurposeTwice'],
    ]);
  });

  it('refuses a purpose’s text missing in a language, and a notice without its texts', () => {
    expect(
      problemsOf({ ...shareCodes, notice: 'permit.checked' }, { permit: { rules: 'R' } }),
    ).toEqual([
      ['/shareCodes/purposes/0/label', 'shareCodesText'],
      ['/shareCodes/notice', 'shareCodesText'],
      ['/shareCodes/notice', 'shareCodesText'],
      ['/shareCodes/notice', 'shareCodesText'],
      ['/shareCodes/notice', 'shareCodesText'],
    ]);
  });

  it('refuses a photo outside a list, items without the fields named, a list read by no field', () => {
    expect(problemsOf({ ...shareCodes, photo: { ...shareCodes.photo, list: '/person' } })).toEqual([
      ['/shareCodes/photo/list', 'shareCodesPhotoNotList'],
    ]);
    expect(
      problemsOf({
        ...shareCodes,
        photo: { list: '/uploads', match: { field: 'code', equals: 'PHOTO' }, file: '/scan' },
        purposes: [
          {
            id: 'work',
            label: 'permit.work',
            fields: [{ label: 'permit.rules', pointer: '/rules', each: '/wording' }],
          },
        ],
      }),
    ).toEqual([
      ['/shareCodes/purposes/0/fields/0/each', 'shareCodesItemField'],
      ['/shareCodes/photo/match/field', 'shareCodesItemField'],
      ['/shareCodes/photo/file', 'shareCodesItemField'],
    ]);
  });
});
