import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';
import { act, CHILD, paidVisa, VISA_APPLICANT_ROLES } from '../support/granted-visa';
import { applicationsOverHttp, payOverHttp } from '../support/http-applications';
import {
  accessible,
  accessibleInBoth,
  lang,
  leaveTooltips,
  SHOTS,
  switchLanguage,
} from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';
import { visaApplication } from '../support/visa-data';

const APPLICANT = {
  login: 'e2e.webvisa',
  password: 'Reef-Webvisa-6203!',
  firstName: 'Sione',
  lastName: 'Tui',
  roles: VISA_APPLICANT_ROLES,
};
const OFFICER = {
  login: 'e2e.webvisa.officer',
  password: 'Reef-Issuer-7314!',
  firstName: 'Tavita',
  lastName: 'Issuer',
  roles: [
    'visa-application-search',
    'visa-application-read',
    'visa-application-grant',
    'visa-application-issue',
  ],
};
const CONDITIONS = [
  { code: 'C1', description: 'Work for the sponsor only' },
  { code: 'C2', description: 'Leave before the expiry date' },
];

type View = {
  id: string;
  version: number;
  status: string;
  number: string;
  data: Record<string, unknown> & { dependants: Array<{ visaNumber?: string }> };
};

/**
 * The e-visa as a web page in Chromium: the holder opens it from the application's downloads;
 * it is written in the holder's language (French here, its article says so) while the page's
 * own buttons follow the reader's; one title, a heading per section, a description list of
 * labels and values; WCAG 2.2 AA in both languages; printed, only the e-visa is on the paper.
 * The application is lodged, paid, granted and issued through the API to keep it short.
 */
