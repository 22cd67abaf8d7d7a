import { describe, expect, it } from 'vitest';
import { sameAnswers } from '../../src/engine/form/validation';

/**
 * A form that fills in empty groups as it opens has lost nothing if the person leaves: the
 * unsaved-changes question must not be asked of someone who typed nothing.
 */
describe('sameAnswers', () => {
  it('takes the empty groups, lists and texts a form fills in as no change', () => {
    expect(sameAnswers(undefined, {})).toBe(true);
    expect(sameAnswers({ name: 'Ana' }, { name: 'Ana', other: '', list: [], group: {} })).toBe(
      true,
    );
    expect(sameAnswers({ a: { b: undefined } }, { a: { b: null, c: [{}] } })).toBe(true);
  });

  it('sees every answer a person gave or changed', () => {
    expect(sameAnswers(undefined, { name: 'A' })).toBe(false);
    expect(sameAnswers({ name: 'Ana' }, { name: 'Ann' })).toBe(false);
    expect(sameAnswers({ sponsored: true }, { sponsored: false })).toBe(false);
    expect(sameAnswers(undefined, { answer: false })).toBe(false);
    expect(sameAnswers({ list: ['a'] }, { list: ['a', 'b'] })).toBe(false);
    expect(sameAnswers({ list: [{ x: 1 }] }, { list: {} })).toBe(false);
  });
});
