import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, signIn } from '../support/e2e-accounts';
import {
  accessible,
  accessibleInBoth,
  act,
  badge,
  field,
  fromMenu,
  panel,
  SHOTS,
  shot,
  switchLanguage,
  tab,
} from '../support/journey';
import { applicationsOverHttp } from '../support/http-applications';
import { assertReadablePdf, extractPdfText } from '../support/pdf-text';
import { startPortal, type PortalProcess } from '../support/portal-process';
import {
  submittedSponsorship,
  submittedVisa,
  type SubmittedApplication,
} from '../support/submitted-applications';

/** Demo accounts the portal starts with (seeds/connectid.json). */
const AGENT = { login: 'agent', password: 'Trade-Wind-7453' };
const VERIFIER = { login: 'verifier', password: 'Harbour-Light-9264!' };

const PREFIX = '/accounts/invoice';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(400, 32),
  Buffer.from('%%EOF\n'),
]);

type Person = { login: string; password: string };

/**
 * A payment invoice from the payer's first keystroke to the applications it pays waiting for
 * the officers, in Chromium, as the demo accounts: the agent lists a submitted visa application
 * and a submitted sponsor application of theirs by number (the amounts and totals appear as the
 * numbers are typed), creates the invoice, downloads the e-invoice and reads it, uploads the
 * payment advice and submits it; the verification officer queries it; the agent replies with a
 * new advice; the officer verifies it, and both applications are paid for verification and wait
 * in the officers' queues. Every invoice screen visited passes axe's WCAG 2.2 AA rules, in
 * French as well as English.
 */
