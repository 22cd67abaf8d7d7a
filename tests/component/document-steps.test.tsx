// The document screen's way through a workflow, as issue 37 found it wanting: the step the
// workflow expects next stands out among the next steps; a confirmation speaks to whoever acted
// (the holder's "Your reference number" and what happens next, or the officer's); an action that
// keeps the officer on the case leaves them on the screen with the next actions; the reply
// screen shows the officer's question at its top; a screen opens on the first of its named
// sections that applies.
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionBundle, EntityDefinition } from '../../src/core/definitions/types';
import type { DocumentView, HistoryEntry } from '../../src/core/documents/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { changeLanguage } from '../../src/portal/i18n';
import { loadSample } from './harness';
import {
  documentScreenPage,
  renderScreens,
  screenApi,
  screenBundle,
  sessionOf,
} from './screen-harness';

// A screen loads its validators and document first: on a busy machine that takes more than
// Testing Library's one second, so every wait here waits for the state, not for a clock.
configure({ asyncUtilTimeout: 25_000 });

let bundle: DefinitionBundle;
let Page: Awaited<ReturnType<typeof documentScreenPage>>;

/** The sample permit paid for, queried and replied to, verified and forwarded. */
const workflow: WorkflowDefinition = {
  id: 'sample-permit',
  document: 'sample-permit',
  prefix: '/sample/permit',
  rolePrefix: 'sample-permit-',
  seeAll: ['verify'],
  machine: { id: 'sample-permit', initial: 'NEW', states: {} },
  actions: {
    update: { roles: ['submit'], owner: true, payload: 'data' },
    submit: { roles: ['submit'], owner: true, payload: 'data', emphasis: 'primary' },
    cancel: { roles: ['submit'], owner: true, danger: true },
    initiate: { roles: ['submit'], owner: true, emphasis: 'primary' },
    'submit-reply': {
      roles: ['submit'],
      owner: true,
      payload: 'data',
      emphasis: 'primary',
      success: 'sample-permit.success.reply',
    },
    query: { roles: ['verify'], notes: 'required' },
    verify: { roles: ['verify'], emphasis: 'primary', stay: true },
    forward: { roles: ['verify'], emphasis: 'primary' },
  },
  screens: [
    {
      path: '/edit/:id',
      mode: 'edit',
      roles: ['submit'],
      actions: ['update', 'submit', 'cancel'],
      label: 'sample-permit.screens.edit',
    },
    { path: '/view/:id', mode: 'view', roles: ['submit', 'verify'] },
    { path: '/confirmation/:id', mode: 'confirmation', roles: ['submit'], actions: ['initiate'] },
    {
      path: '/replytoquery/:id',
      mode: 'reply-to-query',
      roles: ['submit'],
      actions: ['submit-reply'],
      showNotesOf: ['query'],
    },
    {
      path: '/verification/:id',
      mode: 'verification',
      roles: ['verify'],
      actions: ['verify', 'forward', 'query'],
      editable: [],
      open: ['dependants', 'characterQuestions'],
    },
  ],
  lists: [],
};

const submitted: DocumentView = {
  id: 'd1',
  type: 'sample-permit',
  status: 'SUBMITTED',
  version: 3,
  number: 'SP-2026-000001',
  year: 2026,
  submittedAt: '2026-01-02T10:00:00.000Z',
  owner: 'owner-1',
  ownerName: 'Jane Doe',
  assignee: null,
  data: {
    applicant: { familyName: 'Doe', gender: 'F' },
    dependants: [{ givenName: 'Ann' }],
    characterQuestions: [{ question: 'Ever refused a visa?', answer: false }],
  },
  createdAt: '2026-01-02T10:00:00.000Z',
  createdBy: 'Jane Doe',
  updatedAt: '2026-01-02T10:00:00.000Z',
  updatedBy: 'Jane Doe',
  allowedActions: ['cancel', 'initiate'],
};

const entry = (version: number, action: string, notes: string | null): HistoryEntry => ({
  version,
  action,
  operation: 'PAID FOR VERIFICATION -> QUERIED',
  at: `2026-01-0${version}T10:00:00.000Z`,
  notes,
  name: 'Officer',
  email: null,
  mobile: null,
});

