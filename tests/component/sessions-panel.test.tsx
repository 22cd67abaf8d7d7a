// The security page's sessions (docs/identity.md, "Sessions"): the person's sessions in words
// (device, network, sign-in and its method, last use), this device marked and never offered
// for signing out; signing out one or all the others only after a question, the result said
// aloud; a refusal in the reader's language; a service account's own API credentials listed.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import { formatDateTime } from '../../src/core/format';
import type { OwnApiCredentials } from '../../src/modules/connectid/portal/OwnApiCredentialsPanel';
import { SecurityPage } from '../../src/modules/connectid/portal/SecurityPage';
import type { AccountSession } from '../../src/modules/connectid/portal/SessionsPanel';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import { signedOutSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

beforeAll(async () => {
  await initPortalTexts(['security']);
});

afterEach(async () => {
  await changeLanguage('en');
});

const SESSIONS: AccountSession[] = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    device: 'Chrome on Linux',
    browser: 'Chrome',
    os: 'Linux',
    addressClass: '203.0.113.0/24',
    signedInAt: '2026-11-29T08:00:00.000Z',
    lastUsedAt: '2026-11-29T09:30:00.000Z',
    method: 'password',
    current: true,
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    device: 'Safari on iOS',
    browser: 'Safari',
    os: 'iOS',
    addressClass: 'local',
    signedInAt: '2026-11-20T18:00:00.000Z',
    lastUsedAt: '2026-11-28T07:15:00.000Z',
    method: 'passkey',
    current: false,
  },
  {
    id: '33333333-3333-4333-8333-333333333333',
    device: 'Unknown browser on an unknown system',
    browser: 'unknown',
    os: 'unknown',
    addressClass: '2001:db8:1::/48',
    signedInAt: '2026-11-02T10:00:00.000Z',
    lastUsedAt: '2026-11-02T10:05:00.000Z',
    method: 'password',
    current: false,
  },
];

const PERSON: OwnApiCredentials = {
  service: false,
  active: false,
  clientId: 'p1',
  issuedAt: null,
  issuedBy: null,
  revokedAt: null,
  revokedBy: null,
  tokenUrl: 'http://localhost/token',
};

type Answer = ApiResult<unknown>;

/** A change's answer and the sessions the server lists after it (unchanged when refused). */
interface Change {
  answer: Answer;
  after?: AccountSession[];
}

