import { CASE_NOTE_MAX_LENGTH } from '../../core/documents/case-work';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { arrayOf, DATE_TIME, itemsOf, objectSchema, UUID_STRING, VERSION } from './common';
import type { AddOperation } from './common';

/** The answers and bodies of the case notes and flags routes (docs/workflows.md, "Case notes and flags"). */

const WORKER = objectSchema(['subject', 'name'], {
  subject: { type: 'string' },
  name: { type: 'string' },
});

export const CASE_NOTE = objectSchema(
  ['id', 'version', 'text', 'author', 'createdAt', 'updatedAt', 'updatedBy', 'edits'],
  {
    id: UUID_STRING,
    version: VERSION,
    text: { type: 'string' },
    author: WORKER,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
    updatedBy: WORKER,
    edits: {
      ...arrayOf(
        objectSchema(['version', 'text', 'by', 'at'], {
          version: VERSION,
          text: { type: 'string' },
          by: WORKER,
          at: DATE_TIME,
        }),
      ),
      description: 'The texts earlier versions held, oldest first, with who wrote each and when',
    },
  },
);

export const CASE_NOTES = itemsOf(CASE_NOTE);

const TEXT = { type: 'string', minLength: 1, maxLength: CASE_NOTE_MAX_LENGTH };
export const NEW_CASE_NOTE = objectSchema(['text'], { text: TEXT });
export const CASE_NOTE_EDIT = objectSchema(['text', 'version'], {
  text: TEXT,
  version: { ...VERSION, description: 'The version read: another since is a 409' },
});

export const DOCUMENT_FLAGS = objectSchema(['flags'], {
  flags: { type: 'array', items: { type: 'string' }, description: 'The flags set, as declared' },
});

const NULLABLE_TEXT = { type: ['string', 'null'] };

export const REFERRING_LIST = objectSchema(['label', 'columns', 'items', 'more'], {
  label: { type: 'string', description: "The table's title, a translation key" },
  columns: arrayOf(
    objectSchema(['key', 'label', 'kind'], {
      key: { type: 'string' },
      label: { type: 'string', description: 'A translation key' },
      kind: { type: 'string', enum: ['number', 'status', 'date', 'text'] },
    }),
  ),
  items: arrayOf(
    objectSchema(['id', 'type', 'values'], {
      id: UUID_STRING,
      type: { type: 'string' },
      values: { type: 'object', additionalProperties: NULLABLE_TEXT },
    }),
  ),
  more: { type: 'boolean', description: 'More documents name it than are listed (200)' },
});

/** The case notes and flags paths of a workflow declaring them. */
export function addCaseWorkPaths(
  add: AddOperation,
  workflow: WorkflowDefinition,
  base: string,
): void {
  const officers = `Officers only: holders of ${workflow.seeAll.map((r) => `\`${workflow.rolePrefix}${r}\``).join(' or ')}, never on a document they own (403).`;
  if (workflow.caseNotes) {
    const roles = `${workflow.caseNotes.roles.map((r) => `\`${workflow.rolePrefix}${r}\``).join(' or ')}`;
    const description = `${officers} Holding ${roles}.`;
    add('get', `${base}/{id}/case-notes`, 'caseNotes', "The document's internal case notes", {
      description,
      response: CASE_NOTES,
    });
    add('post', `${base}/{id}/case-notes`, 'addCaseNote', 'Adds an internal case note', {
      description,
      body: NEW_CASE_NOTE,
      status: 201,
      response: CASE_NOTE,
    });
    add('put', `${base}/{id}/case-notes/{noteId}`, 'editCaseNote', 'Edits a case note', {
      description: `${description} The text it replaces is kept; a version other than the note's is a 409.`,
      body: CASE_NOTE_EDIT,
      response: CASE_NOTE,
    });
  }
  for (const [name, referring] of Object.entries(workflow.referencedBy ?? {}))
    add(
      'get',
      `${base}/{id}/referenced-by/${name}`,
      `referencedBy.${name}`,
      `The ${referring.type} documents naming it`,
      {
        description: `Its owner and the holders of ${workflow.seeAll.map((r) => `\`${workflow.rolePrefix}${r}\``).join(' or ')}: the submitted ${referring.type} documents whose ${referring.pointer} names it, newest change first, at most 200.`,
        response: REFERRING_LIST,
      },
    );
  const flags = Object.keys(workflow.flags ?? {});
  if (flags.length) {
    add('get', `${base}/{id}/flags`, 'flags', "The document's flags", {
      description: officers,
      response: DOCUMENT_FLAGS,
    });
    // One path per flag, as one per action: the flag's name is part of what the path does.
    for (const flag of flags)
      for (const [method, suffix, summary] of [
        ['put', 'setFlag', 'Sets the flag'],
        ['delete', 'clearFlag', 'Clears the flag'],
      ] as const)
        add(method, `${base}/{id}/flags/${flag}`, `${suffix}.${flag}`, `${summary} ${flag}`, {
          description: `${officers} The change is a line of the document's history.`,
          response: DOCUMENT_FLAGS,
        });
  }
}