const owner = () => sessionOf('sample-permit-', ['submit'], 'owner-1');
const officer = () => sessionOf('sample-permit-', ['verify'], 'officer-1');

beforeAll(async () => {
  // jsdom has no FontFaceSet; Mantine's autosizing Notes field listens to it.
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
  const sample = await loadSample();
  const entity: EntityDefinition = {
    ...(sample.definition as EntityDefinition),
    sections: [
      { id: 'applicant' },
      // Dependants apply only to some applicants: a screen naming them opens on them only then.
      { id: 'dependants', when: { pointer: '/applicant/gender', in: ['X'] } },
      { id: 'characterQuestions' },
      { id: 'documents' },
    ],
  };
  const own = {
    en: {
      screens: { edit: 'Edit application' },
      success: { reply: 'Your reply is sent to the officer' },
      whatNext: {
        'REPLIED FOR VERIFICATION': { owner: 'The officer goes on checking your application.' },
        FORWARDED: {
          owner: 'Your application moves on.',
          officer: 'A validation officer takes it from here.',
        },
      },
    },
    fr: {
      screens: { edit: 'Modifier la demande' },
      success: { reply: 'Votre réponse est transmise à l’agent' },
      whatNext: {
        'REPLIED FOR VERIFICATION': { owner: 'L’agent poursuit l’examen de votre demande.' },
        FORWARDED: {
          owner: 'Votre demande avance.',
          officer: 'Un agent de validation prend la suite.',
        },
      },
    },
  };
  for (const language of ['en', 'fr'] as const)
    Object.assign(
      sample.texts[language]['sample-permit'] as Record<string, unknown>,
      own[language],
    );
  bundle = await screenBundle(workflow, entity, sample.texts);
  Page = await documentScreenPage();
});

const nextSteps = async () =>
  within(await screen.findByRole('navigation', { name: 'Next steps:' })).getAllByRole('link');

