import fs from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { assertReadablePdf, extractPdfText } from '../support/pdf-text';
import { CERTIFICATE_VALUE_X } from '../../src/server/documents/certificate-pdf';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, signIn } from '../support/e2e-accounts';
import { startPortal, type PortalProcess } from '../support/portal-process';

/** Demo accounts the portal starts with (seeds/connectid.json). */
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041' };
const VERIFIER = { login: 'verifier', password: 'Harbour-Light-9264!' };
const VALIDATOR = { login: 'validator', password: 'Island-Chart-4518!' };
const APPROVER = { login: 'approver', password: 'Summit-Ridge-6372!' };
const CATALOGUE_MANAGER = { login: 'catalogue', password: 'Ledger-Stone-2976!' };

/** A visa of its own for this test (a code ISO or the seeds never use), charged per dependant. */
const DOCUMENT = 'QZV';
const SUB_DOCUMENT = 'QZV30';
const QUESTION = 'Will you leave the island before your visa expires?';
const ATTACHMENT = 'Copy of the passport photo page';
const PASSPORT = 'QZ7654321';
const PREFIX = '/visa/application';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(400, 32),
  Buffer.from('%%EOF\n'),
]);

/**
 * A visa application from the applicant's first keystroke to the e-visa in their hands, in
 * Chromium, as the demo accounts: the applicant fills the form (with a dependant and an
 * upload) and pays through the sandbox gateway; the verification officer assigns it to
 * themself and queries it; the applicant replies; the officer forwards; the validation officer
 * escalates; the approval authority approves; the validation officer issues and dispatches;
 * the applicant downloads the e-visa, and the public check on the home page confirms it. Each
 * officer finds it in the list of their step.
 */
