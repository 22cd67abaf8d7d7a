// The parts of a request for information on the document screen (docs/workflows.md): the
// officer's "Items to request" beside a query's notes, and the round at the top of the owner's
// reply (each item with its due date, a text field or an upload, marked once answered) or,
// read-only, with the answers, in English and in French.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestRoundView } from '../../src/core/documents/requests';
import type { WorkflowRequests } from '../../src/core/definitions/shapes/requests';
import type { CatalogDefinition } from '../../src/core/definitions/shapes/catalog';
import {
  RequestItemsEditor,
  requestItemsOf,
  type DraftRequestItem,
} from '../../src/engine/documents/RequestItemsEditor';
import {
  RequestRoundPanel,
  requestAnswersOf,
  type DraftAnswer,
} from '../../src/engine/documents/RequestRoundPanel';
import type { FormServices } from '../../src/engine/form';
import { changeLanguage } from '../../src/portal/i18n';
import { initPortalTexts } from './portal-texts';

beforeAll(async () => {
  await initPortalTexts(['requests']);
});

const ROUND: RequestRoundView = {
  round: 1,
  question: 'Two things are missing.',
  openedAt: '2026-11-01T10:00:00.000Z',
  open: true,
  items: [
    {
      id: 'item-bank',
      catalog: 'attachment',
      code: 'BANK',
      label: { en: 'Bank statements', fr: 'Relevés bancaires' },
      kind: 'document',
      mandatory: true,
      due: '2099-06-30',
      answer: null,
      media: null,
      answeredAt: null,
      answeredBy: null,
    },
    {
      id: 'item-purpose',
      catalog: null,
      code: null,
      label: { en: 'Explain the purpose of your trip' },
      kind: 'answer',
      mandatory: false,
      due: '2099-06-15',
      answer: null,
      media: null,
      answeredAt: null,
      answeredBy: null,
    },
  ],
};

function renderPanel(round: RequestRoundView, answering: boolean) {
  const given: Array<Record<string, DraftAnswer>> = [];
  function Host() {
    const [answers, setAnswers] = useState<Record<string, DraftAnswer>>({});
    return (
      <RequestRoundPanel
        round={round}
        answering={answering}
        showQuestion
        answers={answers}
        onAnswers={(next) => {
          given.push(next);
          setAnswers(next);
        }}
        texts={{}}
        language="en"
        services={{}}
      />
    );
  }
  render(
    <MantineProvider>
      <Host />
    </MantineProvider>,
  );
  return given;
}

describe('the round at the top of the reply', () => {
  it('shows the question and each item with its due date, and marks an item answered as it is', async () => {
    await act(() => changeLanguage('en'));
    const given = renderPanel(ROUND, true);
    const region = screen.getByRole('region', { name: 'Information requested' });
    within(region).getByText('Two things are missing.');
    within(region).getByText('BANK - Bank statements');
    within(region).getByText(/Due by 30\/06\/2099/);
    expect(within(region).getAllByText('Not answered yet')).toHaveLength(2);
    fireEvent.change(within(region).getByLabelText('Your answer'), {
      target: { value: 'A family visit' },
    });
    await waitFor(() => expect(within(region).getAllByText('Not answered yet')).toHaveLength(1));
    expect(requestAnswersOf(given.at(-1)!)).toEqual([
      { item: 'item-purpose', text: 'A family visit' },
    ]);
    // A document is answered by an upload.
    within(region).getByRole('group', { name: 'Your file' });
  });

  it('shows the answers read-only, in French', async () => {
    await act(() => changeLanguage('fr'));
    const answered: RequestRoundView = {
      ...ROUND,
      open: false,
      items: ROUND.items.map((item) => ({
        ...item,
        answer: item.kind === 'answer' ? 'Une visite familiale' : null,
        media:
          item.kind === 'document'
            ? { id: 'm1', name: 'releves.pdf', size: 1000, type: 'application/pdf' }
            : null,
        answeredAt: '2026-11-02T10:00:00.000Z',
      })),
    };
    render(
      <MantineProvider>
        <RequestRoundPanel
          round={answered}
          answering={false}
          showQuestion
          answers={{}}
          onAnswers={() => {}}
          texts={{}}
          language="fr"
          services={{}}
        />
      </MantineProvider>,
    );
    const region = screen.getByRole('region', { name: 'Informations demandées' });
    within(region).getByText('BANK - Relevés bancaires');
    within(region).getByText('Une visite familiale');
    within(region).getByText('releves.pdf');
    expect(within(region).getAllByText('Répondu')).toHaveLength(2);
    expect(within(region).queryByRole('textbox')).toBeNull();
    await act(() => changeLanguage('en'));
  });
});

describe("the officer's items to request", () => {
  const requests: WorkflowRequests = {
    open: ['query'],
    answer: ['submit-reply'],
    catalogs: [{ catalog: 'attachment', where: { documentCode: 'VIS' } }],
    dueDays: 10,
  };
  const catalogs = [
    { id: 'attachment', labels: { en: { title: 'Attachments' }, fr: { title: 'Pièces jointes' } } },
  ] as unknown as CatalogDefinition[];

  it('adds a free-text item with its kind, due date and whether it is required', async () => {
    await act(() => changeLanguage('en'));
    const searchCatalog = vi.fn(async () => [{ code: 'BANK', name: 'Bank statements' }]);
    const services: FormServices = { searchCatalog };
    const added: DraftRequestItem[][] = [];
    function Host() {
      const [items, setItems] = useState<DraftRequestItem[]>([]);
      return (
        <RequestItemsEditor
          requests={requests}
          catalogs={catalogs}
          language="en"
          services={services}
          value={items}
          onChange={(next) => {
            added.push(next);
            setItems(next);
          }}
        />
      );
    }
    render(
      <MantineProvider>
        <Host />
      </MantineProvider>,
    );
    const editor = screen.getByRole('group', { name: 'Items to request' });
    // The declared catalogue is searched with its conditions.
    await waitFor(() =>
      expect(searchCatalog).toHaveBeenCalledWith('attachment', '', { documentCode: 'VIS' }),
    );
    // Nothing chosen: the add is refused with a word on the entry field.
    fireEvent.click(within(editor).getByRole('button', { name: 'Add the item' }));
    within(editor).getByText('Choose an entry');
    expect(added).toEqual([]);
    // Free text instead.
    fireEvent.click(within(editor).getByRole('combobox', { name: 'Item from' }));
    // The dropdown's options are there as it opens (shown once its transition ends).
    fireEvent.click(screen.getByRole('option', { name: 'Free text', hidden: true }));
    fireEvent.change(within(editor).getByLabelText('What you ask for'), {
      target: { value: 'Explain the purpose of your trip' },
    });
    fireEvent.change(within(editor).getByLabelText('Due date'), {
      target: { value: '2099-01-31' },
    });
    fireEvent.click(within(editor).getByLabelText('Required'));
    fireEvent.click(within(editor).getByRole('button', { name: 'Add the item' }));
    expect(requestItemsOf(added.at(-1)!)).toEqual([
      {
        text: 'Explain the purpose of your trip',
        kind: 'document',
        mandatory: false,
        due: '2099-01-31',
      },
    ]);
    within(editor).getByRole('button', { name: 'Remove Explain the purpose of your trip' });
  });
});
