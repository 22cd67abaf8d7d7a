// "My data": the archive is downloaded with the person's token and says when it is done or
// failed; the closure is asked only after a confirmation with a reason (none: nothing sent),
// and a request waiting for the administrators is shown as such, in English and French.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import { MyDataPage } from '../../src/modules/connectid/portal/MyDataPage';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import type { Session } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

beforeAll(() => initPortalTexts(['my-data']));
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

const ID = '6f1c7a8e-2f2b-4f0e-9a57-1d1a0c2b3e4f';
const account = (status: string, allowedActions: string[]) => ({
  id: ID,
  version: 4,
  status,
  allowedActions,
});

function renderPage(answer: Promise<ApiResult<unknown>>, post = vi.fn()) {
  const get = vi.fn(() => answer);
  const api = { get, post } as unknown as ApiClient;
  const session = {
    signedIn: true,
    subject: ID,
    token: async () => 'token-of-the-person',
  } as unknown as Session;
  render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle: {} as DefinitionBundle, session, api }}>
        <MemoryRouter>
          <MyDataPage />
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return { get, post };
}

describe('the My data page', () => {
  it('says it is loading, then asks for the closure only with a confirmed reason', async () => {
    let answer: (value: ApiResult<unknown>) => void = () => undefined;
    const post = vi.fn(async () => [null, account('CLOSURE REQUESTED', [])]);
    const { get } = renderPage(new Promise((resolve) => (answer = resolve)), post);
    expect(screen.getByRole('heading', { name: 'My data' })).toBeTruthy();
    expect(screen.getByText('Loading your account…')).toBeTruthy();
    expect(get).toHaveBeenCalledWith('connectid', `/account/${ID}`);
    answer([null, account('ACCEPTED', ['modify-profile', 'request-closure'])]);

    fireEvent.click(await screen.findByRole('button', { name: 'Request closure' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('you can no longer sign in');
    fireEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(await screen.findByText('Please say why you want your account closed.')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(/Why do you want your account closed/), {
      target: { value: 'I have left the country' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('connectid', `/account/${ID}/actions/request-closure`, {
        version: 4,
        notes: 'I have left the country',
      }),
    );
    expect(await screen.findByText(/Your request is sent/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Request closure' })).toBeNull();
  });

  it('shows a request waiting for a decision, in French', async () => {
    await changeLanguage('fr');
    renderPage(Promise.resolve([null, account('CLOSURE REQUESTED', ['set-preferences'])]));
    expect(await screen.findByText(/attend la décision d'un administrateur/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Mes données' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Demander la clôture' })).toBeNull();
  });

  it('downloads the archive with the person’s token and says so, or says it failed', async () => {
    const fetch = vi.fn(async () => new Response(new Blob(['zip']), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:archive' }));
    renderPage(Promise.resolve([null, account('ACCEPTED', ['request-closure'])]));
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your archive is downloaded.')).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith('/api/account/archive', {
      headers: { authorization: 'Bearer token-of-the-person', locale: 'en' },
    });

    fetch.mockResolvedValueOnce(new Response('', { status: 500 }));
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText(/could not be prepared/)).toBeTruthy();
  });
});
