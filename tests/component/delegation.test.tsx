// Delegated access on the document screen (docs/delegation.md, "In the portal"): the holder reads
// who may act for them in words, adds a delegate in a dialog (errors per field, the server's too)
// and revokes one after a confirmation; the delegate reads for whom they act and what they may
// do, and finds the holder's own sections read-only; a delegate's history line names the holder.
import fs from 'node:fs/promises';
import path from 'node:path';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { DefinitionBundle, EntityDefinition } from '../../src/core/definitions/types';
import type { DocumentView, HistoryEntry } from '../../src/core/documents/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import type { Delegation } from '../../src/engine/documents/delegation';
import { withoutHolderOnly } from '../../src/engine/documents/delegation';
import { changeLanguage } from '../../src/portal/i18n';
import { MemoryRouter } from 'react-router-dom';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { PortalContext } from '../../src/portal/context';
import { MyLibraryPage } from '../../src/portal/pages/dashboard/MyLibraryPage';
import { loadSample } from './harness';
import { documentScreenPage, renderScreens, screenBundle, sessionOf } from './screen-harness';

configure({ asyncUtilTimeout: 25_000 });

const workflow = {
  id: 'sample-permit',
  document: 'sample-permit',
  prefix: '/sample/permit',
  rolePrefix: 'sample-permit-',
  seeAll: ['search'],
  machine: { id: 'sample-permit', initial: 'NEW', states: {} },
  actions: {
    update: { roles: ['submit'], owner: true, payload: 'data' },
    submit: { roles: ['submit'], owner: true, payload: 'data' },
    cancel: { roles: ['submit'], owner: true, danger: true },
  },
  screens: [
    { path: '/edit/:id', mode: 'edit', roles: ['submit'], actions: ['update', 'submit', 'cancel'] },
    { path: '/view/:id', mode: 'view', roles: ['read'] },
  ],
  lists: [],
  delegation: {
    grants: [
      { id: 'fill', label: 'sample-permit.delegation.fill', actions: ['update'] },
      { id: 'submit', label: 'sample-permit.delegation.submit', actions: ['submit'] },
    ],
    holderOnly: ['/dependants'],
    maxDays: 365,
  },
} as unknown as WorkflowDefinition;

const stored: DocumentView = {
  id: 'd1',
  type: 'sample-permit',
  status: 'STORED',
  version: 1,
  number: null,
  year: null,
  submittedAt: null,
  owner: 'holder-1',
  ownerName: 'Ana Tuilagi',
  assignee: null,
  data: {
    applicant: { familyName: 'Tuilagi', birthDate: '1990-03-15' },
    dependants: [{ givenName: 'Sina' }],
  },
  createdAt: '2026-01-02T10:00:00.000Z',
  createdBy: 'Ana Tuilagi',
  updatedAt: '2026-01-02T10:00:00.000Z',
  updatedBy: 'Ana Tuilagi',
  allowedActions: ['update', 'submit', 'cancel'],
};

const ACTIVE: Delegation = {
  id: 'g1',
  type: 'sample-permit',
  documentId: 'd1',
  documentNumber: null,
  delegate: 'bo.adviser@example.org',
  grants: ['fill', 'submit'],
  until: '2026-12-31',
  createdAt: '2026-01-03T10:00:00.000Z',
  revokedAt: null,
  state: 'active',
};
const REVOKED: Delegation = {
  ...ACTIVE,
  id: 'g2',
  documentId: null,
  delegate: 'old.friend',
  grants: ['fill'],
  until: null,
  revokedAt: '2026-01-04T10:00:00.000Z',
  state: 'revoked',
};

let bundle: DefinitionBundle;
let Page: Awaited<ReturnType<typeof documentScreenPage>>;

