import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_ADMIN, outboxMessages, signIn } from '../support/e2e-accounts';
import { launchChromium, openWatchedPage } from '../support/browser';
import { accessible, accessibleInBoth, shot } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';

/** The agent AG001's mobile number in the agent catalogue (seeds/catalogs.json). */
const AGENT_CONTACT = '+64215550101';

/**
 * An agent registers on the registration page with the agent channel switched on
 * (CONFIRMATION_AGENT): the page asks what the AGENT user type asks (the agent code, an
 * address), offers to send the code to the agent they name, and the code, read where the
 * agent's contact receives it, registers them.
 */
describe('registration through the agent channel in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([
      startPortal({ CONFIRMATION_AGENT: 'true', CONFIRMATION_EMAIL: 'true' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('asks an agent for their agent code and address and confirms through the agent', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/register`);
    await page.getByLabel('Login name').fill('malia.ioane');
    await page.getByLabel('First name').fill('Malia');
    await page.getByLabel('Last name').fill('Ioane');
    await page.getByLabel(/^E-mail address/).fill('malia@example.org');
    await page.getByLabel(/^Mobile number/).fill('+685 7774411');
    await page.getByRole('combobox', { name: 'I register as' }).click();
    await page.getByRole('option', { name: /Agent paying fees/ }).click();

    // The agent channel is offered once the type lets the person name an agent.
    const channels = page.getByRole('radiogroup', { name: 'Send the confirmation code to' });
    expect(await channels.getByRole('radio').evaluateAll((radios) => radios.length)).toBe(3);
    await channels.getByRole('radio', { name: /The agent I name/ }).check();
    // Nothing named: the page says what is missing before anything is sent.
    await page.getByRole('button', { name: 'Send me a confirmation code' }).click();
    const summary = page.getByTestId('error-summary');
    await summary.getByText(/^Agent code: This field is required/).waitFor();
    await summary.getByText(/^City: This field is required/).waitFor();
    await accessible(page, 'registration-agent-errors');
    await shot(page, 'registration-agent-errors');
    // The signed-out page's own language switch: the same page in French.
    await page.getByText('FR', { exact: true }).click();
    await page.getByText('L’agent que j’indique (à son contact enregistré)').waitFor();
    // The problems found are worded again in French, not left in English.
    await summary.getByText(/^Code de l.agent : Ce champ est obligatoire/).waitFor();
    await accessible(page, 'registration-agent-errors');
    await shot(page, 'registration-agent-errors-fr');
    await page.getByText('EN', { exact: true }).click();
    await page.getByText('The agent I name (to its registered contact)').waitFor();

    await page.getByLabel('Agent code').fill('AG001');
    await page.getByRole('combobox', { name: 'Address type' }).click();
    await page.getByRole('option', { name: 'Business' }).click();
    await page.getByLabel('Address line 1').fill('4 Beach Road');
    await page.getByLabel(/^City/).fill('Apia');
    await page.getByRole('combobox', { name: 'Country' }).fill('Samoa');
    await page.getByRole('option', { name: /Samoa \(WS\)/ }).click();
    await page.getByRole('button', { name: 'Send me a confirmation code' }).click();
    await page.getByText(/If this code is known, a confirmation code was sent/).waitFor();
    // The code belongs to the agent named: that field is fixed until changed on purpose.
    expect(await page.getByLabel('Agent code').getAttribute('readonly')).not.toBeNull();
    await accessible(page, 'registration-agent-code-sent');
    await shot(page, 'registration-agent-code-sent');

    const items = await outboxMessages(portal, { recipient: AGENT_CONTACT });
    const code = /\b(\d{6})\b/.exec(items[0]?.body ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByRole('textbox', { name: /^Confirmation code/ }).fill(code!);
    await page.getByLabel(/^Password/).fill('Tapa-Cloth-Weaver-2048!');
    await page.getByLabel('Confirm the password').fill('Tapa-Cloth-Weaver-2048!');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(/Your registration is pending approval/).waitFor();
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('shows the developer outbox, codes included, to the identity administrator only', async () => {
    const visitor = await openWatchedPage(browser);
    await signIn(visitor.page, portal, 'applicant', 'Palm-Breeze-2041', '/dashboard/home');
    await visitor.page.goto(`${portal.url}/#/dev/outbox`);
    await visitor.page.waitForURL(/#\/403/);
    await visitor.context.close();

    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, IDENTITY_ADMIN.login, IDENTITY_ADMIN.password, '/dashboard/home');
    await page.goto(`${portal.url}/#/dev/outbox?recipient=${encodeURIComponent(AGENT_CONTACT)}`);
    await page.getByRole('heading', { name: 'Outbox (developers)' }).waitFor();
    const rows = page.getByRole('row');
    await rows.nth(1).waitFor();
    expect(await rows.nth(1).textContent()).toMatch(/SMS\+64215550101\d{6}/);
    await accessibleInBoth(page, 'developer-outbox', (p) =>
      p.getByRole('heading', { name: /Outbox \(developers\)|Boîte d’envoi/ }).waitFor(),
    );
    await shot(page, 'developer-outbox');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