describe('a visa application end to end in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let id = '';
  let number = '';

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
    const manager = await apiToken(portal, CATALOGUE_MANAGER.login, CATALOGUE_MANAGER.password);
    const startTime = '2020-01-01T00:00:00Z';
    for (const [catalog, entry] of [
      ['document', { code: DOCUMENT, name: 'Journey visitor visa', binder: 'VISA' }],
      [
        'sub-document',
        {
          documentCode: DOCUMENT,
          code: SUB_DOCUMENT,
          name: 'Journey visitor visa, 30 days',
          allowedPeriodType: 'DAY',
          allowedPeriodNumber: 30,
          feeAmount: 0,
          otherAmount: 0,
          applicantIsCharged: true,
          dependantIsEnabled: true,
          dependantIsCharged: true,
        },
      ],
      [
        'document-fee',
        {
          documentCode: DOCUMENT,
          code: 'APP',
          name: 'Application fee',
          status: true,
          automatic: true,
          amount: 20,
        },
      ],
      [
        'sub-document-fee',
        {
          subDocumentCode: SUB_DOCUMENT,
          code: 'ISS',
          name: 'Issue fee',
          status: true,
          automatic: true,
          amount: 40,
          other: 0,
        },
      ],
      ['question', { documentCode: DOCUMENT, code: 'LEAVE', type: '1', description: QUESTION }],
      [
        'attachment',
        { documentCode: DOCUMENT, code: 'PASS', type: '1', name: ATTACHMENT, mandatory: true },
      ],
    ] as const) {
      const created = await fetch(`${portal.url}/api/catalog/v1/${catalog}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...entry, startTime }),
      });
      expect(created.status, await created.text()).toBe(201);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** A signed-in page of its own (own cookies) for one person. */
  async function as(
    person: { login: string; password: string },
    path: string,
  ): Promise<{ page: Page; context: BrowserContext; pageErrors: string[] }> {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, person.login, person.password, path);
    return { page, context, pageErrors };
  }

  const tab = (page: Page, name: string) =>
    page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  const text = (page: Page, label: string, value: string) =>
    page
      .getByLabel(new RegExp(`^${label}`))
      .first()
      .fill(value);
  const choose = async (page: Page, label: string, option: string | RegExp) => {
    await page
      .getByRole('combobox', { name: new RegExp(`^${label}`) })
      .first()
      .click();
    await page.getByRole('option', { name: option }).first().click();
  };
  /** A catalogue select: typing the code finds the entry, which is chosen. */
  const catalogue = async (page: Page, label: string, code: string) => {
    const input = page.getByRole('combobox', { name: new RegExp(`^${label}`) }).first();
    await input.fill(code);
    await page
      .getByRole('option', { name: new RegExp(`^${code} - `) })
      .first()
      .click();
  };
  const yesNo = (page: Page, question: string, answer: 'Yes' | 'No') =>
    page
      .getByRole('radiogroup', { name: new RegExp(`^${question}`) })
      .first()
      .getByLabel(answer, { exact: true })
      .check();
  /** The form shows this text (a question or attachment of the visa, as a field's label). */
  const shows = (page: Page, value: string) => page.getByText(value).first().waitFor();
  /** Clicks an action button of the document (Submit, Assign, Query...). */
  const act = (page: Page, action: string) =>
    page
      .getByRole('group', { name: 'Actions on this document' })
      .getByRole('button', { name: action, exact: true })
      .click();
  const success = (page: Page, message: string) => page.getByText(message).first().waitFor();
  /** The list at `path` shows the application, with its status in words. */
  async function listShows(page: Page, path: string, status: string) {
    await page.goto(`${portal.url}/#${PREFIX}${path}`);
    const row = page.getByRole('row').filter({ hasText: number });
    await row.getByText(status, { exact: true }).waitFor();
  }
  async function openFromList(page: Page, path: string, status: string) {
    await listShows(page, path, status);
    await page.getByRole('button', { name: `Open ${number}` }).click();
    await page.getByRole('heading', { name: new RegExp(number) }).waitFor();
  }

  it('the applicant fills the application with a dependant and an upload, and submits it', async () => {
    const { page, context, pageErrors } = await as(APPLICANT, `${PREFIX}/new`);
    // The form opens on the first section the applicant fills in.
    await page.getByRole('tabpanel', { name: 'Visa or permit applied for' }).waitFor();
    await catalogue(page, 'Document', DOCUMENT);
    // The select offers the sub-documents of the chosen document only.
    await page
      .getByRole('combobox', { name: /^Type and duration/ })
      .first()
      .click();
    await expect
      .poll(() => page.getByRole('option').allTextContents())
      .toEqual([`${SUB_DOCUMENT} - Journey visitor visa, 30 days`]);
    await page.keyboard.press('Escape');
    await catalogue(page, 'Type and duration', SUB_DOCUMENT);

    await tab(page, 'Applying from');
    await yesNo(page, 'Are you applying from outside the island', 'No');
    await choose(page, 'Purpose of visit', 'Tourism');
    await yesNo(page, 'Have you previously held a visa', 'No');

    await tab(page, 'Applicant');
    await choose(page, 'Title', 'Ms');
    await choose(page, 'Gender', 'Female');
    await text(page, 'Family name', 'Tuilagi');
    await text(page, 'Given name', 'Ana');
    await text(page, 'Date of birth', '12/04/1990');
    await catalogue(page, 'Country of birth', 'WS');
    await catalogue(page, 'Nationality', 'WS');
    await text(page, 'Passport number', PASSPORT);
    await catalogue(page, 'Issuing country', 'WS');
    await text(page, 'Expiry date', '11/04/2034');

    await tab(page, 'Contact details');
    await text(page, 'Address line 1', '4 Beach Road');
    await text(page, 'City or town', 'Apia');
    await catalogue(page, 'Country', 'WS');
    await text(page, 'Telephone', '+685 555 1234');
    await text(page, 'E-mail', 'applicant@demo.immigration.example');

    await tab(page, 'Parent, guardian or spouse');
    await choose(page, 'Person to declare', 'None');

    await tab(page, 'Dependants');
    await page.getByTitle('Add').click();
    await choose(page, 'Relationship to you', 'Child');
    await text(page, 'Family name', 'Tuilagi');
    await text(page, 'Given name', 'Lani');
    await text(page, 'Date of birth', '01/02/2016');
    await catalogue(page, 'Nationality', 'WS');

    await tab(page, 'Health');
    await yesNo(page, 'Do you have any medical condition', 'No');

    await tab(page, 'Sponsorship');
    await yesNo(page, 'Are you sponsored', 'No');

    // The questions of the chosen visa, asked by the server from the catalogues.
    await tab(page, 'Character questions');
    await shows(page, QUESTION);
    // Each answer is a group named by its question, for screen readers.
    await page.getByRole('group', { name: QUESTION }).getByLabel('Yes', { exact: true }).check();
    // The Yes/No of each question is labelled by the question itself.
    await page.getByRole('radiogroup', { name: QUESTION }).waitFor();
    const answers = page.getByRole('tabpanel').getByRole('radiogroup');
    const count = await answers.count();
    expect(count).toBeGreaterThan(1);
    for (let i = 0; i < count; i++) {
      const no = answers.nth(i).getByLabel('No', { exact: true });
      const yes = answers.nth(i).getByLabel('Yes', { exact: true });
      if (!(await yes.isChecked())) await no.check();
    }

    await tab(page, 'Declaration');
    await yesNo(page, 'I declare that the information', 'Yes');

    // The mandatory passport copy of the chosen visa, uploaded.
    await tab(page, 'Uploaded documents');
    await shows(page, ATTACHMENT);
    const chooser = page.waitForEvent('filechooser');
    await page
      .getByRole('group', { name: ATTACHMENT })
      .getByRole('button', { name: 'Choose a file' })
      .click();
    await (
      await chooser
    ).setFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByText('passport.pdf').waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await success(page, 'Application Saved Successfully');
    await expect.poll(() => page.url()).toMatch(/\/edit\/[0-9a-f-]{36}$/);
    id = page.url().split('/').at(-1)!;

    await act(page, 'Submit');
    // Submitted, the application is shown read-only under a confirmation with its number.
    await expect.poll(() => page.url()).toMatch(/\/view\/[0-9a-f-]{36}$/);
    const confirmation = page.getByTestId('confirmation');
    await confirmation.getByText('Application Submitted Successfully').waitFor();
    await confirmation.getByText(/VA-\d{4}-\d{6}/).waitFor();
    expect(await page.getByRole('button', { name: 'Replace the file' }).count()).toBe(0);
    // The service's own sections are not the applicant's to see.
    expect(
      await page.getByRole('tab', { name: /^(Issuance|Assignment|Application details)/ }).count(),
    ).toBe(0);
    const title = page.getByRole('heading', { name: /VA-\d{4}-\d{6}/ });
    await title.waitFor();
    const heading = await title.textContent();
    number = /VA-\d{4}-\d{6}/.exec(heading ?? '')?.[0] ?? '';
    expect(number).not.toBe('');
    await page.getByText('Submitted', { exact: true }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();

    // Not paid yet: the officers see it among the submitted applications.
    const officer = await as(VERIFIER, `${PREFIX}/submitted`);
    await listShows(officer.page, '/submitted', 'Submitted');
    await officer.context.close();
  });

  it('the applicant pays the fees for themself and the dependant through the gateway', async () => {
    const { page, context } = await as(APPLICANT, `${PREFIX}/view/${id}`);
    await page.getByRole('link', { name: 'Initiate payment' }).click();
    await page.getByRole('heading', { name: /^Payment confirmation/ }).waitFor();
    // The application fee once, the issue fee for the applicant and for Lani.
    await page.getByText('Lani Tuilagi').first().waitFor();
    await page
      .getByText(/NZD\s*100\.00/)
      .first()
      .waitFor();
    await page.getByLabel(/I have read and accept the terms and conditions/).check();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/sandbox-gateway\/pay\//);
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Name on card').fill('Ana Tuilagi');
    await page.getByLabel('Expiry date (MM/YY)').fill('12/39');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /^Pay NZD/ }).click();
    await page.waitForURL(new RegExp(`${PREFIX}/commit/${id}$`));
    await page.getByText('Application Paid Successfully').waitFor();
    await context.close();
  });

  it('the verification officer assigns it to themself from the list, then queries it', async () => {
    const { page, context, pageErrors } = await as(VERIFIER, `${PREFIX}/assignable`);
    await openFromList(page, '/assignable', 'Paid for verification');
    // The applicant's upload opens for the officer: fetched with their token, shown in a tab.
    await tab(page, 'Uploaded documents');
    const [popup, file] = await Promise.all([
      page.waitForEvent('popup'),
      page.waitForResponse((r) => r.url().includes('/api/media/')),
      page.getByRole('button', { name: /^Open passport\.pdf \(PDF, \d+ B\)$/ }).click(),
    ]);
    expect(file.status()).toBe(200);
    expect(file.request().headers().authorization).toMatch(/^Bearer /);
    expect(popup.url()).toMatch(/^blob:/);
    await popup.close();
    // A choice among the officers who can take the next step, by name and with their open
    // cases: not a text box.
    await page.getByRole('combobox', { name: /^Officer to assign/ }).click();
    await expect
      .poll(() => page.getByRole('option').allTextContents())
      .toEqual([expect.stringMatching(/^Tavita Verifier \(verifier\) — \d+ open cases?$/)]);
    await page.getByRole('option', { name: /^Tavita Verifier/ }).click();
    await act(page, 'Assign');
    await success(page, 'Application Assigned Successfully');
    await page
      .getByRole('cell', { name: 'Assigned to Tavita Verifier', exact: true })
      .first()
      .waitFor();
    await listShows(page, '/assigned', 'Paid for verification');
    await page
      .getByRole('row')
      .filter({ hasText: number })
      .getByText('Tavita Verifier', { exact: true })
      .waitFor();
    await openFromList(page, '/mylist', 'Paid for verification');
    // A query needs notes: the error is summarised where the officer is, the field marked.
    await act(page, 'Query');
    await page.getByTestId('error-summary').getByText('There is a problem').waitFor();
    await expect
      .poll(() => page.getByLabel('Notes', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    await page
      .getByLabel('Notes', { exact: true })
      .fill('Please upload a clearer copy of your passport.');
    await act(page, 'Query');
    await success(page, 'Application Queried Successfully');
    await page.getByText('Queried', { exact: true }).first().waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the applicant replies to the query', async () => {
    const { page, context } = await as(APPLICANT, `${PREFIX}/view/${id}`);
    await page.getByText('Please upload a clearer copy of your passport.').first().waitFor();
    // Replying is the step expected of the applicant: the primary one.
    const reply = page.getByRole('link', { name: 'Reply to the query' });
    expect(await reply.getAttribute('data-primary')).toBe('true');
    await reply.click();
    // The officer's question heads the reply screen.
    await page
      .getByRole('region', { name: 'The officer’s question' })
      .getByText('Please upload a clearer copy of your passport.')
      .waitFor();
    await tab(page, 'Uploaded documents');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Replace the file' }).first().click();
    await (
      await chooser
    ).setFiles({ name: 'passport-clear.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByText('passport-clear.pdf').waitFor();
    await page.getByRole('button', { name: 'Submit reply' }).click();
    const confirmation = page.getByTestId('confirmation');
    await confirmation.getByText('Your reply is sent to the immigration officer').waitFor();
    await confirmation.getByText('Your reference number:').waitFor();
    await page.getByText('Replied for verification', { exact: true }).first().waitFor();
    await context.close();
  });

  it('the verification officer verifies then forwards it; validation escalates it; approval approves it', async () => {
    const verifier = await as(VERIFIER, `${PREFIX}/mylist`);
    await openFromList(verifier.page, '/mylist', 'Replied for verification');
    // The officer's screen opens on the applicant, not on the service's workings.
    await verifier.page.getByRole('tabpanel', { name: 'Applicant' }).waitFor();
    // Verify, then forward in the same visit: the decisions stay on the screen.
    await act(verifier.page, 'Verify');
    await success(verifier.page, 'Application Verified Successfully');
    await verifier.page.getByText('Verified', { exact: true }).first().waitFor();
    expect(verifier.page.url()).toContain(`${PREFIX}/verification/${id}`);
    await act(verifier.page, 'Forward');
    await success(verifier.page, 'Application Forwarded Successfully');
    // Confirmed in the officer's words: no "Your reference number".
    const forwarded = verifier.page.getByTestId('confirmation');
    await forwarded.getByText('Reference number:').waitFor();
    await forwarded.getByText('The application goes to a validation officer.').waitFor();
    expect(await forwarded.textContent()).not.toContain('Your');
    await verifier.context.close();

    const validator = await as(VALIDATOR, `${PREFIX}/validationlist`);
    await openFromList(validator.page, '/validationlist', 'Forwarded');
    await validator.page
      .getByLabel('Notes', { exact: true })
      .fill('Long stay: for the approval authority.');
    await act(validator.page, 'Escalate');
    await success(validator.page, 'Application Escalated Successfully');
    await validator.context.close();

    const approver = await as(APPROVER, `${PREFIX}/approvallist`);
    await openFromList(approver.page, '/approvallist', 'Escalated');
    await act(approver.page, 'Approve');
    await success(approver.page, 'Application Approved Successfully');
    await approver.context.close();
  });

  it('the validation officer issues it with its issuance details, then dispatches it', async () => {
    const { page, context, pageErrors } = await as(VALIDATOR, `${PREFIX}/granted`);
    await openFromList(page, '/granted', 'Granted');
    await page.getByRole('link', { name: 'Issue' }).click();
    // The issuance shows the visa the applicant asked for, filled by the server.
    await tab(page, 'Issuance');
    await expect
      .poll(() =>
        page
          .getByLabel(/^Requested visa type/)
          .first()
          .inputValue(),
      )
      .toMatch(new RegExp(`^${DOCUMENT}\\b`));
    await expect
      .poll(() =>
        page
          .getByLabel(/^Requested sub-type/)
          .first()
          .inputValue(),
      )
      .toMatch(new RegExp(`^${SUB_DOCUMENT}\\b`));
    // Without issuance details the screen asks for them, before anything is sent (the server
    // would refuse them missing all the same).
    await act(page, 'Issue');
    const summary = page.getByTestId('error-summary');
    await summary.getByText('Effective date: This field is required').waitFor();
    await summary.getByText('Place of issue: This field is required').waitFor();
    await tab(page, 'Issuance');
    const today = new Date();
    const day = (d: Date) =>
      `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
    await text(page, 'Effective date', day(today));
    await text(page, 'Expiry date', day(new Date(today.getTime() + 30 * 86_400_000)));
    await text(page, 'Place of issue', 'Apia');
    // Each given, its mark and its entry went: nothing says the form is wrong any more.
    await summary.waitFor({ state: 'detached' });
    await act(page, 'Issue');
    await success(page, 'Application Issued Successfully');
    await page.getByRole('link', { name: 'Dispatch' }).click();
    await act(page, 'Dispatch');
    await success(page, 'Application Dispatched Successfully');
    await page.getByText('Dispatched', { exact: true }).first().waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the applicant downloads both e-visas, and the public check on /home confirms each', async () => {
    const { page, context, pageErrors } = await as(APPLICANT, `${PREFIX}/view/${id}`);
    // The dependant charged the issue fee has an e-visa of their own, numbered at issue.
    const downloads = page.getByRole('region', { name: 'E-visas of this application' });
    const theirs = downloads.getByRole('button', { name: /^Download the e-visa of Lani Tuilagi/ });
    const label = (await theirs.textContent()) ?? '';
    const dependant = /VA-\d{4}-\d{6}/.exec(label)?.[0] ?? '';
    expect(dependant).not.toBe('');
    expect(dependant).not.toBe(number);
    const files: Record<string, Buffer> = {};
    for (const [button, filename] of [
      [
        downloads.getByRole('button', {
          name: `Download the e-visa of Ana Tuilagi, ${number} (PDF)`,
        }),
        number,
      ],
      [theirs, dependant],
    ] as const) {
      const download = page.waitForEvent('download');
      await button.click();
      expect((await download).suggestedFilename()).toBe(`${filename}.pdf`);
      files[filename] = await fs.readFile(await (await download).path());
    }
    for (const pdf of Object.values(files)) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const child = await extractPdfText(new Uint8Array(files[dependant]!));
    assertReadablePdf(child, { language: 'en', valueX: CERTIFICATE_VALUE_X });
    expect(child.title).toBe(`Electronic visa ${dependant}`);
    expect(child.lines.map((line) => line.text)).toEqual(
      expect.arrayContaining(['Given name\tLani', 'Date of birth\t01/02/2016']),
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();

    // Anyone, signed out, as the QR code on each e-visa sends them: each holder's own details.
    const visitor = await openWatchedPage(browser);
    for (const [checked, factor] of [
      [number, PASSPORT],
      [dependant, '01/02/2016'],
    ] as const) {
      await visitor.page.goto(`${portal.url}/#/home?number=${checked}`);
      await visitor.page.reload();
      await expect
        .poll(() => visitor.page.getByLabel(/^Document number/).inputValue())
        .toBe(checked);
      await visitor.page.getByLabel(/^Passport number, date of birth/).fill(factor);
      await visitor.page.getByRole('button', { name: 'Check' }).click();
      const result = visitor.page.getByTestId('document-check-result');
      await result.getByText('Basic document checks passed, you can continue.').waitFor();
      expect(await result.textContent()).toContain(checked);
      // Genuine, in force: no status of the service's own.
      expect(await result.textContent()).not.toMatch(/Dispatched|Issued/);
    }
    expect(await axeViolations(visitor.page)).toEqual([]);
    await visitor.context.close();

    // The officers' search finds it at its last step.
    const officer = await as(VERIFIER, PREFIX);
    await listShows(officer.page, '', 'Dispatched');
    await officer.context.close();
  });
});
