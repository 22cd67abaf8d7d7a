import { describe, expect, it } from 'vitest';
import {
  registerRule,
  resolvePointer,
  runRules,
  unknownRules,
} from '../../src/core/rules/registry';

describe('named rules', () => {
  it('minItems and maxItems pass on empty values, non-lists and missing limits', () => {
    for (const value of [undefined, null, '', 'text', { a: 1 }]) {
      expect(runRules([{ rule: 'minItems', path: '/list', limit: 1 }], { list: value })).toEqual(
        [],
      );
      expect(runRules([{ rule: 'maxItems', path: '/list', limit: 0 }], { list: value })).toEqual(
        [],
      );
    }
    expect(runRules([{ rule: 'minItems', path: '/list' }], { list: [] })).toEqual([]);
    expect(runRules([{ rule: 'minItems', path: '/list', limit: 2 }], { list: [1, 2] })).toEqual([]);
    expect(runRules([{ rule: 'maxItems', path: '/list', limit: 2 }], { list: [1, 2] })).toEqual([]);
    expect(runRules([{ rule: 'minItems', path: '/list', limit: 2 }], { list: [1] })).toEqual([
      { path: '/list', rule: 'minItems', message: 'validation.minItems', params: { limit: 2 } },
    ]);
    expect(
      runRules([{ rule: 'maxItems', path: '/list', limit: 1 }], { list: [1, 2] })[0]?.rule,
    ).toBe('maxItems');
  });

  it('allAnswered counts false as an answer, not null, undefined or empty text', () => {
    const use = {
      rule: 'allAnswered',
      path: '/q',
      field: 'answer',
      message: 'validation.characterQuestions',
    };
    expect(runRules([use], { q: [{ answer: false }, { answer: true }, { answer: 'x' }] })).toEqual(
      [],
    );
    for (const missing of [null, undefined, '']) {
      expect(runRules([use], { q: [{ answer: true }, { answer: missing }] })).toEqual([
        {
          path: '/q',
          rule: 'allAnswered',
          message: 'validation.characterQuestions',
          params: { field: 'answer' },
        },
      ]);
    }
    expect(runRules([use], { q: [{}] })).toHaveLength(1);
  });

  it('accepted wants exactly true', () => {
    expect(runRules([{ rule: 'accepted', path: '/terms' }], { terms: true })).toEqual([]);
    for (const terms of [false, 'true', undefined, 1]) {
      expect(runRules([{ rule: 'accepted', path: '/terms' }], { terms })).toHaveLength(1);
    }
  });

  it('resolves JSON pointers with escapes and array indices', () => {
    const doc = { 'a/b': { '~c': [10, 20] } };
    expect(resolvePointer(doc, '/a~1b/~0c/1')).toBe(20);
    expect(resolvePointer(doc, '/missing/x')).toBeUndefined();
    expect(resolvePointer(doc, '')).toBe(doc);
  });

  it('reports unknown rules, and registers new ones', () => {
    expect(
      unknownRules([
        { rule: 'minItems', path: '/a' },
        { rule: 'sponsorValid', path: '/b' },
      ]),
    ).toEqual([{ rule: 'sponsorValid', path: '/b' }]);
    expect(runRules([{ rule: 'sponsorValid', path: '/b' }], {})).toHaveLength(1);
    const unregister = registerRule('sponsorValid', () => true);
    expect(unknownRules([{ rule: 'sponsorValid', path: '/b' }])).toEqual([]);
    unregister();
    expect(unknownRules([{ rule: 'sponsorValid', path: '/b' }])).toHaveLength(1);
  });
});