/** The page over an API listing `sessions` until a change answers with others. */
function renderPage(
  sessions: AccountSession[],
  changes: Change[] = [],
  credentials: Answer = [null, PERSON],
) {
  let listed = sessions;
  const get = vi.fn(async (_backend: string, path: string) =>
    path === '/account/api-credentials' ? credentials : [null, { items: listed }],
  );
  const change = async () => {
    const next = changes.shift()!;
    if (next.after) listed = next.after;
    return next.answer;
  };
  const del = vi.fn(change);
  const post = vi.fn(change);
  const api = { get, post, delete: del } as unknown as ApiClient;
  render(
    <MantineProvider env="test">
      <PortalContext.Provider
        value={{
          bundle: {} as DefinitionBundle,
          session: signedOutSession(vi.fn()),
          api,
        }}
      >
        <SecurityPage />
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return { get, post, del };
}

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('the sessions on the security page', () => {
  it('lists the sessions in words, this device marked, in English and in French', async () => {
    const { get } = renderPage(SESSIONS);
    expect(screen.getByText('Loading your sessions…')).toBeTruthy();
    const region = await screen.findByRole('region', { name: 'Where you are signed in' });
    const table = await within(region).findByRole('table');
    expect(get).toHaveBeenCalledWith('system', '/account/sessions');
    const [, here, phone, unknown] = within(table).getAllByRole('row');
    expect(cellsOf(here!)).toEqual([
      'Chrome on Linux',
      'Network 203.0.113.0/24',
      `${formatDateTime(SESSIONS[0]!.signedInAt)}with a password`,
      formatDateTime(SESSIONS[0]!.lastUsedAt),
      'This device',
    ]);
    // This device is never offered for signing out here (the portal's own sign-out does it).
    expect(within(here!).queryByRole('button')).toBeNull();
    expect(cellsOf(phone!).slice(0, 3)).toEqual([
      'Safari on iOS',
      'Local network',
      `${formatDateTime(SESSIONS[1]!.signedInAt)}with a passkey`,
    ]);
    expect(cellsOf(unknown!)[0]).toBe('Unknown browser on an unknown system');
    // A person's account holds no API credentials: the section is not shown.
    expect(screen.queryByRole('region', { name: 'Your API credentials' })).toBeNull();

    await changeLanguage('fr');
    expect(await screen.findByRole('region', { name: 'Où vous êtes connecté' })).toBeTruthy();
    expect(within(table).getByText('Safari sur iOS')).toBeTruthy();
    expect(within(table).getByText('Navigateur inconnu sur un système inconnu')).toBeTruthy();
    expect(within(table).getByText('Réseau local')).toBeTruthy();
    expect(within(table).getByText('Cet appareil')).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Déconnecter Safari sur iOS' })).toBeTruthy();
  });

  it('signs one session out only once asked, and says so', async () => {
    const { del } = renderPage(SESSIONS, [
      { answer: [null, null], after: [SESSIONS[0]!, SESSIONS[2]!] },
    ]);
    const phone = await screen.findByRole('button', { name: 'Sign out Safari on iOS' });
    // Going back sends nothing.
    fireEvent.click(phone);
    let dialog = await screen.findByRole('dialog', { name: 'Sign out this session?' });
    expect(dialog.textContent).toContain('Safari on iOS will be signed out at once');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(del).not.toHaveBeenCalled();

    fireEvent.click(phone);
    dialog = await screen.findByRole('dialog', { name: 'Sign out this session?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Safari on iOS is signed out.')).toBeTruthy();
    expect(del).toHaveBeenCalledWith('system', `/account/sessions/${SESSIONS[1]!.id}`);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Sign out Safari on iOS' })).toBeNull(),
    );
  });

  it('signs out everywhere else once asked, and says a refusal in words', async () => {
    const { post } = renderPage(SESSIONS, [
      {
        answer: [
          { status: 503, code: 'UNAVAILABLE', message: 'The service is busy: try again.' },
          null,
        ],
      },
      { answer: [null, { ended: 2 }], after: [SESSIONS[0]!] },
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    let dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else' });
    expect(dialog.textContent).toContain('The 2 other sessions will be signed out at once');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));
    // The sessions' own alert (the page's other sections may have theirs).
    const sessions = screen.getByRole('region', { name: 'Where you are signed in' });
    expect((await within(sessions).findByRole('alert')).textContent).toBe(
      'The service is busy: try again.',
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByText('2 other sessions are signed out.')).toBeTruthy();
    expect(post).toHaveBeenCalledWith('system', '/account/sessions/end-others');
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull(),
    );
    expect(within(sessions).queryByRole('alert')).toBeNull();
  });

  it("lists a service account's own API credentials: issued when and by whom", async () => {
    renderPage(
      [SESSIONS[0]!],
      [],
      [
        null,
        {
          ...PERSON,
          service: true,
          active: true,
          clientId: '6f1c0a52-0000-4000-8000-000000000001',
          issuedAt: '2026-11-01T09:00:00.000Z',
          issuedBy: 'Iosefa Admin',
        },
      ],
    );
    const region = await screen.findByRole('region', { name: 'Your API credentials' });
    await within(region).findByText('Active');
    expect(
      within(region).getByText(`${formatDateTime('2026-11-01T09:00:00.000Z')} by Iosefa Admin`),
    ).toBeTruthy();
    expect(within(region).getByText('6f1c0a52-0000-4000-8000-000000000001')).toBeTruthy();
  });
});
