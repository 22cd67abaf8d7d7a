import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/core/definitions/types';
import { validateDocument, type FormSchemas } from '../../src/engine/form/validation';
import type { PrecompiledValidate } from '../../src/engine/form/types';
import { createAjv } from '../../src/server/definitions/ajv';

/** A visa-like document: a required applicant and contact address, and a required file. */
const schema: JsonSchema = {
  type: 'object',
  required: ['applicant', 'contact', 'passport'],
  properties: {
    applicant: {
      type: 'object',
      required: ['familyName'],
      properties: { familyName: { type: 'string' }, spouse: { type: 'string' } },
    },
    contact: {
      type: 'object',
      required: ['address'],
      properties: {
        address: {
          type: 'object',
          required: ['city'],
          properties: { city: { type: 'string' } },
        },
      },
    },
    passport: {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string' }, name: { type: 'string' } },
    },
    optional: {
      type: 'object',
      required: ['reason'],
      properties: { reason: { type: 'string' } },
    },
  },
};
const form: FormSchemas = { schema, uiSchema: { passport: { 'ui:widget': 'file' } } };
const validate = createAjv().compile(schema) as unknown as PrecompiledValidate;
const texts = { en: { validation: { required: 'This field is required' } } };

describe('a required group not yet opened', () => {
  it('is checked as an empty one: its errors name its own fields, groups within it too', () => {
    const paths = validateDocument(validate, [], {}, texts, 'en', form).map((e) => e.path);
    expect(paths.sort()).toEqual(['/applicant/familyName', '/contact/address/city', '/passport']);
  });

  it('names the group itself without the form (as before), and leaves optional groups alone', () => {
    const paths = validateDocument(validate, [], {}, texts, 'en').map((e) => e.path);
    expect(paths.sort()).toEqual(['/applicant', '/contact', '/passport']);
  });
});
