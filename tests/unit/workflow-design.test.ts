import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/definitions/types';
import { isNode, type Node } from '../../src/core/definitions/json';
import { setText } from '../../src/core/studio/text-keys';
import {
  actionsLeftUnused,
  addStatus,
  addTransition,
  removeStatus,
  removeTransition,
  renameStatus,
  setTransition,
  textPlace,
  transitionsNaming,
  WorkflowDesignError,
} from '../../src/core/studio/workflow-design';
import { serverModules } from '../../src/modules/server';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { checkDefinitions, DefinitionsError } from '../../src/server/definitions/load';
import { PROJECT_ROOT } from '../../src/server/config';

/**
 * The studio's edits of a workflow's machine: each result is a definition the server's own
 * checker accepts (with the texts the studio writes beside it), and each refusal says why.
 */
const VISA = 'workflows/visa-application.json';
let files: Map<string, string>;
let visa: WorkflowDefinition;

beforeAll(async () => {
  files = await readDefinitionFiles(PROJECT_ROOT);
  visa = JSON.parse(files.get(VISA)!) as WorkflowDefinition;
});

/** The project's files with the visa workflow changed and texts set in both languages. */
async function problemsWith(
  workflow: WorkflowDefinition,
  texts: Record<string, [string, string]> = {},
): Promise<Array<{ pointer: string; message: string }>> {
  const edited = new Map(files);
  edited.set(VISA, JSON.stringify(workflow));
  for (const [language, i] of [
    ['en', 0],
    ['fr', 1],
  ] as const) {
    let tree = JSON.parse(edited.get(`translations/${language}.json`)!) as Node;
    for (const [key, pair] of Object.entries(texts)) tree = setText(tree, key, pair[i]);
    edited.set(`translations/${language}.json`, JSON.stringify(tree));
  }
  try {
    await checkDefinitions(edited, serverModules);
    return [];
  } catch (error) {
    if (error instanceof DefinitionsError) return error.problems;
    throw error;
  }
}

const refusal = (edit: () => unknown) => {
  try {
    edit();
  } catch (error) {
    if (error instanceof WorkflowDesignError) return { code: error.code, params: error.params };
    throw error;
  }
  throw new Error('the edit was accepted');
};

const legalReview = () => {
  let next = addStatus(visa, 'LEGAL REVIEW');
  next = addTransition(next, {
    from: 'FORWARDED',
    to: 'LEGAL REVIEW',
    action: 'legal-review',
    roles: ['escalate'],
    screens: [next.screens.findIndex((s) => s.path === '/validation/:id')],
  });
  return addTransition(next, {
    from: 'LEGAL REVIEW',
    to: 'ESCALATED',
    action: 'escalate',
    roles: [],
  });
};

const LEGAL_TEXTS: Record<string, [string, string]> = {
  'statuses.LEGAL REVIEW': ['Legal review', 'Examen juridique'],
  'actions.legal-review': ['Send to legal review', 'Envoyer en examen juridique'],
};

describe('adding a status and the transitions to and from it', () => {
  it('declares the new action with its roles, offers it on a screen, and passes the checker', async () => {
    const next = legalReview();
    expect(next.machine.states['LEGAL REVIEW']).toEqual({ on: { escalate: 'ESCALATED' } });
    expect((next.machine.states.FORWARDED as Node).on).toMatchObject({
      'legal-review': 'LEGAL REVIEW',
    });
    expect(next.actions['legal-review']).toEqual({ roles: ['escalate'] });
    // A declared action keeps its settings; it is now also taken from the new status.
    expect(next.actions.escalate).toEqual(visa.actions.escalate);
    expect(next.screens.find((s) => s.path === '/validation/:id')?.actions).toContain(
      'legal-review',
    );
    expect(visa.machine.states['LEGAL REVIEW']).toBeUndefined();
    expect(await problemsWith(next, LEGAL_TEXTS)).toEqual([]);
  });

  it('is refused by the checker without the texts, which the studio writes beside it', async () => {
    const problems = await problemsWith(legalReview());
    expect(problems.map((p) => p.pointer)).toEqual(
      expect.arrayContaining(['/machine/states/LEGAL REVIEW', '/actions/legal-review']),
    );
  });

  it('refuses names the machine cannot have, a second event of a status, and a new action without roles', () => {
    expect(refusal(() => addStatus(visa, 'Legal review'))).toMatchObject({ code: 'statusName' });
    expect(refusal(() => addStatus(visa, 'FORWARDED'))).toMatchObject({ code: 'statusExists' });
    expect(
      refusal(() =>
        addTransition(visa, { from: 'FORWARDED', to: 'GRANTED', action: 'issue', roles: [] }),
      ),
    ).toEqual({ code: 'transitionExists', params: { from: 'FORWARDED', action: 'issue' } });
    expect(
      refusal(() =>
        addTransition(visa, { from: 'FORWARDED', to: 'GRANTED', action: 'new-step', roles: [] }),
      ),
    ).toMatchObject({ code: 'noRoles' });
    expect(
      refusal(() =>
        addTransition(visa, { from: 'FORWARDED', to: 'NOWHERE', action: 'go', roles: ['x'] }),
      ),
    ).toMatchObject({ code: 'noStatus' });
    expect(
      refusal(() =>
        addTransition(visa, { from: 'FORWARDED', to: 'GRANTED', action: 'Go', roles: ['x'] }),
      ),
    ).toMatchObject({ code: 'actionName' });
  });
});