describe('a payment invoice end to end in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let visa: SubmittedApplication;
  let sponsorship: SubmittedApplication;
  let id = '';
  let number = '';
  let total = '';

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
    if (SHOTS) await fs.mkdir(SHOTS, { recursive: true });
    // The agent lodged both applications and submitted them; their fees are due.
    const token = await apiToken(portal, AGENT.login, AGENT.password);
    const api = applicationsOverHttp(portal.url);
    visa = await submittedVisa(api, token);
    sponsorship = await submittedSponsorship(api, token);
    const cents =
      Math.round(Number(visa.data.fees!.total) * 100) +
      Math.round(Number(sponsorship.data.fees!.total) * 100);
    total = (cents / 100).toLocaleString('en', { minimumFractionDigits: 2 });
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  async function as(person: Person, route: string) {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, person.login, person.password, route);
    return { page, context, pageErrors };
  }
  /** The payment advice's file chooser (the screen opens on its section), given a PDF. */
  async function uploadAdvice(page: Page, name: string) {
    await page.getByRole('tabpanel', { name: 'Payment advice' }).waitFor();
    const chooser = page.waitForEvent('filechooser');
    await panel(page)
      .getByRole('button', { name: /^(Choose a file|Replace the file)$/ })
      .first()
      .click();
    await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer: PDF });
    await page.getByText(name).first().waitFor();
  }
  /** Finds the invoice in one of its lists, in the status given, and opens it. */
  async function openFromList(page: Page, list: string, status: string) {
    await page.goto(`${portal.url}/#${PREFIX}${list}`);
    const row = page.getByRole('row').filter({ hasText: number });
    await row.getByText(status, { exact: true }).waitFor();
    await page.getByRole('button', { name: `Open ${number}` }).click();
  }
  it('the agent lists two submitted applications, sees them priced, and creates the invoice', async () => {
    const { page, context, pageErrors } = await as(AGENT, '/dashboard/home');
    await fromMenu(page, 'New Payment Invoice');
    await page.waitForURL(`${portal.url}/#${PREFIX}/new`);

    await tab(page, 'Payer');
    // The payer starts as the agent: their name and e-mail, and their profile's address.
    for (const [label, value] of [
      ["Payer's name", 'Mele Agent'],
      ['E-mail', 'agent@demo.immigration.example'],
      ['Address line 1', '4 Beach Road'],
      ['City or town', 'Apia'],
      ['Postal code', 'WS1330'],
    ] as const)
      await expect.poll(() => field(panel(page), label).inputValue()).toBe(value);
    await expect
      .poll(() =>
        panel(page)
          .getByRole('combobox', { name: /^Country/ })
          .first()
          .inputValue(),
      )
      .toMatch(/^WS - /);
    await panel(page)
      .getByRole('radiogroup', { name: /^Is the contact person the payer/ })
      .getByLabel('Yes', { exact: true })
      .check();

    await tab(page, 'Applications to pay');
    // The list starts with one line (an invoice pays at least one application); Add gives more.
    const numbers = panel(page).getByLabel(/^Application number/);
    // A number nothing of the payer's has is refused as it is typed, under its field.
    await numbers.nth(0).fill('VA-1999-999999');
    await panel(page)
      .getByText('No application you may pay has the number VA-1999-999999')
      .waitFor();
    await numbers.nth(0).fill(visa.number);
    await panel(page).getByTitle('Add').click();
    await numbers.nth(1).fill(sponsorship.number);
    // The server prices each application as its number is typed: amounts and totals appear.
    const amounts = panel(page).getByLabel(/^Amount to pay/);
    await expect.poll(() => amounts.nth(0).inputValue()).toBe(visa.data.fees!.total);
    await expect.poll(() => amounts.nth(1).inputValue()).toBe(sponsorship.data.fees!.total);
    expect(
      await panel(page)
        .getByText(/No application you may pay/)
        .count(),
    ).toBe(0);
    // Each line names its applicant (the visa's, the sponsoring company), not the payer; the
    // values the server fills are read-only, at full contrast (axe checks them below).
    const applicants = panel(page).getByLabel(/^Applicant/);
    await expect.poll(() => applicants.nth(0).inputValue()).toBe('Sione Tui');
    await expect.poll(() => applicants.nth(1).inputValue()).toBe('Lagoon Trading');
    expect(await applicants.nth(0).getAttribute('readonly')).not.toBeNull();
    await accessibleInBoth(page, 'invoice-new', (p) =>
      p
        .getByRole('tab', { name: /^(Applications to pay|Demandes à payer)/ })
        .first()
        .waitFor(),
    );
    await act(page, 'Create');
    await shot(page, 'invoice-create-clicked');
    await page
      .getByText(/^The invoice is created/)
      .first()
      .waitFor();
    // Created, the invoice opens where its payer goes on with it.
    await expect.poll(() => page.url()).toMatch(/\/(edit|view)\/[0-9a-f-]{36}$/);
    await shot(page, 'invoice-created');
    id = page.url().split('/').pop()!;
    number =
      (await page
        .getByText(/^INV-\d{4}-\d{6}$/)
        .first()
        .textContent()) ?? '';
    expect(number).toMatch(/^INV-\d{4}-\d{6}$/);
    await badge(page, 'Created');
    await shot(page, 'invoice-created');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the agent downloads the e-invoice, uploads the payment advice and submits it', async () => {
    const { page, context, pageErrors } = await as(AGENT, `${PREFIX}/view/${id}`);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the e-invoice (PDF)' }).click();
    expect((await download).suggestedFilename()).toBe(`${number}.pdf`);
    const pdf = await extractPdfText(
      new Uint8Array(await fs.readFile(await (await download).path())),
    );
    assertReadablePdf(pdf, { language: 'en' });
    for (const expected of [number, visa.number, sponsorship.number, `NZD ${total}`, 'Mele Agent'])
      expect(pdf.text).toContain(expected);
    // It says where to pay and by when: the payee, the account, the due date (today plus the
    // bank-account catalogue's 14 days), the reference to quote, and the payer's address.
    const due = new Date();
    due.setUTCDate(due.getUTCDate() + 14);
    const dueDate = due.toISOString().slice(0, 10).split('-').reverse().join('/');
    expect(pdf.lines.map((line) => line.text)).toEqual(
      expect.arrayContaining([
        'Payee\tImmigration Service',
        'Account number\t02-0100-0123456-00',
        `Due date\t${dueDate}`,
        `Reference to quote\t${number}`,
        'Address\t4 Beach Road',
        'Applications to pay',
      ]),
    );
    expect(pdf.lines.filter((line) => line.text.includes('Applications to pay'))).toHaveLength(1);
    // The invoice's screen shows the same.
    await tab(page, 'Where to pay');
    for (const value of ['Immigration Service', '02-0100-0123456-00', dueDate, number])
      await panel(page).getByText(value, { exact: true }).first().waitFor();
    await accessibleInBoth(page, 'invoice-where-to-pay', (p) =>
      p
        .getByRole('tab', { name: /^(Where to pay|Où payer)/ })
        .first()
        .waitFor(),
    );

    // The list of invoices to submit has it; it opens on the payment advice.
    await openFromList(page, '/created', 'Created');
    await page.waitForURL(`${portal.url}/#${PREFIX}/submitpayment/${id}`);
    await uploadAdvice(page, 'bank-advice.pdf');
    await field(panel(page), 'Bank transfer reference').fill('BT-2026-0042');
    await accessibleInBoth(page, 'invoice-submitpayment', (p) =>
      p
        .getByRole('tab', { name: /^(Payment advice|Avis de paiement)/ })
        .first()
        .waitFor(),
    );
    await act(page, 'Submit payment advice');
    await shot(page, 'invoice-submitpayment-clicked');
    await page
      .getByText(/^Your payment advice is submitted/)
      .first()
      .waitFor();
    await badge(page, 'Submitted');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the officer queries it, the agent replies with a new advice', async () => {
    const officer = await as(VERIFIER, `${PREFIX}/submitted`);
    await openFromList(officer.page, '/submitted', 'Submitted');
    await officer.page.waitForURL(`${portal.url}/#${PREFIX}/verification/${id}`);
    await accessibleInBoth(officer.page, 'invoice-verification', (p) =>
      p
        .getByRole('tab', { name: /^(Applications to pay|Demandes à payer)/ })
        .first()
        .waitFor(),
    );
    await officer.page
      .getByLabel('Notes', { exact: true })
      .fill('The advice shows a different amount, please check it');
    await act(officer.page, 'Query');
    await badge(officer.page, 'Queried');
    expect(officer.pageErrors).toEqual([]);
    await officer.context.close();

    const { page, context, pageErrors } = await as(AGENT, `${PREFIX}/replytoquery/${id}`);
    // The officer's question heads the reply, before anything is asked of the agent.
    await page
      .getByRole('region', { name: 'The officer’s question' })
      .getByText('The advice shows a different amount, please check it')
      .waitFor();
    await shot(page, 'invoice-replytoquery');
    await uploadAdvice(page, 'corrected-advice.pdf');
    await act(page, 'Submit reply');
    await badge(page, 'Submitted');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the officer verifies it: both applications are paid and wait for the officers', async () => {
    const { page, context, pageErrors } = await as(VERIFIER, `${PREFIX}/verification/${id}`);
    // The officer records what the bank received, to the cent, and its reference.
    await page
      .getByRole('tab', { name: /^Verification/ })
      .first()
      .click();
    await page.getByLabel('Amount received').fill(total.replace(/,/g, ''));
    await page.getByLabel('Bank reference of the transfer').fill('BNZ-77120');
    await act(page, 'Verify');
    await badge(page, 'Verified');
    await shot(page, 'invoice-verified');

    // The visa application waits in For assignment, paid by the invoice.
    await page.goto(`${portal.url}/#/visa/application/assignable`);
    await page
      .getByRole('row')
      .filter({ hasText: visa.number })
      .getByText('Paid for verification', { exact: true })
      .waitFor();
    // The sponsor application is found paid, for the officers to verify.
    await page.goto(`${portal.url}/#/sponsor/application`);
    await page
      .getByRole('row')
      .filter({ hasText: sponsorship.number })
      .getByText('Paid for verification', { exact: true })
      .waitFor();
    await switchLanguage(page, 'fr');
    await accessible(page, 'sponsor-find');
    await switchLanguage(page, 'en');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
