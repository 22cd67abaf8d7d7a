import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, signIn } from '../support/e2e-accounts';
import { accessibleInBoth, act } from '../support/journey';
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
const BANK = 'Bank statements for the last three months';
const PURPOSE = 'Explain the purpose of your trip';
const QUESTION = 'Two things are missing from your application.';
/** Three weeks from now: before the reply date (the query lapses at 28 days). */
const DUE = new Date(Date.now() + 21 * 864e5).toISOString().slice(0, 10);
const DUE_SHOWN = DUE.split('-').reverse().join('/');
const CASE_NOTE = 'Internal: the employer letter needs a call to the company.';

/**
 * Requests for information in Chromium (docs/workflows.md): the verifier queries a paid visa
 * application asking for two items, a bank statement chosen from the attachment catalogue with
 * a due date and a free-text question; the applicant finds both at the top of the reply screen,
 * answers them (a file, a text) and replies; the verifier sees both answered. The verifier's
 * internal case note and the Risk flag never reach the applicant: not on the page, and not in
 * any answer of the API its pages read.
 */
describe('requests for information end to end in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let visa = { id: '' };

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
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
    type Stored = {
      id: string;
      version: number;
      status: string;
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
    visa = { id: stored.id };
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

  it('the verifier queries the application asking for two items, one by a due date', async () => {
    const { page, context, pageErrors } = await as(VERIFIER, `${VISA}/verification/${visa.id}`);
    const editor = page.getByRole('group', { name: 'Items to request' });
    await editor.waitFor();
    // From the attachment catalogue, searched on the server by what is typed.
    const entry = editor.getByRole('combobox', { name: 'Entry' });
    await entry.click();
    await entry.fill('bank');
    await page.getByRole('option', { name: `BANK - ${BANK}` }).click();
    await expect.poll(() => entry.inputValue()).toBe(`BANK - ${BANK}`);
    await editor.getByLabel('Due date').fill(DUE);
    await editor.getByRole('button', { name: 'Add the item' }).click();
    const drafted = page.getByTestId('request-items-draft');
    await drafted.getByText(`BANK - ${BANK}`, { exact: false }).waitFor();
    // Then one in free text, answered by a text.
    await editor.getByRole('combobox', { name: 'Item from' }).click();
    await page.getByRole('option', { name: 'Free text' }).click();
    await editor.getByLabel('What you ask for').fill(PURPOSE);
    await editor.getByRole('combobox', { name: 'Answered by' }).click();
    await page.getByRole('option', { name: 'An answer' }).click();
    await editor.getByRole('button', { name: 'Add the item' }).click();
    await drafted.getByText(PURPOSE, { exact: false }).waitFor();
    // The items to request pass axe's WCAG 2.2 AA rules in both languages.
    await accessibleInBoth(page, 'requests-query', async (p) => {
      await p.getByTestId('request-items-draft').waitFor();
    });

    // An internal note and a flag, for the officers only.
    const notes = page.getByRole('region', { name: 'Case notes' });
    await notes.getByRole('textbox', { name: 'New note' }).fill(CASE_NOTE);
    await notes.getByRole('button', { name: 'Add the note' }).click();
    await notes.getByText(CASE_NOTE).waitFor();
    const flags = page.getByRole('region', { name: 'Flags' });
    await flags
      .getByRole('group', { name: 'Set a flag' })
      .getByRole('button', { name: 'Risk' })
      .click();
    await flags.getByRole('button', { name: 'Clear the flag Risk' }).waitFor();

    await page.getByLabel('Notes', { exact: true }).fill(QUESTION);
    await act(page, 'Query');
    await page.getByText('Application Queried Successfully').first().waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the applicant sees both items at the top of the reply screen, answers them and replies', async () => {
    const { page, context, pageErrors } = await as(APPLICANT, `${VISA}/replytoquery/${visa.id}`);
    // Every answer of the document API the applicant's pages read, kept to look for case work.
    const answers: Array<Promise<string>> = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/evisa/'))
        answers.push(response.text().catch(() => ''));
    });
    const round = page.getByRole('region', { name: 'Information requested' });
    await round.getByText(`BANK - ${BANK}`).waitFor();
    await round.getByText(PURPOSE).waitFor();
    await round
      .getByTestId('request-item')
      .filter({ hasText: BANK })
      .getByText(`Due by ${DUE_SHOWN}`)
      .waitFor();
    // The requests head the screen: above the form's sections.
    const roundTop = (await round.boundingBox())?.y ?? Infinity;
    const formTop = (await page.getByRole('tablist').first().boundingBox())?.y ?? 0;
    expect(roundTop).toBeLessThan(formTop);

    await accessibleInBoth(page, 'requests-reply', async (p) => {
      await p.getByTestId('request-round').getByText(PURPOSE).waitFor();
    });
    const chooser = page.waitForEvent('filechooser');
    await round
      .getByRole('group', { name: 'Your file' })
      .getByRole('button', { name: 'Choose a file' })
      .click();
    await (
      await chooser
    ).setFiles({ name: 'statements.pdf', mimeType: 'application/pdf', buffer: PDF });
    await round.getByText('statements.pdf').waitFor();
    await round.getByLabel('Your answer').fill('A family visit');
    await expect.poll(() => round.getByText('Answered', { exact: true }).count()).toBe(2);

    await page.getByRole('button', { name: 'Submit reply' }).click();
    const confirmation = page.getByTestId('confirmation');
    await confirmation.getByText('Your reply is sent to the immigration officer').waitFor();
    // The application's page and history, as the applicant reads them: no note, no flag.
    await page.goto(`${portal.url}/#${VISA}/view/${visa.id}`);
    await page.getByRole('region', { name: 'Information requested' }).waitFor();
    await page
      .getByRole('region', { name: 'Action history' })
      .getByRole('cell', { name: 'Submit reply', exact: false })
      .first()
      .waitFor();
    await page.goto(`${portal.url}/#/dashboard/my-library`);
    await page.getByRole('main').getByRole('table').first().waitFor();
    expect(await page.getByText(CASE_NOTE).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Case notes' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Flags' }).count()).toBe(0);
    const read = await Promise.all(answers);
    expect(read.length).toBeGreaterThan(3);
    for (const body of read) {
      expect(body).not.toContain(CASE_NOTE);
      expect(body).not.toMatch(/"flags"|flag:set|"risk"/);
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the verifier sees both items answered', async () => {
    const { page, context, pageErrors } = await as(VERIFIER, `${VISA}/view/${visa.id}`);
    const round = page.getByRole('region', { name: 'Information requested' });
    await round.getByText('A family visit').waitFor();
    await round.getByText('statements.pdf').waitFor();
    await expect.poll(() => round.getByText('Answered', { exact: true }).count()).toBe(2);
    expect(await round.getByText('Not answered yet').count()).toBe(0);
    await accessibleInBoth(page, 'requests-answered', async (p) => {
      await p.getByTestId('request-round').getByText('statements.pdf').waitFor();
    });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
