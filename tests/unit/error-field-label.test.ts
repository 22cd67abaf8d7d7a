import { describe, expect, it } from 'vitest';
import { errorFieldLabel } from '../../src/engine/form/errorLabel';

const definition = {
  id: 'permit',
  schema: {
    type: 'object',
    properties: {
      applicant: { type: 'object', properties: { familyName: { type: 'string' } } },
      dependants: {
        type: 'array',
        items: { type: 'object', properties: { familyName: { type: 'string' } } },
      },
      documents: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, file: { type: 'object' } },
        },
      },
      previous: {
        type: 'array',
        items: { type: 'object', properties: { number: { type: 'string' } } },
      },
    },
  },
  uiSchema: {
    documents: {
      items: {
        'ui:options': { groupLabelFrom: 'name' },
        file: { 'ui:options': { labelFrom: 'name' } },
      },
    },
  },
};

const texts = {
  en: {
    form: { list: { item: '{{list}}, item {{number}}' } },
    permit: {
      applicant: { _: 'Applicant', familyName: 'Family name' },
      dependants: { _: 'Dependants', _item: 'Dependant {{number}}', familyName: 'Family name' },
      documents: { _: 'Attachments', file: 'File' },
      previous: { _: 'Previous passports', number: 'Number' },
    },
  },
};

const data = {
  dependants: [{}, { familyName: '' }],
  documents: [{ name: 'Passport copy' }],
  previous: [{}],
};

const label = (pointer: string) => errorFieldLabel(definition, texts, 'en', data, pointer);

describe('how the error summary names a field', () => {
  it('names a list item’s field after its item, not as the applicant’s own field', () => {
    expect(label('/applicant/familyName')).toBe('Family name');
    expect(label('/dependants/1/familyName')).toBe('Dependant 2, Family name');
    expect(label('/previous/0/number')).toBe('Previous passports, item 1, Number');
  });

  it('names an attachment’s file by the attachment, once, and a list by its title', () => {
    expect(label('/documents/0/file')).toBe('Passport copy');
    expect(label('/dependants')).toBe('Dependants');
  });
});
