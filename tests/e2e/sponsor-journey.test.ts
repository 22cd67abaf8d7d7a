import fs from 'node:fs/promises';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, signIn } from '../support/e2e-accounts';
import {
  accessible,
  accessibleInBoth,
  act,
  badge,
  field,
  lang,
  panel,
  SHOTS,
  shot,
  switchLanguage,
  tab,
} from '../support/journey';
import { assertReadablePdf, extractPdfText } from '../support/pdf-text';
import { startPortal, type PortalProcess } from '../support/portal-process';

/** Demo accounts the portal starts with (seeds/connectid.json). */
const SPONSOR = { login: 'sponsor.org', password: 'Lagoon-Trade-5629' };
const VERIFIER = { login: 'verifier', password: 'Harbour-Light-9264!' };
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041' };

const PREFIX = '/sponsor/application';
const FULL_NAME = 'Lagoon Trading Company Ltd';
/** The SPORG entries of seeds/catalogs.json the form is filled from. */
const CHARACTER_QUESTION =
  'Has the organisation, or any of its directors, ever been convicted of an offence in any country?';
const PRACTICE_QUESTION =
  'Does the organisation have written procedures to support the people it sponsors (arrival, housing, welfare)? If so, describe them.';
const CERTIFICATE = 'Certificate of incorporation or registration';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(400, 32),
  Buffer.from('%%EOF\n'),
]);

type Person = { login: string; password: string };
type Signed = { page: Page; context: BrowserContext; pageErrors: string[] };

/**
 * A sponsor application from the organisation's first keystroke to a visa applicant naming the
 * sponsorship, in Chromium, as the demo accounts: the sponsor organisation fills every section
 * that applies to an organisation (part of it in French), uploads its certificate, submits and
 * pays through the sandbox gateway; the verification officer queries it; the sponsor replies
 * with a change; the officer grants it for three years, which gives the sponsorship number and
 * its expiry; the sponsor downloads the receipt; a visa applicant's form fills in the sponsor's
 * name from the number as it is typed, and refuses an unknown or expired number. Every sponsor
 * screen visited passes axe's WCAG 2.2 AA rules, in both languages where both are visited.
 */
