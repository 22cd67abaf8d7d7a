// Proving one's status with share codes (docs/status-sharing.md, "In the portal"): the holder's
// panel lists the codes and who checked the document in words, makes a code shown once, revokes
// one after a question; the public status check refuses bad fields in the browser, says the
// server's refusals in the reader's language and shows a result as a printable description list.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { formatDate, formatDateTime } from '../../src/core/format';
import { ShareCodesPanel } from '../../src/engine/documents/ShareCodes';
import type {
  MadeShareCode,
  ShareCheckResult,
  ShareCodeList,
  StatusCheck,
} from '../../src/engine/documents/share-code-types';
import { PortalContext } from '../../src/portal/context';
import { addTexts, changeLanguage } from '../../src/portal/i18n';
import { StatusCheckPage } from '../../src/portal/pages/StatusCheckPage';
import { signedOutSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

beforeAll(async () => {
  await initPortalTexts(['status-proof', 'status-check']);
  // The purposes' labels are the definitions' text keys: a test type's own.
  addTexts('sample-permit', {
    en: { purposes: { work: 'Work', rent: 'Renting a home' } },
    fr: { purposes: { work: 'Travail', rent: 'Location d’un logement' } },
  });
});

afterEach(async () => {
  await changeLanguage('en');
});

const LIST: ShareCodeList = {
  items: [
    {
      id: 'c1',
      purpose: 'work',
      createdAt: '2026-11-02T09:00:00.000Z',
      expiresAt: '2027-01-31T09:00:00.000Z',
      revokedAt: null,
      state: 'active',
      checks: 2,
    },
    {
      id: 'c2',
      purpose: 'rent',
      createdAt: '2026-10-01T09:00:00.000Z',
      expiresAt: '2026-10-31T09:00:00.000Z',
      revokedAt: '2026-10-05T09:00:00.000Z',
      state: 'revoked',
      checks: 0,
    },
  ],
  purposes: [
    { id: 'work', label: 'sample-permit.purposes.work' },
    { id: 'rent', label: 'sample-permit.purposes.rent' },
  ],
  defaultDays: 90,
  maxDays: 365,
  mayCreate: true,
};

const CHECKS: StatusCheck[] = [
  {
    reference: 'CHK-ABCDEFGH23',
    checkedAt: '2026-11-03T10:15:00.000Z',
    method: 'shareCode',
    purpose: 'work',
    addressClass: '203.0.113.0/24',
    result: 'shown',
  },
  {
    reference: 'CHK-ZZZZZZZZ99',
    checkedAt: '2026-11-01T08:00:00.000Z',
    method: 'qr',
    purpose: null,
    addressClass: 'local',
    result: 'refused',
  },
];

const MADE: MadeShareCode = {
  id: 'c3',
  purpose: 'work',
  createdAt: '2026-11-29T09:00:00.000Z',
  expiresAt: '2027-02-27T09:00:00.000Z',
  revokedAt: null,
  state: 'active',
  checks: 0,
  code: 'ABC 234 XYZ',
};

type Answer = ApiResult<unknown>;

/** The panel over an API answering the list and the log, and each POST in turn. */
function renderPanel(list: Answer, checks: Answer, posts: Answer[] = []) {
  const get = vi.fn(async (_backend: string, path: string) =>
    path.endsWith('/share-codes') ? list : checks,
  );
  const post = vi.fn(async () => posts.shift()!);
  const api = { get, post } as unknown as ApiClient;
  render(
    <MantineProvider env="test">
      <ShareCodesPanel
        type="sample-permit"
        document={{ id: 'd1', status: 'GRANTED', version: 3 }}
        api={api}
        backend="evisa"
      />
    </MantineProvider>,
  );
  return { get, post };
}

describe('the holder’s share codes', () => {
  it('lists the codes and the checks in words, in English and in French', async () => {
    const { get } = renderPanel([null, LIST], [null, { items: CHECKS }]);
    const codes = await screen.findByRole('table', { name: 'Your share codes' });
    expect(get).toHaveBeenCalledWith('evisa', '/sample-permit/d1/share-codes');
    expect(get).toHaveBeenCalledWith('evisa', '/sample-permit/d1/status-checks');
    const [, work, rent] = within(codes).getAllByRole('row');
    expect(
      within(work!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Work',
      formatDate(LIST.items[0]!.createdAt),
      formatDate(LIST.items[0]!.expiresAt),
      'Active',
      '2',
      'Revoke',
    ]);
    // A revoked code is said so, and offers nothing more.
    expect(within(rent!).getByText('Revoked')).toBeTruthy();
    expect(within(rent!).queryByRole('button')).toBeNull();

    const log = screen.getByRole('region', { name: 'Who checked your status' });
    const [, byCode, byQr] = within(log).getAllByRole('row');
    expect(
      within(byCode!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      formatDateTime(CHECKS[0]!.checkedAt),
      'Share code',
      'Work',
      '203.0.113.0/24',
      'Status shown',
    ]);
    expect(
      within(byQr!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      formatDateTime(CHECKS[1]!.checkedAt),
      'QR code',
      '-',
      'A private network',
      'Refused',
    ]);

    await changeLanguage('fr');
    expect(await screen.findByRole('heading', { name: 'Prouver votre statut' })).toBeTruthy();
    expect(within(codes).getByText('Travail')).toBeTruthy();
    expect(within(codes).getByText('Révoqué')).toBeTruthy();
    expect(within(log).getByText('Code de partage')).toBeTruthy();
    expect(within(log).getByText('Un réseau privé')).toBeTruthy();
  });

  it('makes a code for a purpose with the default days, and shows it once with what to tell', async () => {
    const { post, get } = renderPanel([null, LIST], [null, { items: [] }], [[null, MADE]]);
    fireEvent.click(await screen.findByRole('button', { name: 'Make a share code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make a share code' });
    const days = within(dialog).getByLabelText('Valid for (days)', { exact: false });
    expect((days as HTMLInputElement).value).toBe('90');
    expect(dialog.textContent).toContain('90 days unless you choose otherwise; at most 365.');
    // No purpose: said at its field, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make the code' }));
    expect(await within(dialog).findByText('Choose what the code is for')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    // Beyond the maximum: said at its field, nothing sent.
    fireEvent.change(within(dialog).getByLabelText('What is it for?', { exact: false }), {
      target: { value: 'work' },
    });
    fireEvent.change(days, { target: { value: '400' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make the code' }));
    expect(
      await within(dialog).findByText('Enter a whole number of days from 1 to 365'),
    ).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(days, { target: { value: '90' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make the code' }));
    const shown = await screen.findByRole('dialog', { name: 'Your share code' });
    expect(post).toHaveBeenCalledWith('evisa', '/sample-permit/d1/share-codes', {
      purpose: 'work',
      days: 90,
    });
    expect(within(shown).getByText('ABC 234 XYZ')).toBeTruthy();
    expect(shown.textContent).toContain(
      `Your code for Work, valid until ${formatDate(MADE.expiresAt)}`,
    );
    expect(shown.textContent).toContain('it is shown only this once');
    expect(shown.textContent).toContain('enter this code and your date of birth');
    expect(shown.textContent).toContain('#/status-check');
    expect(within(shown).getByRole('button', { name: 'Copy the code' })).toBeTruthy();
    // The list is read again: the new code is in it.
    await waitFor(() =>
      expect(get.mock.calls.filter(([, path]) => path.endsWith('/share-codes'))).toHaveLength(2),
    );

    // Closed and opened again: the form, never the code.
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('ABC 234 XYZ')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Make a share code' }));
    const again = await screen.findByRole('dialog', { name: 'Make a share code' });
    expect(within(again).queryByText('ABC 234 XYZ')).toBeNull();
  });

  it('marks the fields the server refuses, in its words', async () => {
    const refused: Answer = [
      {
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Some fields are not valid',
        fields: [{ path: '/days', rule: 'maximum', message: 'At most 365 days' }],
      },
      null,
    ];
    const { post } = renderPanel([null, LIST], [null, { items: [] }], [refused]);
    fireEvent.click(await screen.findByRole('button', { name: 'Make a share code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make a share code' });
    fireEvent.change(within(dialog).getByLabelText('What is it for?', { exact: false }), {
      target: { value: 'rent' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make the code' }));
    expect(await within(dialog).findByText('At most 365 days')).toBeTruthy();
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('revokes a code only once the holder confirms', async () => {
    const revoked = { ...LIST.items[0]!, state: 'revoked', revokedAt: '2026-11-29T10:00:00.000Z' };
    const { post } = renderPanel([null, LIST], [null, { items: [] }], [[null, revoked]]);
    const button = await screen.findByRole('button', {
      name: `Revoke the code for Work, valid until ${formatDate(LIST.items[0]!.expiresAt)}`,
    });
    fireEvent.click(button);
    const question = await screen.findByRole('dialog', { name: 'Revoke this share code?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(button);
    const asked = await screen.findByRole('dialog', { name: 'Revoke this share code?' });
    fireEvent.click(within(asked).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('evisa', '/sample-permit/d1/share-codes/c1/revoke', {}),
    );
  });

  it('shows nothing to someone who is not the holder', async () => {
    const { get } = renderPanel(
      [{ status: 404, code: 'DOCUMENT_NOT_FOUND', message: 'Not found' }, null],
      [{ status: 404, code: 'DOCUMENT_NOT_FOUND', message: 'Not found' }, null],
    );
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull());
    expect(screen.queryByText('Prove your status')).toBeNull();
  });
});

const WORKFLOW = { id: 'sample-permit', shareCodes: {} } as unknown as WorkflowDefinition;

const RESULT: ShareCheckResult = {
  reference: 'CHK-7QJ4M2XW9P',
  checkedAt: '2026-11-29T14:05:00.000Z',
  purpose: 'work',
  purposeLabel: 'Work',
  documentType: 'sample-permit',
  documentTitle: 'Sample permit',
  language: 'en',
  name: 'Sione Tui',
  photo: 'data:image/png;base64,iVBORw0KGgo=',
  validity: 'inForce',
  validFrom: '2026-01-15',
  validUntil: '2027-03-31',
  fields: [{ label: 'Conditions', value: 'Work for the sponsor only' }],
};

function renderCheckPage(answers: Answer[]) {
  const post = vi.fn(async () => answers.shift()!);
  const api = { post } as unknown as ApiClient;
  const bundle = { workflows: [WORKFLOW] } as unknown as DefinitionBundle;
  render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session: signedOutSession(vi.fn()), api }}>
        <MemoryRouter initialEntries={['/status-check']}>
          <StatusCheckPage />
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return post;
}

function enter(code: string, factor: string) {
  fireEvent.change(screen.getByLabelText('Share code', { exact: false }), {
    target: { value: code },
  });
  fireEvent.change(screen.getByLabelText("Holder's date of birth", { exact: false }), {
    target: { value: factor },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Check the status' }));
}

describe('the public status check', () => {
  it('refuses an empty or malformed code in the browser, sending nothing', async () => {
    const post = renderCheckPage([]);
    enter('', '');
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    enter('ABC-234-XY0', '04/05/1990');
    expect(
      await screen.findByText(
        'Enter the 9 letters and digits of the code, for example ABC 234 XYZ',
      ),
    ).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('shows the status as a description list, with the photo, dates in words and the reference', async () => {
    const post = renderCheckPage([[null, RESULT]]);
    enter(' abc-234 xyz ', '04/05/1990');
    const result = await screen.findByRole('article', { name: 'Sample permit: status' });
    expect(post).toHaveBeenCalledWith('evisa', '/share-check?lang=en', {
      code: 'abc-234 xyz',
      holderFactor: '04/05/1990',
    });
    expect(result.getAttribute('lang')).toBe('en');
    const terms = [...result.querySelectorAll('dt')].map((dt) => dt.textContent);
    const values = [...result.querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(terms).toEqual(['Name', 'Photo', 'Status', 'Valid from', 'Valid until', 'Conditions']);
    expect(values).toEqual([
      'Sione Tui',
      '',
      'In force',
      '15 January 2026',
      '31 March 2027',
      'Work for the sponsor only',
    ]);
    expect(within(result).getByRole('img', { name: 'Photo of Sione Tui' })).toBeTruthy();
    expect(result.textContent).toContain(
      `Check reference CHK-7QJ4M2XW9P made on ${formatDateTime(RESULT.checkedAt)}`,
    );
    expect(within(result).getByRole('button', { name: 'Print' })).toBeTruthy();
  });

  it('says the dates are not set yet rather than drawing empty ones', async () => {
    renderCheckPage([[null, { ...RESULT, validFrom: null, validUntil: null }]]);
    enter('ABC234XYZ', '04/05/1990');
    const result = await screen.findByRole('article', { name: 'Sample permit: status' });
    const terms = [...result.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(terms).not.toContain('Valid from');
    expect(terms).toContain('Validity dates');
    expect(result.textContent).toContain('Not set yet');
    expect(result.textContent).not.toMatch(/>-</);
  });

  it('writes a French result the French way', async () => {
    await changeLanguage('fr');
    const post = renderCheckPage([
      [null, { ...RESULT, language: 'fr', purposeLabel: 'Travail', documentTitle: 'Permis' }],
    ]);
    fireEvent.change(screen.getByLabelText('Code de partage', { exact: false }), {
      target: { value: 'ABC234XYZ' },
    });
    fireEvent.change(screen.getByLabelText('Date de naissance du titulaire', { exact: false }), {
      target: { value: '1990-05-04' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Vérifier le statut' }));
    const result = await screen.findByRole('article', { name: 'Permis : statut' });
    expect(post).toHaveBeenCalledWith('evisa', '/share-check?lang=fr', expect.anything());
    expect(result.getAttribute('lang')).toBe('fr');
    expect(result.textContent).toContain('En vigueur');
    expect(result.textContent).toContain('15 janvier 2026');
    expect(result.textContent).toContain('Partagé pour : Travail');
    expect(result.textContent).toContain('Référence de vérification CHK-7QJ4M2XW9P');
  });

  it('says the one "nothing shown" answer and the too-many answer in the reader’s language', async () => {
    const post = renderCheckPage([
      [{ status: 404, code: 'SHARE_CODE_NOT_VERIFIED', message: 'server text' }, null],
      [{ status: 429, code: 'TOO_MANY_REQUESTS', message: 'server text' }, null],
    ]);
    enter('ABC 234 XYZ', '04/05/1990');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This code and date of birth show nothing',
    );
    await changeLanguage('fr');
    // The answer already shown follows the language switch: it is kept as data, not text.
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('ne montrent rien'),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Vérifier le statut' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('Trop de vérifications'),
    );
    expect(post).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('article')).toBeNull();
  });
});
