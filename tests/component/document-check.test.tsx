// The home page's electronic-document check as anyone meets it: a document that passes says so
// in the specification's words; anything else is a "Verification Errors" panel listing why, with
// one and the same answer for an unknown number and a wrong second factor.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { VerificationResult } from '../../src/core/dashboard/types';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import { DocumentCheck } from '../../src/portal/pages/home/DocumentCheck';
import { signedOutSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

beforeAll(() => initPortalTexts(['dashboard', 'visa-application']));

afterEach(async () => {
  await changeLanguage('en');
});

const GRANTED: VerificationResult = {
  number: 'VA-2026-000042',
  documentType: 'visa-application',
  validFrom: '2026-01-01',
  validUntil: '2026-12-31',
  validity: 'inForce',
  valid: true,
};

/** The server's one answer for every miss (src/server/dashboard/verification.ts). */
const NOT_VERIFIED: ApiResult<VerificationResult> = [
  { status: 404, code: 'DOCUMENT_NOT_VERIFIED', message: 'server text' },
  null,
];

function renderCheck(answers: ApiResult<VerificationResult>[], entry = '/home') {
  const post = vi.fn(() => Promise.resolve(answers.shift()!));
  const api = { post } as unknown as ApiClient;
  const bundle = {} as DefinitionBundle;
  render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session: signedOutSession(vi.fn()), api }}>
        <MemoryRouter initialEntries={[entry]}>
          <DocumentCheck />
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return post;
}

function check(number: string, secondFactor: string, labels = ENGLISH) {
  fireEvent.change(screen.getByLabelText(labels.number, { exact: false }), {
    target: { value: number },
  });
  fireEvent.change(screen.getByLabelText(labels.secondFactor, { exact: false }), {
    target: { value: secondFactor },
  });
  fireEvent.click(screen.getByRole('button', { name: labels.submit }));
}

const ENGLISH = {
  number: 'Document number',
  secondFactor: 'Passport number, date of birth or registration number',
  submit: 'Check',
};

describe('electronic-document check', () => {
  it('says the basic checks passed, with the document and its period, and nothing else', async () => {
    const post = renderCheck([[null, GRANTED]]);
    check('va-2026-000042', ' 04/05/1990 ');
    const result = await screen.findByTestId('document-check-result');
    expect(post).toHaveBeenCalledWith('evisa', '/verification', {
      number: 'va-2026-000042',
      secondFactor: '04/05/1990',
      // Typed, not scanned: the check's log says so.
      via: 'number',
    });
    expect(
      within(result).getByText('Basic document checks passed, you can continue.'),
    ).toBeTruthy();
    expect(result.textContent).toContain('VA-2026-000042');
    expect(result.textContent).toContain('Visa application');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Verification Errors')).toBeNull();
  });

  it('says a check opened by the e-visa’s QR code was scanned, its number filled in', async () => {
    const post = renderCheck([[null, GRANTED]], '/home?number=VA-2026-000042&via=qr');
    expect(screen.getByLabelText(ENGLISH.number, { exact: false })).toHaveProperty(
      'value',
      'VA-2026-000042',
    );
    fireEvent.change(screen.getByLabelText(ENGLISH.secondFactor, { exact: false }), {
      target: { value: 'PA1234567' },
    });
    fireEvent.click(screen.getByRole('button', { name: ENGLISH.submit }));
    await screen.findByTestId('document-check-result');
    expect(post).toHaveBeenCalledWith('evisa', '/verification', {
      number: 'VA-2026-000042',
      secondFactor: 'PA1234567',
      via: 'qr',
    });
  });

  it('lists the one same failure for an unknown number and a wrong second factor', async () => {
    renderCheck([NOT_VERIFIED, NOT_VERIFIED]);
    check('VA-2026-000042', 'ZZ0000000');
    const panel = await screen.findByRole('alert', { name: 'Verification Errors' });
    const items = within(panel).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'No valid document matches this number and these details. Check both and try again.',
    ]);
    const first = panel.textContent;

    check('VA-1999-999999', 'P1234567');
    await screen.findByRole('alert', { name: 'Verification Errors' });
    // Nothing in the page tells the two misses apart: not the text, not the server's own words.
    expect(screen.getByRole('alert').textContent).toBe(first);
    expect(first).not.toContain('server text');
    expect(screen.queryByText(/Basic document checks passed/)).toBeNull();
  });

  it('says a genuine visa not yet in force is genuine, from when, neutrally, with no status', async () => {
    renderCheck([
      [null, { ...GRANTED, validFrom: '2026-12-01', validity: 'notYetInForce', valid: false }],
    ]);
    check('VA-2026-000042', 'P1234567');
    const result = await screen.findByRole('status');
    expect(result.getAttribute('data-validity')).toBe('notYetInForce');
    expect(within(result).getByText('Genuine document, not yet in force')).toBeTruthy();
    expect(within(result).getByText('In force from 01/12/2026.')).toBeTruthy();
    expect(result.textContent).toContain('VA-2026-000042');
    // Neither an error nor a word of the service's own workings.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Verification Errors')).toBeNull();
    expect(result.textContent).not.toMatch(/Dispatched|Issued|Granted/);
    expect(result.getAttribute('style')).toContain('gray');
    expect(result.getAttribute('style')).not.toContain('red');
  });

  it('says a genuine document out of its period has expired, and until when', async () => {
    renderCheck([[null, { ...GRANTED, validity: 'expired', valid: false }]]);
    check('VA-2026-000042', 'P1234567');
    const result = await screen.findByRole('status');
    expect(within(result).getByText('Genuine document, expired')).toBeTruthy();
    expect(within(result).getByText('It was in force until 31/12/2026.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('lists a refusal for too many checks in the same panel', async () => {
    renderCheck([
      [{ status: 429, code: 'TOO_MANY_CHECKS', message: 'Too many checks (server words)' }, null],
    ]);
    check('VA-2026-000042', 'P1234567');
    const panel = await screen.findByRole('alert', { name: 'Verification Errors' });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(1);
  });

  it('speaks French, and re-words an answer when the language changes', async () => {
    await changeLanguage('fr');
    renderCheck([[null, GRANTED], NOT_VERIFIED]);
    const french = {
      number: 'Numéro du document',
      secondFactor: "Numéro de passeport, date de naissance ou numéro d'immatriculation",
      submit: 'Vérifier',
    };
    check('VA-2026-000042', 'P1234567', french);
    const result = await screen.findByTestId('document-check-result');
    expect(
      within(result).getByText(
        'Les vérifications de base du document sont réussies, vous pouvez continuer.',
      ),
    ).toBeTruthy();

    check('VA-2026-000042', 'ZZ0000000', french);
    const panel = await screen.findByRole('alert', { name: 'Erreurs de vérification' });
    expect(within(panel).getByRole('listitem').textContent).toMatch(/^Aucun document valide/);
    await changeLanguage('en');
    await screen.findByRole('alert', { name: 'Verification Errors' });
    expect(within(screen.getByRole('alert')).getByRole('listitem').textContent).toMatch(
      /^No valid document matches/,
    );
  });
});
