import {
  DATE_TIME,
  documented,
  PROBLEM_RESPONSES,
  stringParams,
  type ContractSchema,
} from './common';

/** The published sets of definitions (plugins/definition-sets.ts), for the contract. */

const SUMMARY: ContractSchema = {
  type: 'object',
  required: ['version', 'digest', 'source', 'note', 'publishedBy', 'publishedAt'],
  properties: {
    version: { type: 'integer', minimum: 1 },
    digest: { type: 'string', description: 'Equal for equal files' },
    source: {
      type: 'string',
      enum: ['folder', 'publish', 'restore'],
      description: "Recorded from the deployment's folder, published, or an earlier one restored",
    },
    note: { type: 'string' },
    publishedBy: { type: 'string' },
    publishedAt: DATE_TIME,
  },
};
/** A problem or warning: where in which file, and what. */
const DEFINITION_PROBLEM: ContractSchema = {
  type: 'object',
  properties: {
    file: { type: 'string' },
    pointer: { type: 'string' },
    message: { type: 'string' },
  },
};
/** A new version, with what should be seen but did not refuse it. */
const PUBLISHED: ContractSchema = {
  ...SUMMARY,
  properties: {
    ...(SUMMARY.properties as Record<string, unknown>),
    warnings: {
      type: 'array',
      description: 'Roles the set names that no access unit grants: nobody holds them yet',
      items: DEFINITION_PROBLEM,
    },
  },
};
const BASE_AND_NOTE = {
  base: {
    type: 'integer',
    minimum: 1,
    description: 'The newest version when the changes were made; another answers 409',
  },
  note: { type: 'string', minLength: 1, maxLength: 500, description: 'Why, for the history' },
};

export const DEFINITION_SET_ROUTES = {
  history: documented({
    tags: ['definitions'],
    summary: 'Every published version of the definitions, newest first',
    description: 'For holders of definitions-edit or definitions-publish.',
    response: {
      200: {
        description: 'The versions',
        type: 'object',
        properties: { versions: { type: 'array', items: SUMMARY } },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  files: documented({
    tags: ['definitions'],
    summary: "One version's files (path -> text), as a folder of definitions holds them",
    params: stringParams('version'),
    response: {
      200: {
        description: 'The version and its files',
        type: 'object',
        properties: {
          ...(SUMMARY.properties as Record<string, unknown>),
          files: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  publish: documented({
    tags: ['definitions'],
    summary: 'Publishes the newest version with changes: every process serves it at once',
    description:
      'Checked as at start: 422 lists every problem by file and JSON pointer. A removed status ' +
      "holding documents must be mapped in the workflow's statusMoves (applied in the same " +
      'transaction) or the publish is refused naming how many. For holders of definitions-publish.',
    body: {
      type: 'object',
      required: ['base', 'note', 'changes'],
      properties: {
        ...BASE_AND_NOTE,
        changes: {
          type: 'object',
          description:
            "File path -> its new text, or null to remove it; other files are the base's",
          additionalProperties: { type: ['string', 'null'] },
        },
      },
    },
    response: { 201: { description: 'Published', ...PUBLISHED }, ...PROBLEM_RESPONSES },
  }),
  check: documented({
    tags: ['definitions'],
    summary: 'Checks a draft (the newest version with changes) as a publish would, writing nothing',
    description:
      "Answers the problems found (valid false), or the roles nobody holds, the draft's version " +
      "(naming its preview validator modules) and, for `document`, that type's definition and " +
      'texts for a preview. For holders of definitions-edit or definitions-publish.',
    body: {
      type: 'object',
      required: ['base', 'changes'],
      properties: {
        base: BASE_AND_NOTE.base,
        changes: {
          type: 'object',
          description:
            "File path -> its new text, or null to remove it; other files are the base's",
          additionalProperties: { type: ['string', 'null'] },
        },
        document: { type: 'string', description: 'A document type to preview' },
        impact: {
          type: 'boolean',
          description:
            'Also count the stored documents the changed schemas would refuse (reads every ' +
            'stored document of each changed type)',
        },
      },
    },
    response: {
      200: {
        description: 'The draft checked',
        type: 'object',
        required: ['valid', 'problems', 'warnings'],
        properties: {
          valid: { type: 'boolean' },
          problems: { type: 'array', items: DEFINITION_PROBLEM },
          warnings: { type: 'array', items: DEFINITION_PROBLEM },
          version: {
            type: 'string',
            description: "The draft's digest, naming its preview modules",
          },
          impact: {
            type: 'array',
            description:
              'Stored documents the changed schemas would make invalid, by type (when asked)',
            items: {
              type: 'object',
              properties: {
                document: { type: 'string' },
                checked: { type: 'integer' },
                invalid: { type: 'integer' },
                fields: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      pointer: { type: 'string' },
                      keyword: { type: 'string' },
                      count: { type: 'integer' },
                    },
                  },
                },
                examples: { type: 'array', items: { type: 'string' } },
              },
            },
          },
          document: {
            type: 'object',
            description: "The previewed type's definition, its texts and the shared texts",
            additionalProperties: true,
          },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  previewValidator: documented({
    tags: ['definitions'],
    summary: "A checked draft's validator module: a catalogue entry's or a whole document's",
    params: stringParams('version', 'kind', 'file'),
    response: { 200: { description: 'An ES module', type: 'string' }, ...PROBLEM_RESPONSES },
  }),
  previewSectionValidator: documented({
    tags: ['definitions'],
    summary: "A checked draft's validator module for one section of a document",
    params: stringParams('version', 'entity', 'file'),
    response: { 200: { description: 'An ES module', type: 'string' }, ...PROBLEM_RESPONSES },
  }),
  restore: documented({
    tags: ['definitions'],
    summary: 'Publishes an earlier version again, as the newest (a roll back)',
    params: stringParams('version'),
    body: { type: 'object', required: ['base', 'note'], properties: BASE_AND_NOTE },
    response: { 201: { description: 'Restored', ...PUBLISHED }, ...PROBLEM_RESPONSES },
  }),
};
