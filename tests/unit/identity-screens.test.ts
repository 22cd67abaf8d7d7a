import { describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { loadDefinitions } from '../../src/server/definitions/load';
import { translate } from '../../src/core/i18n/translate';

/**
 * How the identity screens name where they lead and what they count (issue 37, point 8): a
 * screen offered as a next step is named by its own label, so an account, group or unit never
 * offers "Save roles" beside its own "Save"; and every identity list counts what it lists
 * ("2 accounts", not "2 documents").
 */
describe('the identity workflows', () => {
  it('name every editing screen another screen leads to, and count their records in words', async () => {
    const definitions = await loadDefinitions('.', serverModules);
    const identity = definitions.workflows.filter((w) => w.backend === 'connectid');
    expect(identity.map((w) => w.id).sort()).toEqual([
      'access-role',
      'access-unit',
      'account',
      'password-policy',
      'user-group',
    ]);
    const unnamed: string[] = [];
    const uncounted: string[] = [];
    for (const workflow of identity) {
      for (const screen of workflow.screens) {
        // A screen saving data, reached from another (not a new record's): a next step.
        const saves = (screen.actions ?? []).some(
          (name) => workflow.actions[name]?.payload === 'data',
        );
        if (saves && screen.mode !== 'new' && !screen.label)
          unnamed.push(`${workflow.id}${screen.path}`);
      }
      for (const list of workflow.lists)
        if (!(list.count ?? workflow.count)) uncounted.push(`${workflow.id}/${list.id}`);
    }
    expect(unnamed).toEqual([]);
    expect(uncounted).toEqual([]);

    // The labels say where they lead, not what the screen's button does there.
    const texts = definitions.translations;
    const unit = identity.find((w) => w.id === 'access-unit')!;
    const labels = unit.screens.flatMap((s) => (s.label ? [translate(texts, 'en', s.label)] : []));
    expect(labels).toEqual(['Edit access unit', 'Change roles']);
    const saves = Object.keys(unit.actions).map((name) =>
      translate(texts, 'en', `actions.${name}`),
    );
    for (const label of labels) expect(saves).not.toContain(label);
    expect(translate(texts, 'fr', 'account.lists.count_other', { count: 2 })).toBe('2 comptes');
  });
});
