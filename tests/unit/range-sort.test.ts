import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compileSearch, type SearchField } from '../../src/server/search/compile-search';

const FIELDS: Record<string, SearchField> = {
  status: { kind: 'text', sql: sql.ref('status'), notNull: true },
  submittedAt: { kind: 'datetime', sql: sql.ref('submitted_at') },
  updatedAt: { kind: 'datetime', sql: sql.ref('updated_at'), notNull: true },
  familyName: { kind: 'text', sql: sql`x`, folded: sql<string>`y` },
};
const DEFAULT = [{ field: 'updatedAt', direction: 'desc' as const }];
const sortOf = (body: unknown) =>
  compileSearch(body, FIELDS, DEFAULT).sort.map((key) => `${key.field} ${key.direction}`);

describe('the order of a search narrowed to a range', () => {
  const month = {
    field: 'submittedAt',
    criterion: 'between',
    value: '2024-03-01T00:00:00Z',
    valueTo: '2024-03-31T23:59:59Z',
  };

  it("is the range's own field, latest first, when the search chose none", () => {
    expect(sortOf({ filter: [month] })).toEqual(['submittedAt desc']);
    expect(
      sortOf({
        filter: [
          { field: 'status', criterion: 'equals', value: 'GRANTED' },
          { field: 'submittedAt', criterion: 'greaterThan', value: '2024-01-01T00:00:00Z' },
        ],
      }),
    ).toEqual(['submittedAt desc']);
  });

  it("is the search's own when it chose one, and the default without a range", () => {
    expect(
      sortOf({ filter: [month], options: { sort: [{ field: 'status', direction: 'asc' }] } }),
    ).toEqual(['status asc']);
    expect(
      sortOf({ filter: [{ field: 'familyName', criterion: 'startsWith', value: 'Tu' }] }),
    ).toEqual(['updatedAt desc']);
    expect(sortOf({})).toEqual(['updatedAt desc']);
  });
});