describe('the e-visa as an accessible web page in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let issued: View;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    await Promise.all([createAccount(portal, APPLICANT), createAccount(portal, OFFICER)]);
    const token = await apiToken(portal, APPLICANT.login, APPLICANT.password);
    const officer = await apiToken(portal, OFFICER.login, OFFICER.password);
    const api = applicationsOverHttp(portal.url);
    const base = visaApplication('WRK', 'WV1Y');
    // The holder reads French: their e-visa is written in French, whoever opens it.
    const data = {
      ...base,
      contact: { ...base.contact, preferredLanguage: 'fr' },
      dependants: [CHILD],
    };
    const paid = await paidVisa<View>(api, token, data, payOverHttp(api, token, 'Sione Tui'));
    const granted = await act<View>(api, officer, paid, 'grant', {
      personDecisions: [{ outcome: 'GRANTED', conditions: CONDITIONS }, { outcome: 'GRANTED' }],
      conditions: { selected: CONDITIONS },
    });
    issued = await act<View>(api, officer, granted, 'issue', {
      issuance: { effectiveDate: '2026-03-01', expiryDate: '2099-01-31', placeOfIssue: 'Apia' },
      conditions: { selected: CONDITIONS },
    });
    expect(issued.status).toBe('ISSUED');
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** The page once its e-visa is shown, its buttons in the reader's language. */
  const ready = (number: string) => async (page: Page) => {
    await page.getByRole('heading', { level: 2, name: `Visa électronique ${number}` }).waitFor();
    const print = (await lang(page)) === 'fr' ? 'Imprimer' : 'Print';
    await page.getByRole('button', { name: print, exact: true }).waitFor();
  };

  /** The holder, signed in on the application, opens the e-visa `number` from its downloads. */
  async function openFromDownloads(number: string) {
    const watched = await openWatchedPage(browser);
    await signIn(
      watched.page,
      portal,
      APPLICANT.login,
      APPLICANT.password,
      `/visa/application/view/${issued.id}`,
    );
    await watched.page.getByRole('link', { name: `View ${number} as a web page` }).click();
    await ready(number)(watched.page);
    return watched;
  }

  it('opens the holder’s e-visa from the downloads: its structure, its language, AA in both languages, printed alone', async () => {
    const { page, pageErrors } = await openFromDownloads(issued.number);
    expect(page.url()).toContain(`#/certificate/visa-application/${issued.id}`);

    // The e-visa is the holder's, in French; the page around it is the reader's, in English.
    const article = page.locator('article');
    expect(await article.getAttribute('lang')).toBe('fr');
    expect(await lang(page)).toBe('en');
    // One title (the header's h1 names the portal, as on every page), a heading per section.
    expect(await article.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Titulaire',
      'Visa',
      'Validité',
      'Conditions',
    ]);
    expect(await article.getByRole('heading', { level: 2 }).count()).toBe(1);
    // Labels and values in description lists; a list of conditions as a numbered list.
    const terms = await article.locator('dl dt').allTextContents();
    expect(terms).toEqual(expect.arrayContaining(['Nom de famille', 'Nationalité']));
    const family = article.locator('dl > div', {
      has: page.locator('dt', { hasText: 'Nom de famille' }),
    });
    expect(await family.locator('dd').textContent()).toBe('Tui');
    expect(await article.locator('dd ol li').allTextContents()).toEqual(
      CONDITIONS.map((c) => c.description),
    );
    const check = article.getByRole('link', { name: /#\/home\?number=/ });
    expect(await check.getAttribute('href')).toMatch(
      new RegExp(`/#/home\\?number=${issued.number}$`),
    );

    await accessibleInBoth(page, 'certificate-html', ready(issued.number));
    // Switched to French, the buttons speak French; the article, unchanged, still says French.
    await switchLanguage(page, 'fr');
    await ready(issued.number)(page);
    expect(await article.getAttribute('lang')).toBe('fr');
    await page.getByRole('button', { name: 'Télécharger le PDF' }).waitFor();
    await switchLanguage(page, 'en');

    // Dark, it is read as well.
    await page.getByRole('button', { name: 'Dark mode' }).first().click();
    await accessible(page, 'certificate-html dark');
    await page.getByRole('button', { name: 'Dark mode' }).first().click();

    // Screenshots to look at (SHOTS_DIR): light and dark, both languages, wide and phone.
    if (SHOTS) await screenshots(page, issued.number);

    // Printed: no header, menu or buttons; only the e-visa.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('banner').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print', exact: true }).isVisible()).toBe(false);
    expect(await article.isVisible()).toBe(true);
    if (SHOTS)
      await page.pdf({ path: path.join(SHOTS, 'certificate-html-print.pdf'), format: 'A4' });
    await page.emulateMedia({ media: 'screen' });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  /** The page as people see it, for a person to look at after the run. */
  async function screenshots(page: Page, number: string) {
    for (const scheme of ['light', 'dark'] as const) {
      if (scheme === 'dark') await page.getByRole('button', { name: 'Dark mode' }).first().click();
      for (const language of ['en', 'fr'] as const) {
        // The language is switched wide: a phone's header keeps that button in its menu.
        await page.setViewportSize({ width: 1366, height: 900 });
        await switchLanguage(page, language);
        for (const width of [1366, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await ready(number)(page);
          await leaveTooltips(page);
          await page.screenshot({
            path: path.join(SHOTS, `certificate-html-${scheme}-${language}-${width}.png`),
            fullPage: true,
          });
        }
      }
      await page.setViewportSize({ width: 1366, height: 900 });
      await switchLanguage(page, 'en');
      if (scheme === 'dark') {
        // Printed from dark mode, the paper is still black on white.
        await page.emulateMedia({ media: 'print' });
        await page.screenshot({
          path: path.join(SHOTS, 'certificate-html-print-from-dark.png'),
          fullPage: true,
        });
        await page.emulateMedia({ media: 'screen' });
        await page.getByRole('button', { name: 'Dark mode' }).first().click();
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: path.join(SHOTS, 'certificate-html-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
  }

  it('opens a dependant’s own e-visa by its number', async () => {
    const number = issued.data.dependants[0]!.visaNumber!;
    const { page, pageErrors } = await openFromDownloads(number);
    const given = page.locator('article dl > div', {
      has: page.locator('dt', { hasText: 'Prénom' }),
    });
    expect(await given.first().locator('dd').textContent()).toBe('Lani');
    await accessible(page, 'certificate-html dependant');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
