import { describe, expect, it } from 'vitest';
import {
  conditionalFieldsOf,
  inapplicableFields,
} from '../../src/core/definitions/conditional-fields';
import type { EntityDefinition } from '../../src/core/definitions/types';
import { applicableData } from '../../src/core/rules/sections';

/** A person to declare whose details apply only to a spouse, and dependants' health details. */
const spouse = { pointer: '/family/status', in: ['SPOUSE'] };
const entity: EntityDefinition = {
  id: 'test',
  schema: {
    type: 'object',
    properties: {
      family: {
        type: 'object',
        properties: {
          status: { type: 'string' },
          familyName: { type: 'string' },
          address: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
      dependants: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, healthDetails: { type: 'string' } },
        },
      },
    },
  },
  uiSchema: {
    family: {
      familyName: { 'ui:options': { when: spouse } },
      address: { 'ui:options': { when: spouse } },
    },
    dependants: {
      items: {
        healthDetails: { 'ui:options': { when: { pointer: '/family/status', in: ['NONE'] } } },
      },
    },
  },
  sections: [{ id: 'family' }, { id: 'dependants' }],
};

describe('fields that apply only when a value says so (ui:options.when)', () => {
  it('finds them in objects and in the items of lists', () => {
    expect(conditionalFieldsOf(entity).map((field) => field.segments.join('/'))).toEqual([
      'family/familyName',
      'family/address',
      'dependants/*/healthDetails',
    ]);
  });

  it("drops a spouse's details once the person to declare is None, and keeps them for a spouse", () => {
    const given = {
      family: { status: 'NONE', familyName: 'Tui', address: { city: 'Apia' } },
      dependants: [{ name: 'Sina', healthDetails: 'Asthma' }, { name: 'Ioane' }],
    };
    expect(applicableData(entity, given)).toEqual({
      family: { status: 'NONE' },
      dependants: [{ name: 'Sina', healthDetails: 'Asthma' }, { name: 'Ioane' }],
    });
    // The document given is left as it was: the form keeps what was typed, should it apply again.
    expect(given.family.familyName).toBe('Tui');
    const asSpouse = { ...given, family: { ...given.family, status: 'SPOUSE' } };
    expect(inapplicableFields(entity, asSpouse)).toEqual(['/dependants/0/healthDetails']);
    expect(applicableData(entity, asSpouse).family).toEqual(asSpouse.family);
  });

  it('drops them while nothing is chosen, and returns the same document when all apply', () => {
    expect(applicableData(entity, { family: { familyName: 'Tui' } })).toEqual({ family: {} });
    const same = { family: { status: 'SPOUSE', familyName: 'Tui' } };
    expect(applicableData(entity, same)).toBe(same);
  });
});
