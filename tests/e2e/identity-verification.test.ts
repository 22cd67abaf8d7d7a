import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { outboxMessages } from '../support/e2e-accounts';
import { launchChromium, openWatchedPage } from '../support/browser';
import { shot } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

/**
 * The identity document is verified on the registration page as the person fills it (the
 * IdentityTypes catalogue's date checks and the dates' sense), and the registration goes through
 * once it passes. docs/identity.md, "Identity-document verification".
 */
describe('identity-document verification in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** A day counted from today, as the portal writes it, DD/MM/YYYY (the browser's time zone). */
  const day = (offset: number) => {
    const d = new Date();
    d.setDate(d.getDate() + offset);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
  };

  it('lists the failed checks of a passport, passes once its dates make sense, and registers', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/register`);
    await page.getByLabel('Login name').fill('vai.lealaiauloto');
    await page.getByLabel('First name').fill('Vai');
    await page.getByLabel('Last name').fill('Lealaiauloto');
    await page.getByLabel('E-mail address').fill('vai@example.org');
    await page.getByLabel('Mobile number').fill('+685 7775511');
    await page.getByRole('combobox', { name: 'I register as' }).click();
    await page.getByRole('option', { name: /Member of the public/ }).click();

    await page.getByRole('combobox', { name: 'Identity document type' }).click();
    await page.getByRole('option', { name: 'Passport' }).click();
    const panel = page.getByTestId('document-verification');
    await panel.getByText('Verification Errors', { exact: true }).waitFor();
    expect(await panel.getByRole('listitem').allTextContents()).toEqual([
      'The document number is required for a Passport',
      'Date of issue is required for a Passport',
      'Date of expiry is required for a Passport',
    ]);
    await page.getByLabel('Identity document number').fill('PA765432');
    // The portal's DD/MM/YYYY dates, typed or picked: no native mm/dd/yyyy date input.
    const issued = page.getByLabel('Date of issuance');
    expect(await issued.getAttribute('type')).not.toBe('date');
    expect(await issued.getAttribute('placeholder')).toBe('DD/MM/YYYY');
    // Its calendar, in the page's language, with named controls.
    await issued.click();
    await page.getByRole('button', { name: 'Previous month' }).waitFor();
    await page.getByRole('button', { name: 'Next month' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await issued.fill(day(-400));
    await page.getByLabel('Date of expiry').fill(day(-1));
    await page.getByLabel('Date of expiry').blur();
    expect(await panel.getByRole('listitem').allTextContents()).toEqual([
      'The document has expired (date of expiry in the past)',
    ]);
    await shot(page, 'verification-errors');
    // Nothing is sent while the document fails.
    await page.getByRole('button', { name: 'Send me a confirmation code' }).click();
    await page
      .getByTestId('error-summary')
      .getByText(/The document has expired/)
      .waitFor();
    // Said once in the summary and once in the panel, not a third time under the field.
    const shown = await page.locator('body').innerText();
    expect(shown.split('The document has expired').length - 1).toBe(2);

    await page.getByLabel('Date of expiry').fill(day(3650));
    await page.getByLabel('Date of expiry').blur();
    await panel.getByText('Document Verification', { exact: true }).waitFor();
    await panel
      .getByText('Basic document verifications have been passed successfully, you may proceed.')
      .waitFor();
    await shot(page, 'verification-passed');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Send me a confirmation code' }).click();
    await page.getByText(/A confirmation code was sent to \+685 7775511/).waitFor();
    const messages = await outboxMessages(portal, { channel: 'sms' });
    const code = /\b(\d{6})\b/.exec(
      messages.find((m) => m.recipient.endsWith('7775511'))?.body ?? '',
    )?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Confirmation code').fill(code!);
    await page.getByLabel(/^Password/).fill('Tapa-Cloth-Weaver-2048!');
    // The show-password button is next in the tab order, and shows it.
    await page.keyboard.press('Tab');
    const toggle = page.getByRole('button', { name: 'Show the password' }).first();
    expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.getByLabel(/^Password/).getAttribute('type')).toBe('text');
    await page.getByLabel('Confirm the password').fill('Tapa-Cloth-Weaver-2048!');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(/Your registration is pending approval/).waitFor();
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