beforeAll(async () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const sample = await loadSample();
  const entity = {
    ...(sample.definition as EntityDefinition),
    sections: [{ id: 'applicant' }, { id: 'dependants' }, { id: 'characterQuestions' }],
  };
  for (const language of ['en', 'fr'] as const) {
    sample.texts[language].delegates = JSON.parse(
      await fs.readFile(path.join(root, `translations/${language}/delegates.json`), 'utf8'),
    ) as TextTree;
    (sample.texts[language]['sample-permit'] as Record<string, unknown>).delegation =
      language === 'en'
        ? { fill: 'Fill in the application', submit: 'Submit it' }
        : { fill: 'Remplir la demande', submit: 'La soumettre' };
  }
  bundle = await screenBundle(workflow, entity, sample.texts);
  Page = await documentScreenPage();
});

type Answer = [unknown, unknown];

/** An API answering the document, its history and the delegation routes as `routes` says. */
function fakeApi(
  document: DocumentView,
  history: HistoryEntry[],
  routes: {
    get?: (path: string) => Answer | undefined;
    post?: (path: string, body: unknown) => Answer;
  },
) {
  const get = vi.fn(async (_backend: string, path: string): Promise<Answer> => {
    const own = routes.get?.(path);
    if (own) return own;
    if (path.endsWith('/history')) return [null, history];
    if (path.endsWith('/versions')) return [null, []];
    if (path.includes('/options')) return [null, { items: [] }];
    return [null, document];
  });
  const post = vi.fn(
    async (_backend: string, path: string, body: unknown): Promise<Answer> =>
      routes.post?.(path, body) ?? [{ status: 500, code: 'X', message: 'no' }, null],
  );
  return { api: { get, post } as unknown as ApiClient, get, post };
}

const holder = () => sessionOf('sample-permit-', ['submit', 'read'], 'holder-1');
const delegate = () => sessionOf('sample-permit-', ['submit', 'read'], 'delegate-1');

