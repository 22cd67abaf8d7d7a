import { describe, expect, it } from 'vitest';
import { chooseWidget, NOT_FIT, rankWith, type FieldKind } from '../../src/engine/form/fieldKinds';

interface Field {
  type: string;
  money?: boolean;
}

/** Field kinds are registered (tester, widget) pairs: the best fit wins, never an if-chain. */
describe('field kinds', () => {
  const kinds: Array<FieldKind<Field, string>> = [
    { tester: rankWith(0, () => true), widget: 'text' },
    { tester: rankWith(2, (f) => f.type === 'number'), widget: 'number' },
    { tester: rankWith(2, (f) => f.type === 'number'), widget: 'later' },
    { tester: rankWith(5, (f) => f.money === true), widget: 'money' },
  ];

  it('draws a field with the entry that fits it best, the earlier of equal ranks', () => {
    expect(chooseWidget(kinds, { type: 'string' })).toBe('text');
    expect(chooseWidget(kinds, { type: 'number' })).toBe('number');
    expect(chooseWidget(kinds, { type: 'number', money: true })).toBe('money');
  });

  it('finds nothing when no entry fits', () => {
    expect(rankWith(3, () => false)({ type: 'string' })).toBe(NOT_FIT);
    expect(chooseWidget(kinds.slice(1), { type: 'string' })).toBeUndefined();
  });
});
