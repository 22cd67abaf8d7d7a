// The screening hits on a document screen, for the officers who see them: an alert naming the
// block list, the entry's reason, what happened and when, in English and French; nothing when
// the document has none or they cannot be read (the server refuses them to an applicant).
import { render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { ScreeningHit } from '../../src/core/documents/types';
import { ScreeningHits } from '../../src/engine';
import { formatDateTime } from '../../src/engine/format';
import { changeLanguage } from '../../src/portal/i18n';
import { startTexts } from './catalog-support';

beforeAll(async () => {
  await startTexts([]);
});

const HIT: ScreeningHit = {
  id: 'h1',
  catalog: 'passport-block',
  catalogTitle: 'Passport blocks',
  entryKey: 'VIS|BL0000001',
  reason: 'Reported stolen',
  matched: { documentCode: 'VIS', passportNumber: 'BL0000001' },
  action: 'submit',
  outcome: 'refused',
  at: '2026-03-01T09:00:00.000Z',
};
const FLAGGED: ScreeningHit = {
  ...HIT,
  id: 'h2',
  action: 'rescreen',
  outcome: 'flagged',
  at: '2026-03-02T09:00:00.000Z',
};

function renderHits(answer: [unknown, { items: ScreeningHit[] } | undefined]) {
  const get = vi.fn(async () => answer);
  const api = { get } as unknown as ApiClient;
  render(
    <MantineProvider env="test">
      <ScreeningHits api={api} backend="evisa" type="visa-application" id="d1" current={3} />
    </MantineProvider>,
  );
  return get;
}

describe('the screening hits of a document', () => {
  it('alerts the officer with the list, the reason, the outcome and the date', async () => {
    await changeLanguage('en');
    const get = renderHits([null, { items: [FLAGGED, HIT] }]);
    const alert = await screen.findByRole('alert');
    expect(get).toHaveBeenCalledWith('evisa', '/visa-application/d1/screening');
    expect(alert.textContent).toContain('Screening hits');
    expect(alert.textContent).toContain(
      `Passport blocks — Reported stolen · Refused: Submit · ${formatDateTime(HIT.at)}`,
    );
    expect(alert.textContent).toContain(
      `Passport blocks — Reported stolen · Flagged after submission · ${formatDateTime(FLAGGED.at)}`,
    );
  });

  it('speaks French', async () => {
    await changeLanguage('fr');
    renderHits([null, { items: [HIT] }]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Alertes de filtrage');
    expect(alert.textContent).toMatch(/Refusée : /);
    await changeLanguage('en');
  });

  it('shows nothing without hits, or when they cannot be read', async () => {
    const none = renderHits([null, { items: [] }]);
    await waitFor(() => expect(none).toHaveBeenCalled());
    const refused = renderHits([{ status: 403 }, undefined]);
    await waitFor(() => expect(refused).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
