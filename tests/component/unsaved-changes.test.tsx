import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Language, TextTree } from '../../src/core/i18n/translate';
import { useUnsavedChanges, type UnsavedWording } from '../../src/engine/form/useUnsavedChanges';
import { loadSample, wrap } from './harness';

function renderGuard(
  wording: UnsavedWording,
  texts: Record<Language, TextTree>,
  language: Language,
) {
  let closed = false;
  function Page() {
    const { modal, confirm } = useUnsavedChanges(true, wording, texts, language);
    return (
      <>
        <Link to="/other">leave</Link>
        <button onClick={() => confirm(() => (closed = true))}>close dialog</button>
        {modal}
      </>
    );
  }
  const router = createMemoryRouter(
    [
      { path: '/', element: wrap(<Page />) },
      { path: '/other', element: <p>other page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return { router, closed: () => closed };
}

describe('useUnsavedChanges', () => {
  it('asks before leaving a document, in English', async () => {
    const { texts } = await loadSample();
    renderGuard('document', texts, 'en');
    fireEvent.click(screen.getByText('leave'));
    expect(
      await screen.findByText('Are you sure you want to continue without saving'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText(/without saving/)).toBeNull());
    fireEvent.click(screen.getByText('leave'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('other page')).toBeTruthy();
  });

  it('asks before closing a catalogue dialog, in both languages', async () => {
    const { texts } = await loadSample();
    const en = renderGuard('catalog', texts, 'en');
    fireEvent.click(screen.getByText('close dialog'));
    expect(
      await screen.findByText('Are you sure you want to proceed without saving. Please confirm?'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(en.closed()).toBe(true);
    act(() => document.body.replaceChildren());
    renderGuard('catalog', texts, 'fr');
    fireEvent.click(screen.getByText('close dialog'));
    expect(
      await screen.findByText(
        'Êtes-vous sûr de vouloir poursuivre sans enregistrer. Veuillez confirmer ?',
      ),
    ).toBeTruthy();
  });

  it('warns on beforeunload while dirty', async () => {
    const { texts } = await loadSample();
    renderGuard('document', texts, 'fr');
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(texts.fr.form).toMatchObject({
      unsaved: { document: 'Êtes-vous sûr de vouloir continuer sans enregistrer' },
    });
  });
});
