import { LANGUAGES } from '../../core/i18n/translate';
import { arrayOf, NULLABLE_STRING, objectSchema } from './common';

/** The answer of the certificate's view routes (docs/api.md, "A certificate as a web page"). */

const STRINGS = arrayOf({ type: 'string' });

const FIELD = objectSchema(['label'], {
  label: { type: 'string', description: "'' for a table named by its section's heading" },
  value: { type: 'string', description: 'A single value, as printed' },
  lines: { ...STRINGS, description: "Several values: a list's items or one value's lines" },
  numbered: { type: 'boolean', description: "The lines are a list's items (numbered)" },
  table: objectSchema(['columns', 'rows', 'alignRight'], {
    columns: STRINGS,
    rows: arrayOf(STRINGS),
    alignRight: { ...arrayOf({ type: 'boolean' }), description: 'Per column: an amount' },
  }),
});

export const CERTIFICATE_VIEW = objectSchema(
  ['language', 'issuer', 'title', 'number', 'sections', 'checkUrl', 'checkText', 'notes'],
  {
    language: {
      type: 'string',
      enum: [...LANGUAGES],
      description: "The holder's language, that of every text of the answer",
    },
    issuer: { type: 'string' },
    title: { type: 'string' },
    number: { type: 'string', description: "The document's number, or the person's" },
    sections: arrayOf(
      objectSchema(['heading', 'fields'], { heading: NULLABLE_STRING, fields: arrayOf(FIELD) }),
    ),
    checkUrl: {
      ...NULLABLE_STRING,
      description: 'The public check of the number, when the workflow declares `verification`',
    },
    checkText: {
      ...NULLABLE_STRING,
      description: 'What the check is for, said before its address',
    },
    notes: { ...STRINGS, description: 'What the PDF says beside its content' },
  },
);
