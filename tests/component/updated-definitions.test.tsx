import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFINITIONS_VERSION_HEADER } from '../../src/core/api/definitions-version';
import { portalDefinitionsWatch, watchedFetch } from '../../src/portal/definitionsWatch';
import { changeLanguage } from '../../src/portal/i18n';
import { UpdatedDefinitionsBanner } from '../../src/portal/UpdatedDefinitionsBanner';
import { initPortalTexts } from './portal-texts';

beforeAll(() => initPortalTexts());

/** An answer of the API carrying the definitions' version it was made with. */
function answerWith(version: string): typeof fetch {
  return vi.fn(async () =>
    Promise.resolve(new Response('{}', { headers: { [DEFINITIONS_VERSION_HEADER]: version } })),
  );
}

describe('definitions published while a page is open', () => {
  it('offers to reload once an answer comes with newer definitions, and not before', async () => {
    portalDefinitionsWatch.expect('v1');
    render(
      <MantineProvider>
        <UpdatedDefinitionsBanner />
      </MantineProvider>,
    );
    const original = globalThis.fetch;
    try {
      globalThis.fetch = answerWith('v1');
      await act(() => watchedFetch(portalDefinitionsWatch)('/api/x'));
      expect(screen.queryByRole('status')).toBeNull();

      globalThis.fetch = answerWith('v2');
      await act(() => watchedFetch(portalDefinitionsWatch)('/api/x'));
      const banner = screen.getByRole('status');
      expect(banner.textContent).toContain('The portal has been updated');
      expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();

      await act(() => changeLanguage('fr'));
      expect(screen.getByRole('status').textContent).toContain('Le portail a été mis à jour');
      expect(screen.getByRole('button', { name: 'Recharger' })).toBeTruthy();
    } finally {
      globalThis.fetch = original;
      await changeLanguage('en');
    }
  });
});