describe('changing a transition', () => {
  it('sets its target and guard, and writes a lone unguarded one as its target', async () => {
    const ref = { from: 'ESCALATED', action: 'return', index: 0 };
    const guarded = setTransition(visa, ref, {
      target: 'VERIFIED',
      guard: { type: 'previousStatusIs', params: { status: 'FORWARDED' } },
    });
    expect((guarded.machine.states.ESCALATED as Node).on).toMatchObject({
      return: {
        target: 'VERIFIED',
        guard: { type: 'previousStatusIs', params: { status: 'FORWARDED' } },
      },
    });
    expect(await problemsWith(guarded)).toEqual([]);
    const plain = setTransition(guarded, ref, { target: 'FORWARDED' });
    expect(plain).toEqual(visa);
  });
});

describe('renaming a status', () => {
  it('renames it in every transition, list and guard, and moves its documents', async () => {
    const next = renameStatus(visa, 'STORED', 'SAVED');
    expect(Object.keys(next.machine.states)).toContain('SAVED');
    expect(Object.keys(next.machine.states)).not.toContain('STORED');
    expect((next.machine.states.NEW as Node).on).toMatchObject({ store: 'SAVED' });
    expect(JSON.stringify(next.machine)).not.toContain('"STORED"');
    expect(next.statusMoves).toEqual({ STORED: 'SAVED' });
    expect(await problemsWith(next, { 'statuses.SAVED': ['Saved', 'Enregistré'] })).toEqual([]);
  });

  it('refuses to rename the initial status or to a name taken', () => {
    expect(refusal(() => renameStatus(visa, 'NEW', 'OPEN'))).toMatchObject({
      code: 'initialStatus',
    });
    expect(refusal(() => renameStatus(visa, 'STORED', 'SUBMITTED'))).toMatchObject({
      code: 'statusExists',
    });
  });
});

describe('removing', () => {
  it('a transition: and its action with it when no status offers it any more, screens included', async () => {
    const next = removeTransition(legalReview(), {
      from: 'FORWARDED',
      action: 'legal-review',
      index: 0,
    });
    expect(next.actions['legal-review']).toBeUndefined();
    expect(JSON.stringify(next.screens)).not.toContain('legal-review');
    expect(actionsLeftUnused(legalReview(), next)).toEqual(['legal-review']);
    // An action still offered elsewhere stays.
    const escalateGone = removeTransition(visa, {
      from: 'FORWARDED',
      action: 'escalate',
      index: 0,
    });
    expect(escalateGone.actions.escalate).toBeUndefined();
    const issueOnce = removeTransition(visa, { from: 'FORWARDED', action: 'issue', index: 0 });
    expect(issueOnce.actions.issue).toEqual(visa.actions.issue);
    expect(await problemsWith(issueOnce)).toEqual([]);
  });

  it('an alternative of an event: the one left is written as its target', () => {
    const next = removeTransition(visa, { from: 'STORED', action: 'submit', index: 0 });
    expect((next.machine.states.STORED as Node).on).toMatchObject({
      submit: 'SUBMITTED FOR VERIFICATION',
    });
  });

  it('a status other transitions name is refused, or removes them too when asked', async () => {
    expect(transitionsNaming(visa, 'ESCALATED')).toEqual([
      { from: 'FORWARDED', action: 'escalate', index: 0 },
    ]);
    expect(refusal(() => removeStatus(visa, 'ESCALATED'))).toEqual({
      code: 'statusInUse',
      params: { status: 'ESCALATED', count: '1' },
    });
    const next = removeStatus(visa, 'ESCALATED', { withTransitions: true, moveTo: 'FORWARDED' });
    expect(next.machine.states.ESCALATED).toBeUndefined();
    expect((next.machine.states.FORWARDED as Node).on).not.toHaveProperty('escalate');
    // Only ESCALATED offered approve and return: they go, and the screens stop naming them.
    for (const action of ['escalate', 'approve', 'return'])
      expect(next.actions[action]).toBeUndefined();
    expect(next.screens.find((s) => s.path === '/approval/:id')?.actions).toEqual([]);
    expect(next.statusMoves).toEqual({ ESCALATED: 'FORWARDED' });
    const problems = await problemsWith(next);
    // Nothing of the machine is left naming it; other definitions may still list it.
    expect(problems.filter((p) => /ESCALATED|escalate|approve|return/.test(p.message))).toEqual([]);
  });

  it('never the initial status', () => {
    expect(refusal(() => removeStatus(visa, 'NEW'))).toMatchObject({ code: 'initialStatus' });
  });
});

describe('where a text is kept', () => {
  it("in the module's own file when it has one, else in the shared file", () => {
    const has = (file: string) => file === 'translations/fr/visa-application.json';
    expect(textPlace('visa-application.lists.find', 'fr', has)).toEqual({
      file: 'translations/fr/visa-application.json',
      key: 'lists.find',
    });
    expect(textPlace('statuses.LEGAL REVIEW', 'fr', has)).toEqual({
      file: 'translations/fr.json',
      key: 'statuses.LEGAL REVIEW',
    });
  });
});

it('keeps the definition given untouched', () => {
  const before = JSON.stringify(visa);
  legalReview();
  removeStatus(visa, 'ESCALATED', { withTransitions: true });
  renameStatus(visa, 'STORED', 'SAVED');
  expect(JSON.stringify(visa)).toBe(before);
  expect(isNode(visa.machine.states.STORED)).toBe(true);
});
