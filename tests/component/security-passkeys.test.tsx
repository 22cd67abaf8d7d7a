// The security page's passkeys and recovery codes (docs/identity.md, "Passkeys and recovery
// codes"): the passkeys listed in words and removed only after a confirmation; recovery codes
// made and shown once, new ones made only after a confirmation that the old ones stop working.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import { PasskeysPanel } from '../../src/modules/connectid/portal/PasskeysPanel';
import { RecoveryCodesPanel } from '../../src/modules/connectid/portal/RecoveryCodesPanel';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import { signedOutSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

beforeAll(async () => {
  await initPortalTexts(['passkeys']);
});
afterEach(async () => {
  await changeLanguage('en');
});

const CODES = [...'abcdefghjk'].map((c) => `abcd${c}-efgh${c}`);

function renderWith(api: Partial<ApiClient>, panel: 'passkeys' | 'recovery') {
  const bundle = {} as DefinitionBundle;
  render(
    <MantineProvider env="test">
      <PortalContext.Provider
        value={{ bundle, session: signedOutSession(vi.fn()), api: api as ApiClient }}
      >
        {panel === 'passkeys' ? <PasskeysPanel /> : <RecoveryCodesPanel />}
      </PortalContext.Provider>
    </MantineProvider>,
  );
}

describe('passkeys and recovery codes on the security page', () => {
  it('removes a passkey only once the person confirms', async () => {
    const items = [
      {
        id: 'p1',
        name: 'Work laptop',
        createdAt: '2026-11-02T09:00:00.000Z',
        lastUsedAt: null,
        backedUp: true,
      },
    ];
    const get = vi.fn(async () => [null, { items: [...items] }] as const);
    const del = vi.fn(async () => {
      items.pop();
      return [null, null] as const;
    });
    renderWith({ get, delete: del } as never, 'passkeys');
    const region = await screen.findByRole('region', { name: 'Passkeys' });
    await within(region).findByText('Work laptop');
    expect(within(region).getByText('Synced')).toBeTruthy();
    expect(within(region).getByText(/never used yet/)).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: 'Remove passkey Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    expect(del).not.toHaveBeenCalled();
    fireEvent.click(within(region).getByRole('button', { name: 'Remove passkey Work laptop' }));
    const again = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Remove' }));
    await within(region).findByText('Passkey "Work laptop" removed.');
    expect(del).toHaveBeenCalledWith('system', '/account/passkeys/p1');
    await within(region).findByText('You have no passkey yet.');
  });

  it('shows new recovery codes once, and asks before replacing them, in French too', async () => {
    await changeLanguage('fr');
    let status = { remaining: 0, createdAt: null as string | null };
    const get = vi.fn(async () => [null, status] as const);
    const post = vi.fn(async () => {
      status = { remaining: 10, createdAt: '2026-11-29T10:00:00.000Z' };
      return [null, { codes: CODES }] as const;
    });
    renderWith({ get, post } as never, 'recovery');
    const region = await screen.findByRole('region', { name: 'Codes de secours' });
    await within(region).findByText("Vous n'avez pas de codes de secours.");
    fireEvent.click(within(region).getByRole('button', { name: 'Créer des codes de secours' }));
    const shown = await screen.findByRole('dialog', { name: 'Vos codes de secours' });
    expect(within(shown).getAllByText(/^[a-z0-9]{5}-[a-z0-9]{5}$/)).toHaveLength(10);
    fireEvent.click(within(shown).getByRole('button', { name: 'Je les ai conservés' }));
    await within(region).findByText(/10 codes sur 10 restants/);
    await waitFor(() => expect(screen.queryByText(CODES[0]!)).toBeNull());

    // Some are left: new codes are asked first, and going back makes none.
    fireEvent.click(within(region).getByRole('button', { name: 'Créer de nouveaux codes' }));
    const asked = await screen.findByRole('dialog', { name: 'Créer de nouveaux codes' });
    expect(within(asked).getByText(/cessent aussitôt de fonctionner/)).toBeTruthy();
    fireEvent.click(within(asked).getByRole('button', { name: 'Revenir' }));
    expect(post).toHaveBeenCalledTimes(1);
  });
});
