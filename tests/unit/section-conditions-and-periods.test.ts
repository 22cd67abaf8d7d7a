import { describe, expect, it } from 'vitest';
import { applicableData, sectionApplies } from '../../src/core/rules/sections';
import { catalogAllowed, catalogMatch } from '../../src/core/definitions/catalog-fields';
import { lastDayOf } from '../../src/server/documents/grant-effects';
import type { EntityDefinition } from '../../src/core/definitions/types';

const entity: EntityDefinition = {
  id: 'test',
  schema: { type: 'object', properties: {} },
  sections: [
    { id: 'kind' },
    { id: 'person', when: { pointer: '/kind/type', in: ['P'] } },
    { id: 'organisation', when: { pointer: '/kind/type', in: ['O'] } },
  ],
};

describe('sections that apply only when a value says so', () => {
  it('keeps the section the value chooses and drops the other', () => {
    const data = { kind: { type: 'O' }, person: { name: 'Ana' }, organisation: { name: 'Co' } };
    expect(applicableData(entity, data)).toEqual({
      kind: { type: 'O' },
      organisation: { name: 'Co' },
    });
    expect(sectionApplies(entity.sections[1]!, data)).toBe(false);
    expect(sectionApplies(entity.sections[2]!, data)).toBe(true);
  });

  it('drops every conditional section while nothing is chosen, and leaves the rest alone', () => {
    const data = { person: { name: 'Ana' } };
    expect(applicableData(entity, data)).toEqual({});
    const same = { kind: { type: 'P' }, person: { name: 'Ana' } };
    expect(applicableData(entity, same)).toBe(same);
  });
});

describe('catalogue selects limited to fixed values', () => {
  it('reads lists as allowed values and strings as pointers', () => {
    const match = { binder: ['VISA', 'PERMIT'], documentCode: '/visa/document' };
    expect(catalogAllowed(match)).toEqual([['binder', ['VISA', 'PERMIT']]]);
    expect(catalogMatch(match)).toEqual([['documentCode', '/visa/document']]);
  });
});

describe('the last day of a granted period', () => {
  it('counts days, weeks, months and years, the first day included', () => {
    expect(lastDayOf('2026-11-24', 'DAY', 30)).toBe('2026-12-23');
    expect(lastDayOf('2026-11-24', 'WEEK', 2)).toBe('2026-12-07');
    expect(lastDayOf('2026-11-24', 'MONTH', 1)).toBe('2026-12-23');
    expect(lastDayOf('2026-11-24', 'YEAR', 3)).toBe('2029-11-23');
  });

  it('ends a month after 31 January at the end of February, not in March', () => {
    expect(lastDayOf('2027-01-31', 'MONTH', 1)).toBe('2027-02-28');
    expect(lastDayOf('2027-01-01', 'MONTH', 1)).toBe('2027-01-31');
    expect(lastDayOf('2028-02-29', 'YEAR', 1)).toBe('2029-02-28');
  });
});