describe('a sponsor application end to end in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  /** The sponsor keeps one signed-in browser context for the whole journey. */
  let sponsor: Signed;
  let id = '';
  let number = '';
  let reference = '';

  beforeAll(async () => {
    // Every request logged (info), so the test can hold the log free of the card.
    [portal, browser] = await Promise.all([startPortal({ LOG_LEVEL: 'info' }), launchChromium()]);
    if (SHOTS) await fs.mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** A signed-in page of its own (own cookies) for one person. */
  async function as(person: Person, route: string): Promise<Signed> {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, person.login, person.password, route);
    return { page, context, pageErrors };
  }
  const text = (scope: Page | Locator, label: string, value: string) =>
    field(scope, label).fill(value);
  /** A catalogue select: typing the code finds the entry, which is chosen. */
  const catalogue = async (page: Page, scope: Page | Locator, label: string, code: string) => {
    const input = scope.getByRole('combobox', { name: new RegExp(`^${label}`) }).first();
    await input.fill(code);
    await page
      .getByRole('option', { name: new RegExp(`^${code} - `) })
      .first()
      .click();
  };
  const yesNo = (scope: Page | Locator, question: string, answer: string) =>
    scope
      .getByRole('radiogroup', { name: new RegExp(`^${question.replace(/[?()]/g, '\\$&')}`) })
      .first()
      .getByLabel(answer, { exact: true })
      .check();
  const radio = (scope: Page | Locator, option: string) =>
    scope.getByRole('radio', { name: option, exact: true }).check();
  const shows = (page: Page, value: string | RegExp) => page.getByText(value).first().waitFor();
  /** The file chooser of an attachment's group, given a PDF. */
  async function upload(page: Page, group: string, name: string, button = 'Choose a file') {
    const chooser = page.waitForEvent('filechooser');
    await page
      .getByRole('group', { name: group })
      .getByRole('button', { name: button })
      .first()
      .click();
    await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer: PDF });
    await page.getByText(name).first().waitFor();
  }

  it('the sponsor organisation fills every section, part of it in French, and submits', async () => {
    sponsor = await as(SPONSOR, '/dashboard/home');
    const { page } = sponsor;

    // New Sponsor Application, from the menu.
    const burger = page.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    const menu = page.getByRole('navigation', { name: 'Application menu' });
    const entry = menu.getByRole('link', { name: 'New Sponsor Application' });
    while (!(await entry.isVisible())) {
      const closed = menu.locator('button[aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().click();
    }
    await entry.click();
    await page.waitForURL(`${portal.url}/#${PREFIX}/new`);
    if ((await burger.getAttribute('aria-expanded')) === 'true') await burger.click();

    await tab(page, 'Type of sponsor');
    await radio(panel(page), 'An organisation or government agency');
    // The organisation's own sections appear, the person's does not.
    await page.getByRole('tab', { name: /^Organisational practice/ }).waitFor();
    expect(await page.getByRole('tab', { name: /^Sponsor's personal details/ }).count()).toBe(0);
    await accessibleInBoth(page, 'new', (p) =>
      p
        .getByRole('tab', { name: /^Organisation/ })
        .first()
        .waitFor(),
    );

    await tab(page, 'Organisation');
    await text(panel(page), 'Company or agency name', 'Lagoon Trading');
    await text(panel(page), 'Full name of the organisation', FULL_NAME);
    await text(panel(page), 'Registration number', 'LTC-2011-0457');

    // Part of the form in French: the labels are French, the data is the same.
    await switchLanguage(page, 'fr');
    await tab(page, 'Coordonnées');
    await text(panel(page), 'Adresse \\(ligne 1\\)', '12 Harbour Street');
    await text(panel(page), 'Ville ou localité', 'Apia');
    await catalogue(page, panel(page), 'Pays', 'WS');
    await text(panel(page), 'Téléphone', '+685 555 0142');
    await text(panel(page), 'Adresse e-mail', 'sponsorships@lagoon-trading.example');
    await yesNo(panel(page), 'L’adresse de correspondance est-elle la même', 'Oui');

    await tab(page, 'Statut actuel dans le pays');
    await radio(panel(page), 'Citoyen ou résident permanent');

    await tab(page, 'Personne de contact autorisée');
    await text(panel(page), 'Nom', 'Ana Lefiti');
    await text(panel(page), 'Fonction', 'Responsable des ressources humaines');
    await text(panel(page), 'Adresse', '12 Harbour Street, Apia');
    await yesNo(panel(page), 'J’autorise cette personne', 'Oui');

    await tab(page, 'Parrainages antérieurs');
    await panel(page).getByTitle('Ajouter').click();
    await text(panel(page), 'Nom de famille de la personne parrainée', 'Faleolo');
    await text(panel(page), 'Prénom de la personne parrainée', 'Tavita');
    await text(panel(page), 'Date d’arrivée', '03/02/2022');
    await text(panel(page), 'Date de départ', '28/02/2023');
    await shot(page, 'new-fr-previous-sponsorships');

    // Back to English for the rest.
    await switchLanguage(page, 'en');
    await tab(page, 'Character questions');
    // The questions of an organisation, asked by the server from the Question catalogue.
    await shows(page, CHARACTER_QUESTION);
    const answerAllNo = async () => {
      const answers = panel(page).getByRole('radiogroup');
      const count = await answers.count();
      expect(count).toBeGreaterThan(1);
      for (let i = 0; i < count; i++) {
        const yes = answers.nth(i).getByLabel('Yes', { exact: true });
        if (!(await yes.isChecked()))
          await answers.nth(i).getByLabel('No', { exact: true }).check();
      }
    };
    await answerAllNo();

    await tab(page, 'Organisational practice');
    await shows(page, PRACTICE_QUESTION);
    const practice = panel(page).getByRole('group', { name: PRACTICE_QUESTION });
    await practice.getByLabel('Yes', { exact: true }).check();
    await text(practice, 'Explanation', 'A welcome officer meets each person and finds housing.');
    await answerAllNo();

    await tab(page, 'Dependants');
    await panel(page).getByTitle('Add').click();
    await text(panel(page), 'Family name', 'Lefiti');
    await text(panel(page), 'Given name', 'Sina');
    await text(panel(page), 'Date of birth', '14/06/2015');
    await catalogue(page, panel(page), 'Country of issue', 'WS');
    await catalogue(page, panel(page), 'Nationality', 'WS');
    await radio(panel(page), 'In good health');

    await tab(page, 'Declaration');
    await yesNo(panel(page), 'I make this declaration', 'Yes');

    await tab(page, 'Person assisting the sponsor');
    await yesNo(panel(page), 'Did someone help you', 'Yes');
    await text(panel(page), 'Full name', 'Losa Tuala');
    await text(panel(page), 'Organisation', 'Harbour Immigration Advisers');
    await text(panel(page), 'Address', '3 Wharf Road, Apia');

    await tab(page, 'Attachments');
    await shows(page, CERTIFICATE);
    await upload(page, CERTIFICATE, 'certificate.pdf');

    await tab(page, 'Note from the sponsor');
    await text(panel(page), 'Note', 'We sponsor seasonal workers every year.');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(page, 'Application Saved Successfully');
    await expect.poll(() => page.url()).toMatch(/\/edit\/[0-9a-f-]{36}$/);
    id = page.url().split('/').at(-1)!;
    await shot(page, 'edit-en');
    await accessibleInBoth(page, 'edit', (p) =>
      p.getByRole('group', { name: /^Actions (on this document|sur ce document)$/ }).waitFor(),
    );

    await act(page, 'Submit');
    await expect.poll(() => page.url()).toMatch(new RegExp(`${PREFIX}/view/${id}$`));
    await page
      .getByTestId('confirmation')
      .getByText('Application Submitted Successfully')
      .waitFor();
    const title = page.getByRole('heading', { name: /SPA-\d{4}-\d{6}/ });
    await title.waitFor();
    number = /SPA-\d{4}-\d{6}/.exec((await title.textContent()) ?? '')?.[0] ?? '';
    expect(number).not.toBe('');
    // The status as words, in both languages.
    await badge(page, 'Submitted');
    await accessibleInBoth(page, 'view-submitted', async (p) =>
      badge(p, (await lang(p)) === 'fr' ? 'Soumis' : 'Submitted'),
    );
    await shot(page, 'view-submitted');
    expect(sponsor.pageErrors).toEqual([]);
  });

  it('the sponsor pays the NZD 250.00 fee through the gateway', async () => {
    const { page } = sponsor;
    await page.goto(`${portal.url}/#${PREFIX}/view/${id}`);
    await page.getByRole('link', { name: 'Initiate payment' }).click();
    await page.getByRole('heading', { name: /^Payment confirmation/ }).waitFor();
    await shows(page, /250\.00/);
    await accessibleInBoth(page, 'confirmation', (p) =>
      p.getByRole('heading', { level: 2 }).first().waitFor(),
    );
    await page.getByLabel(/I have read and accept the terms and conditions/).check();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/sandbox-gateway\/pay\//);
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Name on card').fill('Ana Lefiti');
    await page.getByLabel('Expiry date (MM/YY)').fill('12/39');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /^Pay NZD/ }).click();
    // Back in the portal, on the outcome of the payment.
    await page.waitForURL(new RegExp(`^${portal.url}/#${PREFIX}/`));
    await shot(page, 'after-gateway');
    await shows(page, 'Application Paid Successfully');
    await badge(page, 'Paid for verification');
    await accessible(page, 'finalisation');
    // The card went to the gateway's page only: the portal's log never holds it.
    const logs = portal.logs();
    expect(logs).toContain('/sandbox-gateway/pay/');
    expect(logs).not.toContain('4111111111111111');
    expect(logs).not.toContain('4111 1111 1111 1111');
    expect(logs).not.toMatch(/"(cardNumber|securityCode|cvc|cvv)"/i);
  });

  it('the verification officer finds it and queries it; the sponsor replies with a change', async () => {
    const officer = await as(VERIFIER, '/dashboard/home');
    const { page } = officer;
    const burger = page.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    const menu = page.getByRole('navigation', { name: 'Application menu' });
    const entry = menu.getByRole('link', { name: 'Find Sponsor Applications' });
    while (!(await entry.isVisible())) {
      const closed = menu.locator('button[aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().click();
    }
    await entry.click();
    const row = page.getByRole('row').filter({ hasText: number });
    await row.getByText('Paid for verification', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Open ${number}` }).click();
    await page.getByRole('heading', { name: new RegExp(number) }).waitFor();
    await accessibleInBoth(page, 'view-officer', (p) =>
      p.getByRole('heading', { name: new RegExp(number) }).waitFor(),
    );

    // On to the verification screen (a next step of the view).
    await page.getByRole('navigation', { name: 'Next steps:' }).getByRole('link').first().click();
    await page.waitForURL(`${portal.url}/#${PREFIX}/verification/${id}`);
    await tab(page, 'Verification');
    await accessibleInBoth(page, 'verification', (p) => p.getByRole('tabpanel').first().waitFor());
    await shot(page, 'verification-en');
    const changes = panel(page).getByRole('radiogroup', {
      name: /^The sponsor must change the application/,
    });
    if ((await changes.count()) > 0) await changes.getByLabel('Yes', { exact: true }).check();
    await page
      .getByLabel('Notes', { exact: true })
      .fill('Please give the registration number as on the certificate.');
    await act(page, 'Query');
    await shows(page, 'Application Queried Successfully');
    await badge(page, 'Queried');
    expect(officer.pageErrors).toEqual([]);
    await officer.context.close();

    // The sponsor sees the query waiting for them, and replies to it.
    const own = sponsor.page;
    await own.goto(`${portal.url}/#/dashboard/home`);
    await own.goto(`${portal.url}/#${PREFIX}/view/${id}`);
    await shows(own, 'Please give the registration number as on the certificate.');
    await own.getByRole('link', { name: 'Reply to the query' }).click();
    await own.waitForURL(`${portal.url}/#${PREFIX}/replytoquery/${id}`);
    // The officer's question heads the reply screen.
    await own
      .getByRole('region', { name: 'The officer’s question' })
      .getByText('Please give the registration number as on the certificate.')
      .waitFor();
    await shot(own, 'replytoquery');
    await tab(own, 'Organisation');
    await accessibleInBoth(own, 'reply', (p) => p.getByRole('tabpanel').first().waitFor());
    await text(panel(own), 'Registration number', 'LTC-2011-0457-A');
    await own.getByRole('button', { name: 'Submit reply' }).click();
    await shows(own, 'Your reply is sent to the immigration officer');
    await badge(own, 'Replied for verification');
    expect(sponsor.pageErrors).toEqual([]);
  });

  it('the officer grants it for 3 years: a sponsorship number and an expiry 3 years ahead', async () => {
    const officer = await as(VERIFIER, `${PREFIX}/verification/${id}`);
    const { page } = officer;
    await tab(page, 'Verification');
    // Grant without the period: asked for on the screen, nothing sent; given, the mark and the
    // summary go and Grant goes out (it stayed refused until a reload).
    let sent = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/actions/grant')) sent += 1;
    });
    await act(page, 'Grant');
    const summary = page.getByTestId('error-summary');
    await summary.getByText('Sponsorship period granted: This field is required').waitFor();
    const period = panel(page).getByRole('combobox', { name: /^Sponsorship period granted/ });
    expect(await period.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toBe(0);
    await shot(page, 'verification-grant-refused');
    await catalogue(page, panel(page), 'Sponsorship period granted', 'SPO3Y');
    await summary.waitFor({ state: 'detached' });
    expect(await period.getAttribute('aria-invalid')).not.toBe('true');
    await act(page, 'Grant');
    await shows(page, 'Application Granted Successfully');
    await badge(page, 'Granted');
    // The officer is told what the grant means for the sponsor, not asked to hand the number on.
    const confirmation = page.getByTestId('confirmation');
    await confirmation.getByText(/^The sponsor has been told of the decision/).waitFor();
    expect(await confirmation.textContent()).not.toMatch(/Your reference|people you sponsor/);
    await shot(page, 'granted-officer');
    expect(officer.pageErrors).toEqual([]);
    await officer.context.close();

    const own = sponsor.page;
    // The sponsor's tab still shows the application as they left it: opened afresh, as a
    // person returning to it does (the same address again would not reload it).
    await own.goto(`${portal.url}/#${PREFIX}/view/${id}`);
    await own.reload();
    await badge(own, 'Granted');
    await tab(own, 'Sponsorship details');
    const details = (await panel(own).textContent()) ?? '';
    reference = /SPN-(\d{4})-\d{6}/.exec(details)?.[0] ?? '';
    expect(reference).toMatch(new RegExp(`^SPN-${new Date().getFullYear()}-\\d{6}$`));
    // Valid until three years ahead (the day before, or the day itself, by convention).
    const inThreeYears = new Date();
    inThreeYears.setFullYear(inThreeYears.getFullYear() + 3);
    const dates = [...details.matchAll(/(\d{2})\/(\d{2})\/(\d{4})/g)].map(([, d, m, y]) =>
      new Date(Number(y), Number(m) - 1, Number(d)).getTime(),
    );
    expect(
      dates.some((t) => Math.abs(t - inThreeYears.getTime()) < 3 * 86_400_000),
      details,
    ).toBe(true);
    await accessibleInBoth(own, 'view-granted', (p) => p.getByRole('tabpanel').first().waitFor());
    await shot(own, 'view-granted');
  });

  it('the sponsor downloads the receipt from the print screen: NZD 250.00, readable English', async () => {
    const { page } = sponsor;
    await page.goto(`${portal.url}/#${PREFIX}/print/${id}`);
    const button = page.getByRole('button', { name: 'Download the receipt (PDF)' });
    await button.waitFor();
    await accessibleInBoth(page, 'print', (p) =>
      p.getByRole('heading', { level: 2 }).first().waitFor(),
    );
    await shot(page, 'print');
    const download = page.waitForEvent('download');
    await button.click();
    const bytes = await fs.readFile(await (await download).path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await extractPdfText(bytes);
    assertReadablePdf(pdf, { language: 'en', names: [FULL_NAME, 'Lagoon Trading', 'Ana Lefiti'] });
    expect(pdf.text).toContain('250.00');
    expect(pdf.text).toContain('NZD');
    expect(sponsor.pageErrors).toEqual([]);
  });

  it("a visa applicant's form names the sponsor from the number, and refuses unknown and expired ones", async () => {
    const applicant = await as(APPLICANT, '/visa/application/new');
    const { page } = applicant;
    await page.getByRole('tab', { name: /^Sponsorship/ }).click();
    await yesNo(page, 'Are you sponsored', 'Yes');
    const typed = page.getByLabel(/^Sponsor reference number/);
    const name = page.getByLabel(/^Sponsor name/);
    // Asked of the server as the applicant types, without saving.
    await typed.fill(reference);
    await expect.poll(() => name.inputValue()).toBe(FULL_NAME);
    await shot(page, 'visa-sponsor-found');

    await typed.fill('SPN-1999-999999');
    await page.getByText('Invalid Sponsor reference').first().waitFor();
    await expect.poll(() => name.inputValue()).toBe('');

    // An expired sponsorship: the officer moves its expiry to yesterday on the modification screen.
    const officer = await as(VERIFIER, `${PREFIX}/modification/${id}`);
    await tab(officer.page, 'Sponsorship details');
    const yesterday = new Date(Date.now() - 86_400_000);
    const day = `${String(yesterday.getDate()).padStart(2, '0')}/${String(yesterday.getMonth() + 1).padStart(2, '0')}/${yesterday.getFullYear()}`;
    const until = field(panel(officer.page), 'Valid until');
    await until.fill(day);
    await act(officer.page, 'Modify');
    await shows(officer.page, 'Application Modified Successfully');
    await officer.context.close();

    await typed.fill(reference);
    await page.getByText('Invalid Sponsor reference').first().waitFor();
    await expect.poll(() => name.inputValue()).toBe('');
    expect(applicant.pageErrors).toEqual([]);
    await applicant.context.close();
  });
  it('every other sponsor screen passes axe in English and French', async () => {
    // The sponsor organisation's demo draft, for the screens that act on a draft.
    const token = await apiToken(portal, SPONSOR.login, SPONSOR.password);
    const found = await fetch(`${portal.url}/api/evisa/sponsor-application`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    const { items } = (await found.json()) as { items: Array<{ id: string; status: string }> };
    const draft = items.find((item) => item.status === 'STORED' && item.id !== id)?.id;
    expect(draft).toBeTruthy();
    // Settled: nothing loading any more, and the form or the document shown (every sponsor
    // screen lists the sponsor type's section).
    const ready = async (p: Page) => {
      await p.getByRole('heading', { level: 1 }).first().waitFor();
      await expect
        .poll(() => p.getByRole('status', { name: /^(Loading|Chargement)/ }).count())
        .toBe(0);
      // The visible one: a phone's section select holds the same words in a hidden option.
      await p
        .locator('text=/^(Type of sponsor|Type de parrain)$/ >> visible=true')
        .first()
        .waitFor();
    };
    const screens: Array<[Person, string]> = [
      [SPONSOR, '/drop'],
      [SPONSOR, `/submission/${draft}`],
      [SPONSOR, `/cancellation/${draft}`],
      [SPONSOR, `/undo/${draft}`],
      [SPONSOR, `/deletion/${draft}`],
      [SPONSOR, `/version/${id}/1`],
      [VERIFIER, '/creation'],
      [VERIFIER, `/change/${draft}`],
      [VERIFIER, `/modification/${id}`],
    ];
    for (const person of [SPONSOR, VERIFIER]) {
      const routes = screens.filter(([who]) => who === person).map(([, route]) => route);
      // Signed in on the first screen itself: a page opened while the sign-in is still being
      // completed would be taken back to where the sign-in started.
      const signed = await as(person, `${PREFIX}${routes[0]}`);
      for (const [index, route] of routes.entries()) {
        if (index > 0) {
          await signed.page.goto(`${portal.url}/#${PREFIX}${route}`);
          await signed.page.reload();
        }
        const name = route.replace(/\W+/g, '-').replace(/^-/, '');
        await accessibleInBoth(signed.page, name, ready).catch(async (error: Error) => {
          await shot(signed.page, `failed-${name}`);
          throw new Error(`${person.login} ${route}: ${error.message}`);
        });
      }
      expect(signed.pageErrors).toEqual([]);
      await signed.context.close();
    }
  });
});
