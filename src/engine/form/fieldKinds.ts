/**
 * Field kinds as registered pairs (JSON Forms' testers and `rankWith`): the best fit draws the
 * field, so a new kind is an entry, not a branch (docs/forms.md, "Field kinds").
 */

/** How well an entry fits a field: NOT_FIT, or a rank, the highest winning. */
export type Tester<F> = (field: F) => number;

export const NOT_FIT = -1;

/** A tester giving `rank` to the fields `test` accepts, NOT_FIT to the others. */
export function rankWith<F>(rank: number, test: (field: F) => boolean): Tester<F> {
  return (field) => (test(field) ? rank : NOT_FIT);
}

export interface FieldKind<F, W> {
  tester: Tester<F>;
  widget: W;
}

/** The widget of the best-fitting entry; the earlier of equal ranks; undefined when none fits. */
export function chooseWidget<F, W>(kinds: readonly FieldKind<F, W>[], field: F): W | undefined {
  let best: FieldKind<F, W> | undefined;
  let bestRank = NOT_FIT;
  for (const kind of kinds) {
    const rank = kind.tester(field);
    if (rank > bestRank) [best, bestRank] = [kind, rank];
  }
  return best?.widget;
}