describe('the way through a workflow on the document screen', { timeout: 90_000 }, () => {
  it('makes the step the workflow expects next the primary one, named by what it does', async () => {
    await changeLanguage('en');
    const { api } = screenApi(submitted);
    renderScreens(Page, bundle, workflow, '/sample/permit/view/d1', api, owner());
    const links = await nextSteps();
    // Paying first; the edit screen offers only the cancellation now: it says so, secondary.
    expect(links.map((link) => link.textContent)).toEqual([
      'Initiate payment',
      'Cancel application',
    ]);
    const [pay, cancel] = links as [HTMLElement, HTMLElement];
    expect(pay.getAttribute('data-variant')).toBe('filled');
    expect(pay.getAttribute('data-primary')).toBe('true');
    expect(cancel.getAttribute('data-variant')).toBe('default');
    expect(cancel.getAttribute('data-primary')).toBeNull();
  });

  it('names a screen by its label while it offers more than a destructive action', async () => {
    await changeLanguage('en');
    const stored = {
      ...submitted,
      status: 'STORED',
      allowedActions: ['update', 'submit', 'cancel'],
    };
    renderScreens(Page, bundle, workflow, '/sample/permit/view/d1', screenApi(stored).api, owner());
    const [edit] = await nextSteps();
    expect(edit?.textContent).toBe('Edit application');
    expect(edit?.getAttribute('data-primary')).toBe('true');
  });

  it('shows the holder the officer’s latest question above the reply, then confirms to them', async () => {
    await changeLanguage('en');
    const queried = {
      ...submitted,
      status: 'QUERIED',
      version: 5,
      allowedActions: ['submit-reply'],
    };
    const history = [
      entry(2, 'query', 'Which passport did you travel on?'),
      entry(3, 'submit-reply', 'The old one.'),
      entry(4, 'query', 'Please give a mobile number we can reach you on.'),
      entry(5, 'modify', 'Corrected a typing error.'),
    ];
    const replied = {
      ...queried,
      status: 'REPLIED FOR VERIFICATION',
      version: 6,
      allowedActions: [],
    };
    const { api, post } = screenApi(queried, history, () => replied);
    const router = renderScreens(
      Page,
      bundle,
      workflow,
      '/sample/permit/replytoquery/d1',
      api,
      owner(),
    );
    const question = await screen.findByRole('region', { name: 'The officer’s question' });
    expect(question.textContent).toContain('Please give a mobile number we can reach you on.');
    expect(question.textContent).toContain('04/01/2026');
    expect(question.textContent).not.toContain('Which passport');
    expect(question.textContent).not.toContain('typing error');
    // At the top: before the form and its actions.
    const actions = screen.getByRole('group', { name: 'Actions on this document' });
    expect(
      question.compareDocumentPosition(actions) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();

    fireEvent.click(within(actions).getByRole('button', { name: 'Submit reply' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sample/permit/view/d1'));
    expect(post).toHaveBeenCalledOnce();
    const confirmation = await screen.findByTestId('confirmation');
    expect(confirmation.textContent).toContain('Your reply is sent to the officer');
    expect(confirmation.textContent).not.toContain('Submitted Successfully');
    expect(confirmation.textContent).toContain('Your reference number:');
    expect(confirmation.textContent).toContain('The officer goes on checking your application.');
    // The reader switching language reads all of it in theirs, the success message too.
    await act(() => changeLanguage('fr'));
    expect(confirmation.textContent).toContain('Votre réponse est transmise à l’agent');
    expect(confirmation.textContent).toContain('Votre numéro de référence');
    await act(() => changeLanguage('en'));
  });

  it('keeps the officer on the screen after verifying, with the decision still to take', async () => {
    await changeLanguage('en');
    const paid = {
      ...submitted,
      status: 'PAID FOR VERIFICATION',
      allowedActions: ['verify', 'forward', 'query'],
    };
    const verified = {
      ...paid,
      status: 'VERIFIED',
      version: 4,
      allowedActions: ['forward', 'query'],
    };
    const forwarded = { ...verified, status: 'FORWARDED', version: 5, allowedActions: [] };
    const { api, post } = screenApi(paid, [], (path) =>
      path.endsWith('/verify') ? verified : forwarded,
    );
    const router = renderScreens(
      Page,
      bundle,
      workflow,
      '/sample/permit/verification/d1',
      api,
      officer(),
    );
    const actions = await screen.findByRole('group', { name: 'Actions on this document' });
    fireEvent.click(within(actions).getByRole('button', { name: 'Verify' }));
    await screen.findByText('Application Verified Successfully');
    expect(router.state.location.pathname).toBe('/sample/permit/verification/d1');
    expect(screen.queryByTestId('confirmation')).toBeNull();
    const now = screen.getByRole('group', { name: 'Actions on this document' });
    expect(within(now).queryByRole('button', { name: 'Verify' })).toBeNull();

    // Forwarding moves it on and away: the view, confirmed in the officer's words.
    await act(() => changeLanguage('fr'));
    fireEvent.click(within(now).getByRole('button', { name: 'Transmettre' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sample/permit/view/d1'));
    expect(post).toHaveBeenCalledTimes(2);
    const confirmation = await screen.findByTestId('confirmation');
    expect(confirmation.textContent).toContain('Numéro de référence :');
    expect(confirmation.textContent).not.toContain('Votre numéro');
    expect(confirmation.textContent).toContain('Un agent de validation prend la suite.');
    expect(confirmation.textContent).not.toContain('Votre demande avance.');
    await act(() => changeLanguage('en'));
  });

  // Dependants apply only to an applicant of gender X: the screen names them first.
  it.each([
    ['F', /^Character questions/],
    ['X', /^Dependants/],
  ])(
    'opens on the first section it names that applies (applicant of gender %s)',
    async (gender, opened) => {
      await changeLanguage('en');
      const paid = {
        ...submitted,
        status: 'PAID FOR VERIFICATION',
        data: { ...submitted.data, applicant: { familyName: 'Doe', gender } },
        allowedActions: ['query'],
      };
      renderScreens(
        Page,
        bundle,
        workflow,
        '/sample/permit/verification/d1',
        screenApi(paid).api,
        officer(),
      );
      const list = await screen.findByRole('tablist', { name: 'Sections of the form' });
      expect(within(list).getByRole('tab', { selected: true }).textContent).toMatch(opened);
    },
  );
});
