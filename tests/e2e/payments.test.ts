import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

const PAYER = {
  login: 'e2e.payer',
  password: 'Reef-Payment-7342!',
  firstName: 'Sione',
  lastName: 'Payer',
  roles: ['test-payable-submit', 'test-payable-pay', 'test-payable-read', 'view-profile'],
};
const DATA = { application: { name: 'Sione Payer', document: 'VIS', subDocument: 'VV30' } };

/**
 * Paying a submitted application in Chromium through the sandbox gateway's own page: the
 * approve card ends on PAID FOR VERIFICATION with a receipt to download; the decline card ends
 * on the error screen, from where the payer can try again.
 */
describe('payments in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('fixtures'), launchChromium()]);
    await createAccount(portal, PAYER);
    token = await apiToken(portal, PAYER.login, PAYER.password);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${portal.url}/api/evisa${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return (await response.json()) as {
      id: string;
      number: string | null;
      status: string;
      data: { fees: { total: string } };
    };
  };

  /** A submitted application with a fee due, as the payer's API calls leave it. */
  async function submitted() {
    const stored = await call('POST', '/test-payable', { data: DATA });
    const done = await call('POST', `/test-payable/${stored.id}/actions/submit`, {
      version: 1,
      data: DATA,
    });
    expect(done.status).toBe('SUBMITTED');
    return done;
  }

  async function payWith(page: Page, id: string, card: string, checkAccess = false) {
    await signIn(page, portal, PAYER.login, PAYER.password, `/test/payable/confirmation/${id}`);
    await page.getByRole('heading', { name: /^Payment confirmation/ }).waitFor();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Please accept the terms and conditions').waitFor();
    if (checkAccess) expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel(/I have read and accept the terms and conditions/).check();
    await page.getByRole('button', { name: /^Pay / }).click();
    // The gateway's own page, in its own look.
    await page.waitForURL(/\/sandbox-gateway\/pay\//);
    await page.getByText('Sandbox Payment Gateway').first().waitFor();
    if (checkAccess) expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Card number').fill(card);
    await page.getByLabel('Name on card').fill('Sione Payer');
    await page.getByLabel('Expiry date (MM/YY)').fill('12/39');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /^Pay NZD/ }).click();
  }

  it('pays with the approve card: PAID FOR VERIFICATION and a receipt', async () => {
    const document = await submitted();
    const { page, context, pageErrors } = await openWatchedPage(browser);
    // What the gateway's page asks for is all there (it once made the browser ask for a
    // /favicon.ico nothing serves).
    const missing: string[] = [];
    page.on('requestfinished', (request) => {
      void request
        .response()
        .then((response) => {
          const { pathname } = new URL(request.url());
          if (
            response &&
            response.status() >= 400 &&
            (pathname.startsWith('/sandbox-gateway/') || pathname === '/favicon.ico')
          )
            missing.push(`${response.status()} ${pathname}`);
        })
        // A response read as the page closes is of no request still to check.
        .catch(() => undefined);
    });
    await payWith(page, document.id, '4111 1111 1111 1111', true);
    await page.waitForURL(new RegExp(`/test/payable/finalisation/${document.id}$`));
    await page.getByText('Application Paid Successfully').waitFor();
    await page.getByText('Paid for verification').first().waitFor();
    await page.getByText('•••• 1111').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the receipt (PDF)' }).click();
    const file = await (await download).path();
    expect((await fs.readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
    // Not a dead end: back to the application it paid for (and home, beside it).
    const links = page.getByRole('navigation', { name: 'Related pages' });
    await links.getByRole('link', { name: 'Home' }).waitFor();
    await links.getByRole('link', { name: 'Back to the application' }).click();
    await page.waitForURL(new RegExp(`/test/payable/view/${document.id}$`));
    await page.getByRole('heading', { name: new RegExp(document.number ?? document.id) }).waitFor();
    expect(missing).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('lands on the error screen with the decline card, and offers to try again', async () => {
    const document = await submitted();
    const { page, context } = await openWatchedPage(browser);
    await payWith(page, document.id, '4000 0000 0000 0002');
    await page.waitForURL(new RegExp(`/test/payable/error/${document.id}$`));
    await page
      .getByText('The payment was declined by the card issuer. No money was taken.')
      .waitFor();
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForURL(new RegExp(`/test/payable/confirmation/${document.id}$`));
    await page.getByRole('button', { name: /^Pay / }).waitFor();
    const reread = await call('GET', `/test-payable/${document.id}`);
    expect(reread.status).toBe('SUBMITTED');
    await context.close();
  });
});
