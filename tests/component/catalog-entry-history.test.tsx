// The history of a catalogue entry in its dialog (who, when, the changed fields before and after,
// in English and French), and a manager's deleted entries, restored after a confirmation.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type {
  CatalogEntryRecord,
  CatalogHistoryLine,
} from '../../src/core/definitions/catalog-entry';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import { CatalogEntryForm } from '../../src/engine/CatalogEntryForm';
import { CatalogDeletedEntries } from '../../src/engine/CatalogDeletedEntries';
import { formatDateTime } from '../../src/engine/format';
import { changeLanguage } from '../../src/portal/i18n';
import { acceptingValidator, laptopWindow, readJson, startTexts } from './catalog-support';

let country: CatalogDefinition;
let translations: DefinitionBundle['translations'];
const validatorUrl = acceptingValidator('catalog-history-test');

beforeAll(async () => {
  country = await readJson<CatalogDefinition>('catalogs/country.json');
  translations = await startTexts([country]);
});

laptopWindow();

const ENTRY: CatalogEntryRecord = {
  id: 'e-ki',
  version: 5,
  data: { code: 'KI', name: 'Republic of Kiribati', startTime: '2020-01-01T00:00:00.000Z' },
  createdAt: '2020-01-01T00:00:00.000Z',
  createdBy: 'alice',
  updatedAt: '2026-03-04T10:00:00.000Z',
  updatedBy: 'bruno',
};

const HISTORY: CatalogHistoryLine[] = [
  {
    version: 2,
    action: 'updated',
    changedAt: '2026-03-01T09:00:00.000Z',
    changedBy: 'alice',
    changes: [
      { field: 'name', before: 'Kiribati', after: 'Republic of Kiribati' },
      { field: 'name', language: 'fr', before: null, after: 'République de Kiribati' },
    ],
  },
  {
    version: 3,
    action: 'deleted',
    changedAt: '2026-03-02T09:00:00.000Z',
    changedBy: 'bruno',
    changes: [],
  },
  {
    version: 4,
    action: 'restored',
    changedAt: '2026-03-03T09:00:00.000Z',
    changedBy: 'alice',
    changes: [],
  },
];

function renderDialog(get: ReturnType<typeof vi.fn>, language: 'en' | 'fr' = 'en') {
  render(
    <MantineProvider env="test">
      <CatalogEntryForm
        opened
        entry={ENTRY}
        onClose={() => {}}
        onSaved={() => {}}
        catalog={country}
        api={{ get } as unknown as ApiClient}
        backend="catalog"
        language={language}
        translations={translations}
        validatorUrl={validatorUrl}
      />
    </MantineProvider>,
  );
}

describe('catalogue entry history', () => {
  it('shows who changed the entry when, and each changed field before and after', async () => {
    let answer: (value: unknown) => void = () => {};
    const get = vi.fn(() => new Promise((resolve) => (answer = resolve)));
    renderDialog(get);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Entry' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show the history' }));
    expect(get).toHaveBeenCalledWith('catalog', '/country/e-ki/history');
    expect(
      await within(dialog).findByRole('status', { name: 'Loading the history…' }),
    ).toBeTruthy();
    answer([null, { items: HISTORY }]);

    const when = formatDateTime(HISTORY[0]!.changedAt);
    expect(await within(dialog).findByText(`${when}, alice: changed (version 2)`)).toBeTruthy();
    expect(
      within(dialog).getByText('Name (English): Kiribati → Republic of Kiribati'),
    ).toBeTruthy();
    expect(
      within(dialog).getByText('Name (French): (empty) → République de Kiribati'),
    ).toBeTruthy();
    const deleted = formatDateTime(HISTORY[1]!.changedAt);
    expect(within(dialog).getByText(`${deleted}, bruno: deleted (version 3)`)).toBeTruthy();
    expect(within(dialog).getByText(/alice: restored \(version 4\)$/)).toBeTruthy();
  });

  it('words the history in French', async () => {
    await changeLanguage('fr');
    const get = vi.fn(() => Promise.resolve([null, { items: HISTORY.slice(0, 2) }]));
    renderDialog(get, 'fr');
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: "Afficher l'historique" }));
    const when = formatDateTime(HISTORY[1]!.changedAt);
    expect(await within(dialog).findByText(`${when}, bruno : supprimée (version 3)`)).toBeTruthy();
    expect(within(dialog).getByText(/alice : modifiée \(version 2\)$/)).toBeTruthy();
  });
});

describe('deleted catalogue entries', () => {
  it('lists them for a manager and restores one after a confirmation, with the version listed', async () => {
    const deleted = { ...ENTRY, version: 3, deletedAt: '2026-03-02T09:00:00.000Z' };
    const get = vi.fn(() => Promise.resolve([null, { items: [deleted] }]));
    let answer: (value: unknown) => void = () => {};
    const post = vi.fn(() => new Promise((resolve) => (answer = resolve)));
    const onRestored = vi.fn();
    render(
      <MantineProvider env="test">
        <CatalogDeletedEntries
          opened
          catalog={country}
          api={{ get, post } as unknown as ApiClient}
          backend="catalog"
          language="en"
          onClose={() => {}}
          onRestored={onRestored}
        />
      </MantineProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Deleted entries' });
    expect(get).toHaveBeenCalledWith('catalog', '/country/deleted');
    await within(dialog).findByText(`Deleted ${formatDateTime(deleted.deletedAt)} by bruno`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(post).not.toHaveBeenCalled();
    const question = within(dialog).getByRole('alertdialog');
    fireEvent.click(within(question).getByRole('button', { name: 'Yes' }));
    expect(post).toHaveBeenCalledWith('catalog', '/country/e-ki/restore', { version: 3 });
    await waitFor(() =>
      expect(
        within(question).getByRole('button', { name: 'Yes' }).hasAttribute('data-loading'),
      ).toBe(true),
    );
    answer([null, {}]);
    await waitFor(() => expect(onRestored).toHaveBeenCalledTimes(1));
  });
});
