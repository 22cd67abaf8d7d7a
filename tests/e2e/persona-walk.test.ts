import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, ConsoleMessage, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { axeViolations, WCAG_22_AA } from '../support/axe';
import { launchChromium } from '../support/browser';
import { apiToken, signIn } from '../support/e2e-accounts';
import {
  loadVocabulary,
  pageTexts,
  textProblems,
  type PageVocabulary,
} from '../support/page-guard';
import { leaveTooltips } from '../support/journey';
import { officersContacts, publicLogins } from '../support/officers';
import { startPortal, type PortalProcess } from '../support/portal-process';
import { applicationsOverHttp, payOnGatewayPage } from '../support/http-applications';
import { invoiceData, submittedVisa } from '../support/submitted-applications';
import { visaApplication } from '../support/visa-data';

/**
 * Every demo persona, signed in for real, opens every page its menu offers, the view of a
 * document its lists show it, in English in the light scheme and in French in the dark one (the
 * two passes cover both languages for the texts and both schemes for contrast), and each page
 * must show nothing raw: no translation key or i18next error, no status or enumeration code, no
 * English on a French page, no axe WCAG 2.2 AA violation, no console error or warning, no page
 * error. An applicant, a sponsor or a payer never reads an officer's e-mail or mobile, neither
 * on a page nor in any answer of the API their pages ask for, though officers have worked on
 * their documents. The report lists every problem of a persona at once.
 *
 * SHOTS_DIR=/some/folder saves a screenshot of every page visited, to look at.
 */

const PERSONAS = [
  { login: 'applicant', password: 'Palm-Breeze-2041' },
  { login: 'sponsor', password: 'Coral-Reef-3187' },
  { login: 'sponsor.org', password: 'Lagoon-Trade-5629' },
  { login: 'agent', password: 'Trade-Wind-7453' },
  { login: 'verifier', password: 'Harbour-Light-9264!' },
  { login: 'validator', password: 'Island-Chart-4518!' },
  { login: 'approver', password: 'Summit-Ridge-6372!' },
  { login: 'idadmin', password: 'Key-Keeper-8105!' },
  { login: 'catalogue', password: 'Ledger-Stone-2976!' },
  { login: 'analyst', password: 'Chart-Weaver-5318!' },
];

/** The officers' e-mails and mobiles, which only officers may read. */
const OFFICER_CONTACTS = officersContacts();
/** The personas who are no officers (applicants, sponsors, payers). */
const PUBLIC = publicLogins();

interface Pass {
  language: 'en' | 'fr';
  scheme: 'light' | 'dark';
}

