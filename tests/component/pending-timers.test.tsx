// The document screen says by when a document's timer is due (docs/workflows.md, "Timers"):
// "Reply by <date>" near its status, for the holder and the officers alike, in the page's
// language; a timer without a text of its workflow is said with the engine's "Due by <date>".
import { configure, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionBundle, EntityDefinition } from '../../src/core/definitions/types';
import type { DocumentView } from '../../src/core/documents/types';
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

configure({ asyncUtilTimeout: 25_000 });

let bundle: DefinitionBundle;
let Page: Awaited<ReturnType<typeof documentScreenPage>>;

const workflow: WorkflowDefinition = {
  id: 'sample-permit',
  document: 'sample-permit',
  prefix: '/sample/permit',
  rolePrefix: 'sample-permit-',
  seeAll: ['verify'],
  machine: { id: 'sample-permit', initial: 'NEW', states: {} },
  actions: { 'submit-reply': { roles: ['submit'], owner: true, payload: 'data' } },
  screens: [{ path: '/view/:id', mode: 'view', roles: ['submit', 'verify'] }],
  lists: [],
};

const queried: DocumentView = {
  id: 'd1',
  type: 'sample-permit',
  status: 'QUERIED',
  version: 4,
  number: 'SP-2026-000001',
  year: 2026,
  submittedAt: '2026-01-02T10:00:00.000Z',
  owner: 'owner-1',
  ownerName: 'Jane Doe',
  assignee: null,
  data: { applicant: { familyName: 'Doe' } },
  createdAt: '2026-01-02T10:00:00.000Z',
  createdBy: 'Jane Doe',
  updatedAt: '2026-01-02T10:00:00.000Z',
  updatedBy: 'Officer',
  allowedActions: [],
  timers: [{ name: 'responseDue', dueAt: '2026-03-12T09:30:00.000Z' }],
};

beforeAll(async () => {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
  const sample = await loadSample();
  const own = {
    en: { timers: { responseDue: 'Reply by {{date}}' } },
    fr: { timers: { responseDue: 'Réponse attendue avant le {{date}}' } },
  };
  for (const language of ['en', 'fr'] as const)
    Object.assign(
      sample.texts[language]['sample-permit'] as Record<string, unknown>,
      own[language],
    );
  bundle = await screenBundle(
    workflow,
    { ...(sample.definition as EntityDefinition), sections: [{ id: 'applicant' }] },
    sample.texts,
  );
  Page = await documentScreenPage();
});

const owner = () => sessionOf('sample-permit-', ['submit'], 'owner-1');
const officer = () => sessionOf('sample-permit-', ['verify'], 'officer-1');

describe('a document’s pending timers on its screen', { timeout: 90_000 }, () => {
  it('tells the holder by when to reply, in English', async () => {
    await changeLanguage('en');
    renderScreens(
      Page,
      bundle,
      workflow,
      '/sample/permit/view/d1',
      screenApi(queried).api,
      owner(),
    );
    expect(await screen.findByText('Reply by 12 Mar 2026')).toBeTruthy();
  });

  it('tells an officer the same, in French', async () => {
    await changeLanguage('fr');
    renderScreens(
      Page,
      bundle,
      workflow,
      '/sample/permit/view/d1',
      screenApi(queried).api,
      officer(),
    );
    expect(await screen.findByText('Réponse attendue avant le 12 mars 2026')).toBeTruthy();
    await changeLanguage('en');
  });

  it('says a timer without its own text with the engine’s', async () => {
    await changeLanguage('en');
    const other = {
      ...queried,
      timers: [{ name: 'paymentDue', dueAt: '2026-04-01T00:00:00.000Z' }],
    };
    renderScreens(Page, bundle, workflow, '/sample/permit/view/d1', screenApi(other).api, owner());
    expect(await screen.findByText('Due by 1 Apr 2026')).toBeTruthy();
  });
});
