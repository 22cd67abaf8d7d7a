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
  SHOTS,
  shot,
  switchLanguage,
} from '../support/journey';
import { payOnGatewayPage } from '../support/http-applications';
import { multipartFile } from '../support/multipart';
import { startPortal, type PortalProcess } from '../support/portal-process';
import { visaApplication } from '../support/visa-data';

/** Demo accounts the portal starts with (seeds/connectid.json). */
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041' };
const VERIFIER = { login: 'verifier', password: 'Harbour-Light-9264!' };
type Person = { login: string; password: string };

const VISA = '/visa/application';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(400, 32),
  Buffer.from('%%EOF\n'),
]);
const QUERY = 'Merci de joindre une copie lisible de votre passeport.';

/**
 * The inbox in Chromium, as the demo accounts: the applicant's visa application (French
 * chosen as the language to be written to) is paid and waits for the verifier, who queries it;
 * the applicant sees the unread message counted in the menu and on the dashboard, opens it (it
 * is READ and no longer counted) and follows its link to the screen where they answer the
 * query; the verifier writes to the applicant from the application's screen. The inbox's
 * screens pass axe's WCAG 2.2 AA rules in French and English.
 */
describe('the inbox end to end in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let visa = { id: '', number: '' };

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
    if (SHOTS) await fs.mkdir(SHOTS, { recursive: true });
    const token = await apiToken(portal, APPLICANT.login, APPLICANT.password);
    const send = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${portal.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${await response.text()}`);
      return (await response.json()) as T;
    };
    // The applicant's application, submitted and paid through the sandbox gateway's page.
    const data = visaApplication('VIS', 'VV30');
    data.contact = { ...data.contact, preferredLanguage: 'fr' } as typeof data.contact;
    type Stored = {
      id: string;
      version: number;
      status: string;
      number: string;
      data: { characterQuestions: object[]; documents: object[] };
    };
    const stored = await send<Stored>('POST', '/api/evisa/visa-application', { data });
    const { body, contentType } = multipartFile('passport.pdf', 'application/pdf', PDF);
    const uploaded = await fetch(`${portal.url}/api/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
    });
    const file = (await uploaded.json()) as Record<string, unknown>;
    const submitted = await send<Stored>(
      'POST',
      `/api/evisa/visa-application/${stored.id}/actions/submit`,
      {
        version: stored.version,
        data: {
          ...data,
          characterQuestions: stored.data.characterQuestions.map((q) => ({ ...q, answer: false })),
          documents: stored.data.documents.map((d) => ({ ...d, file })),
        },
      },
    );
    await send('POST', `/api/evisa/visa-application/${stored.id}/actions/initiate`, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    const purchase = await send<{ redirectUrl: string }>(
      'POST',
      `/api/payments/visa-application/${stored.id}/purchase`,
    );
    await payOnGatewayPage(purchase.redirectUrl, 'Ana Tuilagi');
    const view = await send<Stored>('GET', `/api/evisa/visa-application/${stored.id}`);
    expect(view.status).toBe('PAID FOR VERIFICATION');
    visa = { id: stored.id, number: view.number };
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
  const MENU_NAME = /^(Application menu|Menu de l’application|Menu de l'application)$/;
  /** The inbox's entry of the application menu, with its count of unread messages. */
  const inboxEntry = (page: Page) =>
    page
      .getByRole('navigation', { name: MENU_NAME })
      .getByRole('link', { name: /^(Inbox|Boîte de réception)/ });
  /** Opens and closes the menu: its entries are made as it first opens, then kept. */
  async function makeMenu(page: Page): Promise<void> {
    const burger = page.getByRole('button', { name: MENU_NAME });
    await burger.click();
    await inboxEntry(page).waitFor();
    await burger.click();
  }

  it('the verifier queries the application', async () => {
    const { page, context, pageErrors } = await as(VERIFIER, `${VISA}/verification/${visa.id}`);
    await page.getByLabel('Notes', { exact: true }).fill(QUERY);
    await act(page, 'Query');
    await page.getByText('Application Queried Successfully').first().waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the applicant sees the message counted, opens it in French, and goes on to answer the query', async () => {
    const { page, context, pageErrors } = await as(APPLICANT, '/dashboard/home');
    await switchLanguage(page, 'fr');
    // The dashboard's message area counts it and shows it first, in French.
    const area = page.getByRole('region', { name: /^Messages/ });
    await area.getByText('1 non lu').first().waitFor();
    await area.getByText(`Demande de visa ${visa.number}`).first().waitFor();
    await area.getByText(QUERY).first().waitFor();
    // So does the menu.
    await makeMenu(page);
    await expect.poll(async () => (await inboxEntry(page).textContent()) ?? '').toMatch(/1/);
    await accessible(page, 'dashboard-inbox');
    await shot(page, 'inbox-dashboard-fr');

    await area
      .getByRole('link', { name: /^Ouvrir le message/ })
      .first()
      .click();
    await page.waitForURL(/#\/inbox\/message\/view\//);
    await page.getByText(QUERY).first().waitFor();
    // Opened by its holder: READ, and no longer counted.
    await badge(page, 'Lu');
    await expect.poll(async () => (await inboxEntry(page).textContent()) ?? '').not.toMatch(/\d/);
    await accessibleInBoth(page, 'inbox-message-view', async (p) => {
      await p.getByText(QUERY).first().waitFor();
    });
    await shot(page, 'inbox-message-view-en');

    // Its link leads to the screen where the applicant answers the query.
    await switchLanguage(page, 'fr');
    await page.getByRole('link', { name: 'Ouvrir le document concerné par ce message' }).click();
    await page.waitForURL(new RegExp(`#${VISA}/replytoquery/${visa.id}$`));
    await page.getByText(QUERY).first().waitFor();

    // The inbox lists it, read.
    await page.goto(`${portal.url}/#/inbox/message`);
    const row = page.getByRole('row').filter({ hasText: `Demande de visa ${visa.number}` });
    await row.getByText('Lu', { exact: true }).waitFor();
    await accessibleInBoth(page, 'inbox-list', async (p) => {
      await p.getByRole('row').nth(1).waitFor();
    });
    await shot(page, 'inbox-list-en');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the verifier writes to the applicant from the application screen', async () => {
    const { page, context, pageErrors } = await as(VERIFIER, `${VISA}/view/${visa.id}`);
    await page.getByRole('button', { name: 'Write to the holder' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Subject/).fill('Your passport copy');
    await dialog.getByLabel(/^Message/).fill('Please bring your passport to the office on Monday.');
    // The dialog has faded in: axe measures its colours as they stay, not half way.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    await accessible(page, 'write-message-dialog');
    await shot(page, 'inbox-write-dialog-en');
    await dialog.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Message Sent Successfully').first().waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();

    // The applicant finds it in their inbox, unread.
    const applicant = await as(APPLICANT, '/inbox/message');
    const row = applicant.page.getByRole('row').filter({ hasText: 'Your passport copy' });
    await row
      .getByText(/^(Created|Sent|Créé|Envoyé)$/)
      .first()
      .waitFor();
    await makeMenu(applicant.page);
    await expect
      .poll(async () => (await inboxEntry(applicant.page).textContent()) ?? '')
      .toMatch(/1/);
    await applicant.context.close();
  });
});
