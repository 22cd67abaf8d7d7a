import { describe, expect, it } from 'vitest';
import { normalizePage } from '../../src/core/search/protocol';
import { criteriaFor, FILTER_CRITERIA, valueArity } from '../../src/core/search/criteria';

describe('page rules of the search protocol', () => {
  it.each([
    [undefined, { page: 1, itemsPerPage: -1, limit: 500, offset: 0 }],
    [{}, { page: 1, itemsPerPage: -1, limit: 500, offset: 0 }],
    [
      { page: 3, itemsPerPage: 20 },
      { page: 3, itemsPerPage: 20, limit: 20, offset: 40 },
    ],
    [
      { page: 2, itemsPerPage: 1 },
      { page: 2, itemsPerPage: 10, limit: 10, offset: 10 },
    ],
    [
      { page: 2, itemsPerPage: 0 },
      { page: 2, itemsPerPage: 10, limit: 10, offset: 10 },
    ],
    [
      { page: 1, itemsPerPage: -5 },
      { page: 1, itemsPerPage: 10, limit: 10, offset: 0 },
    ],
    [
      { page: 0, itemsPerPage: 25 },
      { page: 1, itemsPerPage: 25, limit: 25, offset: 0 },
    ],
    [
      { page: 4, itemsPerPage: -1 },
      { page: 1, itemsPerPage: -1, limit: 500, offset: 0 },
    ],
    [
      { page: 1, itemsPerPage: 9000 },
      { page: 1, itemsPerPage: 500, limit: 500, offset: 0 },
    ],
    [
      { page: 1.5, itemsPerPage: 2.5 },
      { page: 1, itemsPerPage: 10, limit: 10, offset: 0 },
    ],
  ])('%j gives %j', (options, expected) => {
    expect(normalizePage(options, 500)).toEqual(expected);
  });
});

describe('filter criteria', () => {
  it('are the thirteen of the specification', () => {
    expect(FILTER_CRITERIA).toHaveLength(13);
  });
  it('offer text matching only on text and ordering on everything but booleans', () => {
    expect(criteriaFor('text')).toHaveLength(13);
    expect(criteriaFor('boolean')).toEqual(['equals', 'notEquals', 'empty', 'notEmpty', 'none']);
    expect(criteriaFor('number')).not.toContain('contains');
    expect(criteriaFor('datetime')).toContain('between');
  });
  it('know how many values each needs', () => {
    expect(valueArity('between')).toBe(2);
    expect(valueArity('empty')).toBe(0);
    expect(valueArity('contains')).toBe(1);
  });
});
