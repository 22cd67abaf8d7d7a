// The dashboard's message area (InboxArea) as its reader meets it: how many messages are unread,
// unread ones said in words, each message's subject, start, document and date, links to the
// message and to the whole inbox, and its loading, error and empty states.
import fs from 'node:fs/promises';
import path from 'node:path';
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage, initI18n } from '../../src/portal/i18n';
import { InboxArea } from '../../src/portal/pages/dashboard/InboxArea';
import { signedInSession, type Session } from '../../src/portal/session';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

let bundle: DefinitionBundle;

beforeAll(async () => {
  const inbox = await readJson<WorkflowDefinition>('workflows/inbox-message.json');
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const) {
    translations[language] = {
      ...(await readJson<TextTree>(`translations/${language}.json`)),
      'inbox-message': await readJson<TextTree>(`translations/${language}/inbox-message.json`),
    };
  }
  bundle = {
    modules: [],
    catalogs: [],
    workflows: [inbox],
    schemas: [],
    translations,
    version: 'test',
  };
  await initI18n(bundle);
});

afterEach(async () => {
  await changeLanguage('en');
});

function holder(roles = ['inbox-message-read', 'inbox-message-search']): Session {
  return signedInSession(
    { sub: 'holder-1', groups: roles.map((role) => `/${role}`), name: 'Jane Doe' },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
}

const ANSWER = {
  unread: 2,
  workflow: 'inbox-message',
  items: [
    {
      id: 'm1',
      status: 'SENT',
      subject: 'Your application needs a document',
      body: 'Please send a copy of your passport.\nThank you.',
      language: 'en',
      createdAt: '2026-03-04T09:05:00.000Z',
      about: {
        type: 'visa-application',
        title: 'Visa application',
        number: 'VA-2026-000042',
        path: '/visa/application/view/d1',
      },
    },
    {
      id: 'm2',
      status: 'CREATED',
      subject: 'Demande reçue',
      body: 'Nous avons reçu votre demande.',
      language: 'fr',
      createdAt: '2026-03-03T08:00:00.000Z',
      about: null,
    },
    {
      id: 'm3',
      status: 'READ',
      subject: 'Welcome',
      body: 'Welcome to the portal.',
      language: 'en',
      createdAt: '2026-03-01T08:00:00.000Z',
      about: { type: 'visa-application', title: 'Visa application', number: 'VA-2026-000041' },
    },
  ],
};

/** An API whose GET answers what is given (never, when `pending`). */
function apiAnswering(result: ApiResult<unknown> | 'pending') {
  const get = vi.fn(() =>
    result === 'pending' ? new Promise<never>(() => undefined) : Promise.resolve(result),
  );
  return { get, api: { get } as unknown as ApiClient };
}

function renderArea(api: ApiClient, session = holder()) {
  return render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session, api }}>
        <MemoryRouter initialEntries={['/dashboard/home']}>
          <InboxArea />
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
}

describe('dashboard message area', () => {
  it('says how many are unread and shows each message with its links', async () => {
    const { api, get } = apiAnswering([null, ANSWER]);
    renderArea(api);
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Messages 2 unread' }),
    ).toBeTruthy();
    expect(get).toHaveBeenCalledWith('evisa', '/dashboard/inbox?limit=5');
    expect(get).toHaveBeenCalledTimes(1);

    const [first, second, third] = screen.getAllByRole('article');
    const one = within(first!);
    expect(one.getByText('Unread')).toBeTruthy();
    const subject = one.getByText('Your application needs a document');
    expect(subject.getAttribute('lang')).toBe('en');
    expect(one.getByText(/Please send a copy of your passport/).getAttribute('lang')).toBe('en');
    expect(first!.textContent).toContain('About: Visa application VA-2026-000042');
    const time = first!.querySelector('time')!;
    expect(time.getAttribute('datetime')).toBe('2026-03-04T09:05:00.000Z');
    expect(first!.textContent).toContain(`Received ${time.textContent}`);
    expect(
      one
        .getByRole('link', { name: 'Open the message: Your application needs a document' })
        .getAttribute('href'),
    ).toBe('/inbox/message/view/m1');
    expect(
      one
        .getByRole('link', { name: 'Open the document: Visa application VA-2026-000042' })
        .getAttribute('href'),
    ).toBe('/visa/application/view/d1');

    // A message in another language than the page's is marked as such; no document, no line.
    const two = within(second!);
    expect(two.getByText('Unread')).toBeTruthy();
    expect(two.getByText('Demande reçue').getAttribute('lang')).toBe('fr');
    expect(second!.textContent).not.toContain('About:');
    expect(two.queryByRole('link', { name: /Open the document/ })).toBeNull();

    // A read message has no Unread badge; a document without a path is named, not linked.
    const three = within(third!);
    expect(three.queryByText('Unread')).toBeNull();
    expect(third!.textContent).toContain('About: Visa application VA-2026-000041');
    expect(three.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/inbox/message/view/m3',
    ]);

    expect(screen.getByRole('link', { name: 'View all messages' }).getAttribute('href')).toBe(
      '/inbox/message',
    );
  });

  it('shows a loader while loading, then an error when the messages cannot be read', async () => {
    const loading = renderArea(apiAnswering('pending').api);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    loading.unmount();

    renderArea(apiAnswering([{ status: 500, code: 'X', message: 'down' }, null]).api);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Unable to fetch data, you may be offline or not authenticated',
    );
  });

  it('says there are no messages, with no count', async () => {
    renderArea(apiAnswering([null, { unread: 0, workflow: 'inbox-message', items: [] }]).api);
    expect(await screen.findByText('No messages')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Messages');
  });

  it('offers the whole inbox only to whom may open it', async () => {
    renderArea(apiAnswering([null, ANSWER]).api, holder(['inbox-message-read']));
    await screen.findAllByRole('article');
    expect(screen.queryByRole('link', { name: 'View all messages' })).toBeNull();
    expect(screen.getAllByRole('link', { name: /^Open the message/ })).toHaveLength(3);
  });

  it('speaks French', async () => {
    await changeLanguage('fr');
    renderArea(apiAnswering([null, { ...ANSWER, unread: 1 }]).api);
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Messages 1 non lu' }),
    ).toBeTruthy();
    const first = screen.getAllByRole('article')[0]!;
    expect(within(first).getByText('Non lu')).toBeTruthy();
    expect(first.textContent).toContain('Concerne : Visa application VA-2026-000042');
    expect(within(first).getByRole('link', { name: /^Ouvrir le message/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voir tous les messages' })).toBeTruthy();
  });
});
