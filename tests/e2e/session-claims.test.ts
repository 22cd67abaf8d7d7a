import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { signIn } from '../support/e2e-accounts';
import { accessible, tab } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

/** The demo applicant (seeds/connectid.json), as the identity server's tokens describe them. */
const APPLICANT = {
  login: 'applicant',
  password: 'Palm-Breeze-2041',
  email: 'applicant@demo.immigration.example',
};

/**
 * What the session's claims give the person signed in (specification 001: `email` and
 * `phone_number` among the token's claims): the menu shows how the service reaches them, and a
 * new application starts with their e-mail address and mobile number in its contact section.
 */
describe('the session’s claims in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('shows the e-mail and mobile number in the menu and starts a new application with them', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, APPLICANT.login, APPLICANT.password, '/dashboard/home');
    await page.getByRole('button', { name: 'Application menu' }).click();
    const identity = page.getByRole('region', { name: 'Signed in as' });
    await identity.getByText(APPLICANT.email).waitFor();
    const phone = (await identity.textContent()) ?? '';
    expect(phone).toMatch(/\+685/);
    await accessible(page, 'menu-signed-in-as');
    await page.keyboard.press('Escape');

    await page.goto(`${portal.url}/#/visa/application/new`);
    await tab(page, 'Contact details');
    const email = page
      .getByRole('tabpanel')
      .getByLabel(/^E-mail/)
      .first();
    await expect.poll(() => email.inputValue()).toBe(APPLICANT.email);
    const mobile = page
      .getByRole('tabpanel')
      .getByLabel(/^Mobile phone/)
      .first();
    expect(await mobile.inputValue()).toMatch(/^\+685/);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
