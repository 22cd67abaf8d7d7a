import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, signIn } from '../support/e2e-accounts';
import { applicationsOverHttp, payOnGatewayPage } from '../support/http-applications';
import { act } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';
import { submittedVisa } from '../support/submitted-applications';

const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041' };
const VERIFIER = { login: 'verifier', password: 'Harbour-Light-9264!' };
const VALIDATOR = { login: 'validator', password: 'Island-Chart-4518!' };
const BASE = '/api/evisa/visa-application';

type View = { id: string; version: number; status: string };

/**
 * The workflow designer in Chromium, end to end: the analyst adds a "Legal review" status to
 * the visa workflow between FORWARDED and ESCALATED from the diagram (a new action into it, the
 * declared escalation out of it, the validator's roles, the texts in English and French) and
 * publishes; the validation officer then finds the new action on a forwarded application and
 * takes it.
 */
describe('the workflow designer in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let forwarded: View;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
    // A forwarded application, made through the API as its applicant and the verifier do.
    const api = applicationsOverHttp(portal.url);
    const applicant = await apiToken(portal, APPLICANT.login, APPLICANT.password);
    const submitted = await submittedVisa(api, applicant);
    await api.send('POST', `${BASE}/${submitted.id}/actions/initiate`, applicant, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    const purchase = (await api.send(
      'POST',
      `/api/payments/visa-application/${submitted.id}/purchase`,
      applicant,
    )) as { redirectUrl: string };
    await payOnGatewayPage(purchase.redirectUrl, 'Ana Tuilagi');
    const verifier = await apiToken(portal, VERIFIER.login, VERIFIER.password);
    const paid = (await api.send('GET', `${BASE}/${submitted.id}`, verifier)) as View;
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    forwarded = (await api.send('POST', `${BASE}/${submitted.id}/actions/forward`, verifier, {
      version: paid.version,
    })) as View;
    expect(forwarded.status).toBe('FORWARDED');
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** Adds a transition from the status chosen in the diagram, in its side panel. */
  async function addTransition(
    page: Page,
    from: string,
    to: string,
    fill: { action: string; roles?: string; screen?: string; en?: string; fr?: string },
  ) {
    const form = page.getByRole('form', { name: `Add a transition from ${from}` });
    await form.getByRole('combobox', { name: /^Leads to/ }).selectOption(to);
    await form.getByRole('combobox', { name: /^Action/ }).fill(fill.action);
    if (fill.roles) await form.getByRole('textbox', { name: /^Roles allowed/ }).fill(fill.roles);
    if (fill.screen) {
      await form.getByRole('combobox', { name: /^Offered on the screens/ }).click();
      await page.getByRole('option', { name: fill.screen, exact: true }).click();
      await page.keyboard.press('Escape');
    }
    if (fill.en)
      await form.getByRole('textbox', { name: /^English text of the action/ }).fill(fill.en);
    if (fill.fr)
      await form.getByRole('textbox', { name: /^French text of the action/ }).fill(fill.fr);
    await form.getByRole('button', { name: 'Add the transition' }).click();
  }

  it('the analyst adds a Legal review status from the diagram, and publishes it', async () => {
    const { page, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ANALYST.login, ANALYST.password, '/studio/workflows');
    await page.getByRole('combobox', { name: 'Workflow', exact: true }).click();
    await page.getByRole('option', { name: 'visa-application', exact: true }).click();
    const diagram = page.getByRole('group', { name: /States and transitions/ });
    await diagram.waitFor();

    const addStatus = page.getByRole('form', { name: 'Add a status' });
    await addStatus.getByRole('textbox', { name: /^Status name/ }).fill('Legal review');
    await addStatus
      .getByRole('textbox', { name: /^English text of the status/ })
      .fill('Legal review');
    await addStatus
      .getByRole('textbox', { name: /^French text of the status/ })
      .fill('Examen juridique');
    await addStatus.getByRole('button', { name: 'Add the status' }).click();
    await diagram.getByRole('button', { name: 'Legal review', exact: true }).waitFor();

    // From the keyboard: the focused status opens in the side panel with Enter.
    await diagram.getByRole('button', { name: 'Forwarded', exact: true }).focus();
    await page.keyboard.press('Enter');
    await addTransition(page, 'Forwarded', 'LEGAL REVIEW', {
      action: 'legal-review',
      roles: 'escalate',
      screen: '/validation/:id (validation)',
      en: 'Send to legal review',
      fr: 'Envoyer en examen juridique',
    });
    // The new transition is chosen: its action's settings are beside the drawing.
    await page
      .getByRole('heading', { name: 'Send to legal review: Forwarded to Legal review' })
      .waitFor();

    await diagram.getByRole('button', { name: 'Legal review', exact: true }).click();
    await addTransition(page, 'Legal review', 'ESCALATED', { action: 'escalate' });
    await page.getByRole('heading', { name: 'Escalate: Legal review to Escalated' }).waitFor();
    const table = page.getByRole('table', { name: /Transitions of the workflow/ });
    await table.getByRole('button', { name: 'Escalate: Legal review → Escalated' }).waitFor();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
    await dialog
      .getByRole('textbox', { name: 'Note' })
      .fill('Legal review between forwarding and escalation');
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/^Version \d+ is published/)
      .waitFor();
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it('the validation officer sees the new action on a forwarded application and takes it', async () => {
    const { page, pageErrors } = await openWatchedPage(browser);
    await signIn(
      page,
      portal,
      VALIDATOR.login,
      VALIDATOR.password,
      `/visa/application/validation/${forwarded.id}`,
    );
    await act(page, 'Send to legal review');
    const validator = await apiToken(portal, VALIDATOR.login, VALIDATOR.password);
    const api = applicationsOverHttp(portal.url);
    await expect
      .poll(
        async () => ((await api.send('GET', `${BASE}/${forwarded.id}`, validator)) as View).status,
      )
      .toBe('LEGAL REVIEW');
    // From there the escalation the analyst added leads on.
    await page.goto(`${portal.url}/#/visa/application/validation/${forwarded.id}`);
    await act(page, 'Escalate');
    await expect
      .poll(
        async () => ((await api.send('GET', `${BASE}/${forwarded.id}`, validator)) as View).status,
      )
      .toBe('ESCALATED');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