describe('every persona sees words, not internals, on every page it can open', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let vocabulary: PageVocabulary;

  /** Visa applications of the demo applicant, so that lists and views have something to show. */
  async function seedApplications() {
    const token = await apiToken(portal, 'applicant', 'Palm-Breeze-2041');
    const send = async (method: 'GET' | 'POST', apiPath: string, body?: unknown) =>
      (await call(token, method, apiPath, body)) as unknown as {
        id: string;
        version: number;
        data: {
          characterQuestions?: Array<Record<string, unknown>>;
          documents?: Array<Record<string, unknown>>;
        };
      };
    await send('POST', '/evisa/visa-application', { data: visaApplication('VIS', 'VV30') });
    // Its notices are written in French, the language chosen on it: messages are data in the
    // language they were written in, and English data would read as English on a French page.
    const french = visaApplication('VIS', 'VV30');
    french.contact = { ...french.contact, preferredLanguage: 'fr' } as typeof french.contact;
    const stored = await send('POST', '/evisa/visa-application', { data: french });
    const file = await applicationsOverHttp(portal.url).uploadPdf(token);
    const submitted = await send('POST', `/evisa/visa-application/${stored.id}/actions/submit`, {
      version: stored.version,
      data: {
        ...french,
        characterQuestions: stored.data.characterQuestions?.map((q) => ({ ...q, answer: false })),
        documents: stored.data.documents?.map((d) => ({ ...d, file })),
      },
    });
    await seedOfficersWork(token, submitted);
  }

  /** A JSON call of the API as the token's holder; anything but 2xx stops the walk. */
  async function call(
    token: string,
    method: 'GET' | 'POST' | 'PATCH',
    apiPath: string,
    body?: unknown,
  ) {
    const answer = await applicationsOverHttp(portal.url).send(
      method,
      `/api${apiPath}`,
      token,
      body,
    );
    return answer as { id: string; version: number; number: string } & Record<string, unknown>;
  }

  /** The account of the token's holder chooses French: what it is told is written in French. */
  async function speaksFrench(token: string) {
    const subject = (
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
        sub: string;
      }
    ).sub;
    const account = await call(token, 'GET', `/connectid/account/${subject}`);
    await call(token, 'POST', `/connectid/account/${subject}/actions/set-preferences`, {
      version: account.version,
      data: { preferences: { language: 'fr' } },
    });
  }

  /**
   * Officers at work on the public's documents, so that their pages have officers' lines to
   * show: the applicant's application paid, assigned and queried (a notice in their inbox); a
   * message written to the sponsor organisation about its application; the agent's invoice
   * queried.
   */
  async function seedOfficersWork(applicant: string, visa: { id: string; version: number }) {
    const initiated = await call(
      applicant,
      'POST',
      `/evisa/visa-application/${visa.id}/actions/initiate`,
      {
        version: visa.version,
        data: { termsAccepted: true },
      },
    );
    const purchase = await call(
      applicant,
      'POST',
      `/payments/visa-application/${initiated.id}/purchase`,
    );
    await payOnGatewayPage(String(purchase.redirectUrl), 'Ana Tuilagi');
    const verifier = await apiToken(portal, 'verifier', 'Harbour-Light-9264!');
    const waiting = await call(verifier, 'GET', `/evisa/visa-application/${visa.id}`);
    const assigned = await call(
      verifier,
      'POST',
      `/evisa/visa-application/${visa.id}/actions/assign`,
      {
        version: waiting.version,
        assignee: 'verifier',
      },
    );
    await call(verifier, 'POST', `/evisa/visa-application/${visa.id}/actions/query`, {
      version: assigned.version,
      notes: 'Please upload a clearer copy of your passport.',
    });
    await speaksFrench(await apiToken(portal, 'sponsor.org', 'Lagoon-Trade-5629'));
    const sponsorships = (await call(verifier, 'PATCH', '/evisa/sponsor-application', {
      list: 'find',
    })) as unknown as { items: Array<{ id: string }> };
    await call(verifier, 'POST', '/evisa/inbox-message', {
      action: 'write',
      data: {
        message: { subject: 'Votre parrainage', message: 'Veuillez appeler le bureau.' },
        about: { type: 'sponsor-application', id: sponsorships.items[0]!.id },
      },
    });
    const agent = await apiToken(portal, 'agent', 'Trade-Wind-7453');
    await speaksFrench(agent);
    const applications = applicationsOverHttp(portal.url);
    const own = await submittedVisa(applications, agent);
    const invoice = await call(agent, 'POST', '/evisa/payment-invoice', {
      action: 'create',
      data: invoiceData([own.number]),
    });
    const sent = await call(agent, 'POST', `/evisa/payment-invoice/${invoice.id}/actions/upload`, {
      version: invoice.version,
      data: { payment: { advice: await applications.uploadPdf(agent) } },
    });
    await call(verifier, 'POST', `/evisa/payment-invoice/${invoice.id}/actions/query`, {
      version: sent.version,
      data: {},
      notes: 'The advice is unreadable.',
    });
  }

  beforeAll(async () => {
    vocabulary = loadVocabulary();
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
    await seedApplications();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /**
   * Waits until the page has no request in flight and no loader showing, three times in a row
   * with the page idle in between; what still runs after 30 s is returned, to be reported (a
   * page that never settles is a defect too).
   */
  async function settle(page: Page, inFlight: Set<Request>): Promise<string | undefined> {
    await page.locator('main, [role=main]').first().waitFor();
    const busyElements = page
      .locator('[role=status][aria-label], [aria-busy=true], .mantine-Loader-root')
      .filter({ visible: true });
    let quiet = 0;
    const deadline = Date.now() + 30_000;
    while (quiet < 3) {
      const busy = await busyElements.count();
      quiet = busy === 0 && inFlight.size === 0 ? quiet + 1 : 0;
      if (quiet === 0 && Date.now() > deadline)
        return `still busy after 30 s: ${busy} loaders, requests ${[...inFlight].map((r) => r.url()).join(', ')}`;
      await pageIdle(page);
    }
    return undefined;
  }

  /**
   * Resolves when the page's main thread has run what it had queued (a response's handling, a
   * render, the effects that start the next request), rather than after a fixed pause: at once
   * on an idle page, later on a page or a machine that is busy. The cap only keeps a page that
   * is never idle from stalling the loop; settle's own deadline reports it.
   */
  function pageIdle(page: Page): Promise<void> {
    return page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestIdleCallback(() => requestAnimationFrame(() => setTimeout(resolve)), {
            timeout: 1_000,
          }),
        ),
    );
  }

  /** The menu's links: every folder unfolded, in order. */
  async function menuLinks(page: Page): Promise<string[]> {
    const burger = page.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    const menu = page.getByRole('navigation', { name: 'Application menu' });
    await menu.locator('a').first().waitFor();
    for (;;) {
      const closed = menu.locator('button[aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().click();
    }
    const links = await menu
      .locator('a[href^="#/"]')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')!.slice(1)));
    await burger.click();
    return [...new Set(links)];
  }

  async function switchTo(page: Page, pass: Pass, expect: ExpectStatic) {
    const scheme = await page.evaluate(() => document.documentElement.dataset.mantineColorScheme);
    if (scheme !== pass.scheme)
      await page
        .getByRole('toolbar')
        .getByRole('button', { name: /^(Dark mode|Mode sombre)/ })
        .click();
    const language = await page.evaluate(() => document.documentElement.lang);
    if (language !== pass.language)
      await page
        .getByRole('toolbar')
        .getByRole('button', { name: /language|langue/i })
        .click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(pass.language);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.mantineColorScheme))
      .toBe(pass.scheme);
    await leaveTooltips(page, expect);
  }

  // A persona's walk mostly waits (for its pages to settle, for axe): the personas walk at once,
  // each in a browser context of its own, as many at a time as the e2e project's maxConcurrency.
  for (const persona of PERSONAS) {
    it.concurrent(`walks ${persona.login}'s pages`, { timeout: 900_000 }, ({ expect }) =>
      walk(persona, expect),
    );
  }

  async function walk(persona: (typeof PERSONAS)[number], expect: ExpectStatic) {
    const context = await browser.newContext({
      locale: 'en-NZ',
      viewport: { width: 1366, height: 900 },
    });
    const page = await context.newPage();
    const problems: string[] = [];
    let route = '(sign-in)';
    let pass: Pass = { language: 'en', scheme: 'light' };
    // A redirect is a new request whose predecessor never finishes on its own.
    const inFlight = new Set<Request>();
    page.on('request', (request) => {
      const before = request.redirectedFrom();
      if (before) inFlight.delete(before);
      inFlight.add(request);
    });
    page.on('requestfinished', (request) => inFlight.delete(request));
    page.on('requestfailed', (request) => inFlight.delete(request));
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${route} [${pass.language}]: console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) =>
      problems.push(`${route} [${pass.language}]: page error: ${error.message}`),
    );
    // What the API tells the public is read whole, not only what a page shows of it.
    const answersRead: Array<Promise<void>> = [];
    if (PUBLIC.has(persona.login))
      page.on('response', (response) => {
        if (!new URL(response.url()).pathname.startsWith('/api/')) return;
        const asked = `${persona.login} ${route} [${pass.language}]`;
        answersRead.push(
          response
            .text()
            .then((body) => {
              for (const contact of OFFICER_CONTACTS)
                if (body.includes(contact))
                  problems.push(`${asked}: ${response.url()} answers an officer's ${contact}`);
            })
            .catch(() => undefined),
        );
      });

    await signIn(page, portal, persona.login, persona.password, '/dashboard/home');
    await settle(page, inFlight);
    // A persona who chose French signs in to French pages; the menu is read in English.
    await switchTo(page, pass, expect);
    const routes = ['/dashboard/home', ...(await menuLinks(page))];

    const shotsDir = process.env.SHOTS_DIR;
    /** Checks what the page shows; every problem goes to the persona's report. */
    const checkPage = async (shown: string, { language, scheme }: Pass) => {
      const where = `${persona.login} ${shown} [${language}, ${scheme}]`;
      if (/#\/40[13]$/.test(page.url()))
        problems.push(`${where}: the menu offers a page that answers ${page.url()}`);
      const texts = await pageTexts(page);
      for (const problem of textProblems(texts, vocabulary, {
        language,
        cellsAreData: shown.startsWith('/catalog/'),
      }))
        problems.push(`${where}: ${problem}`);
      if (PUBLIC.has(persona.login))
        for (const contact of OFFICER_CONTACTS)
          if (texts.some(({ text }) => text.includes(contact)))
            problems.push(`${where}: shows an officer's ${contact}`);
      for (const violation of await axeViolations(page, WCAG_22_AA))
        problems.push(`${where}: axe ${violation.id}: ${violation.targets.join(', ')}`);
      if (shotsDir)
        await page.screenshot({
          path: path.join(
            shotsDir,
            `${persona.login}-${language}-${scheme}${shown.replace(/[/:]/g, '_')}.png`,
          ),
          fullPage: true,
        });
    };
    /**
     * The first document a list or library offers, once per workflow: the screen its Open
     * leads to is a page of the persona's too.
     */
    const opened = new Set<string>();
    const discoverDocument = async (list: string) => {
      const family = (hash: string) => hash.split('/').slice(0, 3).join('/');
      if (!list.startsWith('/dashboard/') && opened.has(family(list))) return;
      const open = page
        .locator('main')
        .getByRole('link', { name: /^(Open|Ouvrir)\b/ })
        // A catalogue's Open waits for a chosen row (disabled until then): not a document's.
        .or(page.locator('main').getByRole('button', { name: /^(Open|Ouvrir)\b/, disabled: false }))
        .or(page.locator('main a[href*="/view/"]'))
        // A list drawn twice (a table, and cards for a phone) shows one of them only.
        .filter({ visible: true });
      if ((await open.count()) === 0) return;
      await open.first().click();
      await expect.poll(() => page.url()).not.toBe(`${portal.url}/#${list}`);
      const target = new URL(page.url()).hash.slice(1);
      const isNew = !opened.has(family(target)) || list.startsWith('/dashboard/');
      opened.add(family(list));
      opened.add(family(target));
      if (isNew && !routes.includes(target)) routes.push(target);
    };
    if (shotsDir) await fs.mkdir(shotsDir, { recursive: true });
    for (pass of [
      { language: 'en', scheme: 'light' },
      { language: 'fr', scheme: 'dark' },
    ] satisfies Pass[]) {
      await switchTo(page, pass, expect);
      // Discovered views are appended to `routes` during the first pass, so the second pass
      // sees them too.
      for (let index = 0; index < routes.length; index++) {
        route = routes[index]!;
        await page.goto(`${portal.url}/#${route}`);
        const unsettled = await settle(page, inFlight);
        if (unsettled) problems.push(`${persona.login} ${route} [${pass.language}]: ${unsettled}`);
        await checkPage(route, pass);
        if (pass.language === 'en') await discoverDocument(route);
      }
    }
    await Promise.all(answersRead);
    await context.close();
    expect(problems).toEqual([]);
  }
});
