import { readFileSync } from 'node:fs';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import {
  RegisterPage,
  RegistrationSuccessPage,
} from '../../src/modules/connectid/portal/RegisterPage';
import { signedOutSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

const OPTIONS = {
  // As the server orders them (by code): the agent comes first, and must not be preselected.
  userTypes: [
    {
      code: 'AGENT',
      description: "Agent paying fees on applicants' behalf",
      // The catalogue entry's own French (catalogs' `translatable`), shown on a French page.
      i18n: { fr: { description: 'Agent payant les frais pour le compte de demandeurs' } },
      passwordRules: { minimumLength: 12, minimumDigits: 1, minimumUppercase: 2 },
    },
    {
      code: 'INDIVIDUAL',
      description: 'Member of the public (applicant, sponsor as a person)',
      i18n: { fr: { description: 'Particulier (demandeur, garant à titre personnel)' } },
      passwordRules: { minimumLength: 10, minimumDigits: 1, allowUsernameInPassword: false },
    },
  ],
  identityTypes: [
    {
      code: 'PASSPORT',
      description: 'Passport',
      i18n: { fr: { description: 'Passeport' } },
      checkIdentityValidDateFrom: 'MANDATORY',
      checkIdentityValidDateTo: 'MANDATORY',
    },
    {
      code: 'BIRTH_CERT',
      description: 'Birth certificate',
      checkIdentityValidDateFrom: 'OPTIONAL',
      checkIdentityValidDateTo: 'PROHIBITED',
    },
  ],
  developerOutbox: '/#/dev/outbox',
  countries: [{ code: 'WS', name: 'Samoa' }],
};

beforeAll(() => initPortalTexts(['account']));

/** The definitions the page reads its declared checks from: the account workflow. */
const BUNDLE = {
  workflows: [JSON.parse(readFileSync('workflows/account.json', 'utf8')) as WorkflowDefinition],
} as DefinitionBundle;

function fakeApi() {
  const post = vi.fn(async (backend: string) =>
    backend === 'challenge'
      ? [null, { challengeId: 'challenge-1' }]
      : [null, { id: 'account-1', status: 'REGISTERED' }],
  );
  const api = {
    get: vi.fn(async () => [null, OPTIONS]),
    post,
  } as unknown as ApiClient;
  return { api, post };
}

async function renderAt(
  entry: string,
  language: 'en' | 'fr' = 'en',
  scheme: 'light' | 'dark' = 'light',
) {
  await act(async () => changeLanguage(language));
  const { api, post } = fakeApi();
  const session = signedOutSession(vi.fn());
  const view = render(
    <MantineProvider env="test" forceColorScheme={scheme}>
      <PortalContext.Provider value={{ bundle: BUNDLE, session, api }}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/success" element={<RegistrationSuccessPage />} />
            <Route path="/home" element={<p>home page</p>} />
          </Routes>
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return { view, post, session };
}

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

/** A date typed as the portal writes it, DD/MM/YYYY, then the field left. */
function typeDate(label: RegExp, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

/** The person's details, once the page has its options. */
async function fillDetails() {
  await screen.findByLabelText(/I register as/, { selector: 'input' });
  fill(/Login name/, 'losa.fono');
  fill(/First name/, 'Losa');
  fill(/Last name/, 'Fono');
  fill(/E-mail address/, 'losa@example.org');
  fill(/Mobile number/, '+685 7000001');
}

async function chooseType(name: RegExp) {
  fireEvent.click(screen.getByLabelText(/I register as/, { selector: 'input' }));
  fireEvent.click(await screen.findByRole('option', { name }));
}

describe('registration page', () => {
  it('starts with no type chosen, on a prompt, its options in the page language', async () => {
    await renderAt('/register', 'fr');
    const select = await screen.findByLabelText(/Je m'inscris en tant que/, { selector: 'input' });
    await waitFor(() => expect(select).toHaveProperty('value', ''));
    expect(select.getAttribute('placeholder')).toBe('Choisissez à quel titre vous vous inscrivez');
    fireEvent.click(select);
    expect(await screen.findByRole('option', { name: /^Agent payant les frais/ })).toBeTruthy();
    expect(screen.queryByRole('option', { name: /Agent paying fees/ })).toBeNull();
  });

  it('an empty submit attaches a translated error to each field and lists them in a summary', async () => {
    const { post } = await renderAt('/register', 'fr');
    await screen.findByLabelText(/Je m'inscris/, { selector: 'input' });
    fireEvent.click(screen.getByRole('button', { name: /M'envoyer un code/ }));
    const summary = await screen.findByTestId('error-summary');
    expect(within(summary).getByText('Il y a un problème')).toBeTruthy();
    // One entry per field: five details and the type.
    expect(within(summary).getAllByRole('listitem')).toHaveLength(6);
    expect(summary.textContent).not.toMatch(/at least 1 characters|Must be/);
    // Each entry names its field, with French typography.
    expect(within(summary).getAllByRole('listitem')[0]!.textContent).toBe(
      'Identifiant de connexion : Ce champ est obligatoire',
    );
    const first = screen.getByLabelText(/Identifiant de connexion/);
    expect(first.getAttribute('aria-invalid')).toBe('true');
    const described = first.getAttribute('aria-describedby') ?? '';
    expect(
      described
        .split(' ')
        .some((id) => document.getElementById(id)?.textContent === 'Ce champ est obligatoire'),
    ).toBe(true);
    expect(
      screen.getByText('Choisissez à quel titre vous vous inscrivez', {
        selector: '.mantine-Select-error, [id$="-error"]',
      }),
    ).toBeTruthy();
    // A summary entry takes the person to its field.
    fireEvent.click(within(summary).getAllByRole('button')[0]!);
    expect(document.activeElement).toBe(first);
    expect(post).not.toHaveBeenCalled();
  });

  it("shows the chosen type's password rules before the field, pluralised, and keeps the details editable after the code is sent", async () => {
    const { post } = await renderAt('/register');
    await fillDetails();
    await chooseType(/Member of the public/);
    fireEvent.click(screen.getByRole('button', { name: /Send me a confirmation code/ }));
    await screen.findByText(/A confirmation code was sent to \+685 7000001/);
    expect(post).toHaveBeenCalledWith(
      'challenge',
      '',
      expect.objectContaining({ purpose: 'registration' }),
    );

    const rules = document.getElementById('register-password-rules')!;
    const items = within(rules)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toMatch(/^•?\s*at least 10 characters/);
    expect(items[1]).toMatch(/at least 1 digit \(/);
    expect(items.join('|')).not.toMatch(/1 digits/);
    expect(items[2]).toMatch(/not containing your login name/);
    // The list comes before the password field.
    const passwordField = screen.getByLabelText(/^Password/);
    expect(
      rules.compareDocumentPosition(passwordField) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();

    // Details stay editable; the mobile number is changed through its own button.
    const lastName = screen.getByLabelText(/Last name/);
    expect(lastName.hasAttribute('disabled')).toBe(false);
    fill(/Last name/, 'Fono-Tui');
    expect(screen.getByLabelText(/Mobile number/).hasAttribute('readonly')).toBe(true);
    // The developer outbox is offered for the code, for that number.
    const outbox = screen.getByRole('link', { name: /developer outbox/ });
    expect(outbox.getAttribute('href')).toBe('/#/dev/outbox?recipient=%2B685%207000001');

    fireEvent.click(screen.getByRole('button', { name: /Change the mobile number/ }));
    expect(screen.getByLabelText(/Mobile number/).hasAttribute('readonly')).toBe(false);
    expect(screen.queryByLabelText(/Confirmation code/)).toBeNull();
  });

  it('says each broken password rule on a line of its own, and lets the keyboard show the password', async () => {
    const { post } = await renderAt('/register');
    await fillDetails();
    await chooseType(/Agent paying fees/);
    fill(/Agent code/, 'AG001');
    fireEvent.click(screen.getByLabelText(/Address type/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Business' }));
    fill(/Address line 1/, '4 Beach Road');
    fill(/^City/, 'Apia');
    fireEvent.click(screen.getByLabelText(/^Country/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: /Samoa/ }));
    fireEvent.click(screen.getByRole('button', { name: /Send me a confirmation code/ }));
    await screen.findByLabelText(/^Confirmation code/);
    fill(/^Confirmation code/, '123456');
    fill(/^Password/, 'short');
    fill(/Confirm the password/, 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    const summary = await screen.findByTestId('error-summary');
    // Three rules broken: three entries, three lines under the field, not one paragraph.
    const rules = [
      'The password is too short (at least 12 characters)',
      'The password needs more digits (at least 1)',
      'The password needs more capital letters (at least 2)',
    ];
    expect(
      within(summary)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(rules.map((rule) => `Password: ${rule}`));
    const field = screen.getByLabelText(/^Password/);
    const message = (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id))
      .find((element) => element?.textContent?.includes('too short'))!;
    expect([...message.querySelectorAll('span')].map((line) => line.textContent)).toEqual(rules);
    expect(post).toHaveBeenCalledTimes(1);

    // The show-password buttons are in the tab order, named in the page's language.
    const toggles = screen.getAllByRole('button', { name: 'Show the password' });
    expect(toggles).toHaveLength(2);
    for (const toggle of toggles) expect(toggle.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(toggles[0]!, { key: 'Enter' });
    expect(field.getAttribute('type')).toBe('text');
  });

  it('writes the rules in French with the right plural', async () => {
    await renderAt('/register', 'fr');
    await screen.findByLabelText(/Je m'inscris/, { selector: 'input' });
    fill(/Identifiant de connexion/, 'losa.fono');
    fill(/Prénom/, 'Losa');
    fill(/^Nom/, 'Fono');
    fill(/Adresse e-mail/, 'losa@example.org');
    fill(/Numéro de mobile/, '+685 7000001');
    fireEvent.click(screen.getByLabelText(/Je m'inscris/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Agent payant/ }));
    fireEvent.click(screen.getByRole('button', { name: /M'envoyer un code/ }));
    await screen.findByText('Règles du mot de passe :');
    const rules = document.getElementById('register-password-rules')!;
    const text = rules.textContent ?? '';
    expect(text).toContain('Règles du mot de passe :');
    expect(text).toContain('au moins 12 caractères');
    expect(text).toContain('au moins 1 chiffre (');
    expect(text).toContain('au moins 2 lettres majuscules');
  });

  it('verifies the identity document as it is filled: each failed check in words, then the passed panel', async () => {
    const { post } = await renderAt('/register');
    await screen.findByLabelText(/I register as/, { selector: 'input' });
    // No document type chosen: nothing to verify.
    expect(screen.queryByTestId('document-verification')).toBeNull();
    fireEvent.click(screen.getByLabelText(/Identity document type/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Passport' }));
    let panel = await screen.findByTestId('document-verification');
    expect(within(panel).getByText('Verification Errors')).toBeTruthy();
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      // A passport is known by its number: required like its dates.
      'The document number is required for a Passport',
      'Date of issue is required for a Passport',
      'Date of expiry is required for a Passport',
    ]);
    const number = screen.getByLabelText(/Identity document number/);
    expect(number.hasAttribute('required')).toBe(true);
    fill(/Identity document number/, 'PA123456');
    // The portal's dates, DD/MM/YYYY, not the browser's native (mm/dd/yyyy) date input.
    const issued = screen.getByLabelText(/Date of issuance/);
    expect(issued.getAttribute('type')).not.toBe('date');
    expect(issued.getAttribute('placeholder')).toBe('DD/MM/YYYY');
    const day = (offset: number) => {
      const d = new Date();
      d.setDate(d.getDate() + offset);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
    };
    typeDate(/Date of issuance/, day(3));
    typeDate(/Date of expiry/, day(-1));
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Date of issue must not be in the future',
      'The document has expired (date of expiry in the past)',
    ]);
    // Sending the code is refused while the document fails, the checks listed in the summary.
    fireEvent.click(screen.getByRole('button', { name: /Send me a confirmation code/ }));
    const summary = await screen.findByTestId('error-summary');
    expect(summary.textContent).toContain('Date of issue must not be in the future');
    expect(post).not.toHaveBeenCalled();
    // Each problem once per place: in the summary and in the panel, not a third time under
    // the field, which is marked invalid and described by the panel.
    const times = (text: string) => document.body.textContent!.split(text).length - 1;
    expect(times('Date of issue must not be in the future')).toBe(2);
    expect(times('The document has expired (date of expiry in the past)')).toBe(2);
    const expiry = screen.getByLabelText(/Date of expiry/);
    expect(expiry.getAttribute('aria-invalid')).toBe('true');
    // A screen reader hears where the message is.
    expect(document.getElementById(expiry.getAttribute('aria-describedby')!)?.textContent).toBe(
      'The verification errors below say what is wrong',
    );

    typeDate(/Date of issuance/, day(-365));
    typeDate(/Date of expiry/, day(0));
    panel = screen.getByTestId('document-verification');
    expect(within(panel).getByText('Document Verification')).toBeTruthy();
    expect(panel.textContent).toContain(
      'Basic document verifications have been passed successfully, you may proceed.',
    );

    // A type whose expiry date is prohibited.
    fireEvent.click(screen.getByLabelText(/Identity document type/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Birth certificate' }));
    panel = screen.getByTestId('document-verification');
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Date of expiry must not be given for this document type']);
  });

  it('words the verification in French', async () => {
    await renderAt('/register', 'fr');
    await screen.findByLabelText(/Je m'inscris/, { selector: 'input' });
    fireEvent.click(screen.getByLabelText(/Type de pièce d'identité/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Passeport' }));
    const panel = await screen.findByTestId('document-verification');
    expect(within(panel).getByText('Erreurs de vérification')).toBeTruthy();
    expect(panel.textContent).toContain(
      "La date d'expiration est obligatoire pour ce type de pièce",
    );
    fill(/Numéro de la pièce|Numéro de pièce/, 'PA123456');
    typeDate(/Date de délivrance/, '01/01/2020');
    typeDate(/Date d'expiration/, '01/01/2999');
    expect(within(panel).getByText('Vérification du document')).toBeTruthy();
    expect(panel.textContent).toContain('vous pouvez continuer');
  });

  it('keeps the passed panel’s title readable in the dark scheme', async () => {
    for (const [scheme, colour] of [
      ['light', 'rgb(27, 94, 32)'],
      ['dark', 'rgb(185, 228, 195)'],
    ] as const) {
      const { view } = await renderAt('/register', 'en', scheme);
      await screen.findByLabelText(/I register as/, { selector: 'input' });
      fireEvent.click(screen.getByLabelText(/Identity document type/, { selector: 'input' }));
      fireEvent.click(await screen.findByRole('option', { name: 'Birth certificate' }));
      fill(/Identity document number/, 'BC-1');
      const title = within(await screen.findByTestId('document-verification')).getByText(
        'Document Verification',
      );
      // Dark green on the dark panel could not be read: light green there.
      expect(getComputedStyle(title).color).toBe(colour);
      view.unmount();
    }
  });

  it('the success page offers the next steps: home and sign in', async () => {
    const { session } = await renderAt('/success');
    expect(screen.getByText(/pending approval/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(session.login).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(await screen.findByText('home page')).toBeTruthy();
  });
});