describe('delegated access on the document screen', { timeout: 90_000 }, () => {
  it('shows the holder who may act for them, in words', async () => {
    await changeLanguage('en');
    const { api, get } = fakeApi(stored, [], {
      get: (p) =>
        p === '/sample-permit/d1/delegations' ? [null, { items: [ACTIVE, REVOKED] }] : undefined,
    });
    renderScreens(Page, bundle, workflow, '/sample/permit/edit/d1', api, holder());
    const panel = await screen.findByRole('region', { name: 'People who may act for you' });
    await waitFor(() => expect(panel.querySelectorAll('li')).toHaveLength(2));
    expect(get).toHaveBeenCalledWith('evisa', '/sample-permit/d1/delegations');
    const [active, revoked] = within(panel).getAllByRole('listitem');
    expect(active?.textContent).toContain('bo.adviser@example.org');
    expect(active?.textContent).toContain('Active');
    expect(active?.textContent).toContain('May fill in the application and submit it');
    expect(active?.textContent).toContain('This one only · until 31/12/2026');
    expect(revoked?.textContent).toContain('Revoked');
    expect(revoked?.textContent).toContain(
      'All my documents of this kind (Sample permit), now and later · until you revoke it',
    );
    // Only an active delegation can be revoked.
    expect(within(panel).getAllByRole('button', { name: /^Revoke/ })).toHaveLength(1);
  });

  it('speaks French to the holder', async () => {
    await changeLanguage('fr');
    const { api } = fakeApi(stored, [], {
      get: (p) => (p === '/sample-permit/d1/delegations' ? [null, { items: [ACTIVE] }] : undefined),
    });
    renderScreens(Page, bundle, workflow, '/sample/permit/edit/d1', api, holder());
    const panel = await screen.findByRole('region', { name: 'Personnes pouvant agir pour vous' });
    await waitFor(() =>
      expect(panel.textContent).toContain('Peut remplir la demande et la soumettre'),
    );
    expect(panel.textContent).toContain("jusqu'au 31/12/2026");
    expect(panel.textContent).toContain('Active');
    await act(() => changeLanguage('en'));
  });

  it("adds a delegate: what is missing said per field, the server's refusal at its field", async () => {
    await changeLanguage('en');
    const user = userEvent.setup();
    let items: Delegation[] = [];
    const bodies: unknown[] = [];
    const { api, post } = fakeApi(stored, [], {
      get: (p) => (p === '/sample-permit/d1/delegations' ? [null, { items }] : undefined),
      post: (p, body) => {
        if (p !== '/sample-permit/delegations')
          return [{ status: 500, code: 'X', message: 'no' }, null];
        bodies.push(body);
        if ((body as { delegate: string }).delegate === 'me')
          return [
            {
              status: 400,
              code: 'VALIDATION_FAILED',
              message: 'Some fields are invalid.',
              fields: [{ path: '/delegate', rule: 'self', message: 'You cannot name yourself.' }],
            },
            null,
          ];
        items = [
          { ...ACTIVE, id: 'g9', delegate: 'bo', grants: ['fill'], documentId: null, until: null },
        ];
        return [null, items[0]];
      },
    });
    renderScreens(Page, bundle, workflow, '/sample/permit/edit/d1', api, holder());
    const panel = await screen.findByRole('region', { name: 'People who may act for you' });
    await within(panel).findByText('Nobody may act for you.');
    await user.click(within(panel).getByRole('button', { name: 'Add a delegate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a delegate' });
    expect(dialog.textContent).toContain('Your declarations stay your own');
    await user.click(within(dialog).getByRole('button', { name: 'Add the delegate' }));
    expect(dialog.textContent).toContain('Give their sign-in name or e-mail address.');
    expect(dialog.textContent).toContain('Choose at least one thing they may do.');
    expect(post).not.toHaveBeenCalled();

    const who = within(dialog).getByRole('textbox', { name: /sign-in name or e-mail/ });
    await user.type(who, 'me');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Fill in the application' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add the delegate' }));
    await within(dialog).findByText('You cannot name yourself.');
    expect(who.getAttribute('aria-invalid')).toBe('true');
    expect(bodies[0]).toEqual({ delegate: 'me', grants: ['fill'], documentId: 'd1' });

    await user.clear(who);
    await user.type(who, 'bo');
    await user.click(within(dialog).getByRole('radio', { name: /All my documents of this kind/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add the delegate' }));
    await within(panel).findByText('bo may now act for you.');
    expect(bodies[1]).toEqual({ delegate: 'bo', grants: ['fill'] });
    await waitFor(() => expect(panel.querySelectorAll('li')).toHaveLength(1));
  });

  it('revokes a delegate only once the holder confirms', async () => {
    await changeLanguage('en');
    const user = userEvent.setup();
    let items: Delegation[] = [ACTIVE];
    const { api, post } = fakeApi(stored, [], {
      get: (p) => (p === '/sample-permit/d1/delegations' ? [null, { items }] : undefined),
      post: (p) => {
        items = [{ ...ACTIVE, state: 'revoked', revokedAt: '2026-01-05T10:00:00.000Z' }];
        return p === '/sample-permit/delegations/g1/revoke'
          ? [null, items[0]]
          : [{ status: 500, code: 'X', message: 'no' }, null];
      },
    });
    renderScreens(Page, bundle, workflow, '/sample/permit/edit/d1', api, holder());
    const panel = await screen.findByRole('region', { name: 'People who may act for you' });
    await user.click(
      await within(panel).findByRole('button', { name: 'Revoke bo.adviser@example.org' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this delegate?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(post).not.toHaveBeenCalled();
    await user.click(within(panel).getByRole('button', { name: 'Revoke bo.adviser@example.org' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke this delegate?' })).getByRole(
        'button',
        { name: 'Revoke' },
      ),
    );
    expect(post).toHaveBeenCalledWith('evisa', '/sample-permit/delegations/g1/revoke', {});
    await within(panel).findByText('bo.adviser@example.org may no longer act for you.');
    await waitFor(() => expect(panel.textContent).toContain('Revoked'));
  });

  it("tells the delegate for whom they act, keeps the holder's own section read-only, names the holder in the history", async () => {
    await changeLanguage('en');
    const user = userEvent.setup();
    const acting = {
      ...stored,
      delegation: {
        holderName: 'Ana Tuilagi',
        grants: ['fill', 'submit'],
        holderOnly: ['/dependants'],
      },
    };
    const history: HistoryEntry[] = [
      {
        version: 2,
        action: 'update',
        operation: 'STORED -> STORED',
        at: '2026-01-05T10:00:00.000Z',
        notes: null,
        name: 'Bo Adviser',
        email: null,
        mobile: null,
        onBehalfOf: 'Ana Tuilagi',
      } as HistoryEntry,
    ];
    const { api, get } = fakeApi(acting, history, {});
    renderScreens(Page, bundle, workflow, '/sample/permit/edit/d1', api, delegate());
    const notice = await screen.findByRole('note');
    expect(notice.textContent).toContain(
      'You are acting for Ana Tuilagi: you may fill in the application and submit it.',
    );
    // The holder's panel is theirs: the delegate is not offered it, nor is it asked for.
    expect(screen.queryByRole('region', { name: 'People who may act for you' })).toBeNull();
    expect(get.mock.calls.some(([, p]) => String(p).endsWith('/delegations'))).toBe(false);
    // The delegate fills in the applicant; the dependants (holder-only) are shown, not editable.
    await screen.findByRole('textbox', { name: /Family name/ });
    const list = await screen.findByRole('tablist', { name: 'Sections of the form' });
    await user.click(within(list).getByRole('tab', { name: /^Dependants/ }));
    await screen.findByTestId('readonly-dependants');
    expect(screen.queryByRole('textbox', { name: /Given name/ })).toBeNull();
    const table = await screen.findByRole('region', { name: 'Action history' });
    await waitFor(() => expect(table.textContent).toContain('Bo Adviser on behalf of Ana Tuilagi'));
  });
});

describe('My Library', () => {
  it('says for whom a delegated document is, in English and French', async () => {
    const row = (id: string, extra: object) => ({
      workflow: 'sample-permit',
      documentType: 'sample-permit',
      id,
      number: `SP-${id}`,
      reference: null,
      status: 'STORED',
      updatedAt: '2026-01-05T10:00:00.000Z',
      submittedAt: null,
      ...extra,
    });
    const search = vi.fn(async () => [
      null,
      {
        items: [row('1', { delegated: true, holderName: 'Ana Tuilagi' }), row('2', {})],
        total: 2,
        page: 1,
        itemsPerPage: 10,
        capped: false,
      },
    ]);
    // A laptop's window: every column shown (jsdom matches no media query of its own).
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: true,
    })) as typeof window.matchMedia;
    for (const language of ['en', 'fr'] as const) {
      await changeLanguage(language);
      const { unmount } = render(
        <MantineProvider env="test">
          <PortalContext.Provider
            value={{ bundle, session: delegate(), api: { search } as unknown as ApiClient }}
          >
            <MemoryRouter>
              <MyLibraryPage />
            </MemoryRouter>
          </PortalContext.Provider>
        </MantineProvider>,
      );
      await waitFor(() => expect(search).toHaveBeenCalled());
      const marks = await screen.findAllByText(
        language === 'en' ? 'For Ana Tuilagi' : 'Pour Ana Tuilagi',
      );
      // The holder's own row says nothing of the kind.
      expect(marks).toHaveLength(1);
      expect(marks[0]?.closest('tr')?.textContent).toContain('SP-1');
      unmount();
    }
    window.matchMedia = matchMedia;
    await changeLanguage('en');
  });
});

describe('the holder-only sections', () => {
  it('closes the sections holding a holder-only pointer, whole or in part', () => {
    const all = ['a', 'declarations', 'c'];
    expect(withoutHolderOnly('all', all, [])).toBe('all');
    expect(withoutHolderOnly('all', all, ['/declarations'])).toEqual(['a', 'c']);
    expect(withoutHolderOnly(['a', 'declarations'], all, ['/declarations/consent'])).toEqual(['a']);
  });
});
