import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, IDENTITY_ADMIN, signIn, outboxMessages } from '../support/e2e-accounts';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

/**
 * Identity end to end, with the real identity server and keycloak-js: self-registration with a
 * confirmation code read from the outbox, review by the administrator, sign-in, the menu the
 * roles allow, a password change, sign-out; and the access rules (403, sign-in redirect).
 */
describe('identity in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('registers, is accepted by the administrator, signs in, sees its menu, changes its password and signs out', async () => {
    const person = {
      login: 'mere.tanoa',
      mobile: '+685 7771234',
      password: 'Coconut-Palm-2045!',
      newPassword: 'Breadfruit-Tree-2046!',
    };
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/register`);
    await page.getByLabel('Login name').fill(person.login);
    await page.getByLabel('First name').fill('Mere');
    await page.getByLabel('Last name').fill('Tanoa');
    await page.getByLabel('E-mail address').fill('mere.tanoa@example.org');
    await page.getByLabel('Mobile number').fill(person.mobile);
    await page.getByRole('combobox', { name: 'I register as' }).click();
    await page.getByRole('option', { name: /Member of the public/ }).click();
    await page.getByRole('button', { name: 'Send me a confirmation code' }).click();
    await page.getByText(/A confirmation code was sent to \+685 7771234/).waitFor();

    // The code went to the outbox (SMS), which the identity administrator may read.
    const messages = await outboxMessages(portal, { channel: 'sms' });
    const code = /\b(\d{6})\b/.exec(
      messages.find((m) => m.recipient.endsWith('7771234'))?.body ?? '',
    )?.[1];
    expect(code).toMatch(/^\d{6}$/);

    await page.getByLabel('Confirmation code').fill('000000');
    await page.getByLabel(/^Password/).fill(person.password);
    await page.getByLabel('Confirm the password').fill(person.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('alert').getByText('The confirmation code is not correct').waitFor();
    await page.getByLabel('Confirmation code').fill(code!);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(/Your registration is pending approval/).waitFor();
    await context.close();

    // The administrator reviews the pending registration and accepts it.
    const review = await openWatchedPage(browser);
    await signIn(
      review.page,
      portal,
      IDENTITY_ADMIN.login,
      IDENTITY_ADMIN.password,
      '/connectid/accounts/pending',
    );
    await review.page.getByRole('cell', { name: person.login, exact: true }).click();
    // The review opens on who the person is, not on its last section.
    const sections = review.page.getByRole('tablist', { name: 'Sections of the form' });
    expect(await sections.getByRole('tab', { selected: true }).textContent()).toMatch(/^Identity/);
    // Accept is the usual step, Return a plain one, Reject destructive and asked first.
    const decisions = review.page.getByRole('group', { name: 'Actions on this document' });
    const look = (name: string) =>
      decisions.getByRole('button', { name, exact: true }).getAttribute('data-variant');
    expect([await look('Accept'), await look('Return'), await look('Reject')]).toEqual([
      'filled',
      'default',
      'outline',
    ]);
    await decisions.getByRole('button', { name: 'Reject', exact: true }).click();
    const asked = review.page.getByRole('dialog', { name: 'Reject' });
    await asked.getByText(/Reject this account\?/).waitFor();
    await asked.getByRole('button', { name: 'Go back' }).click();
    await review.page.getByRole('button', { name: 'Accept' }).click();
    await review.page
      .getByRole('status')
      .filter({ hasText: /accepted/i })
      .first()
      .waitFor();
    expect(review.cspViolations).toEqual([]);
    await review.context.close();

    // The new account signs in and sees only what its roles open.
    const own = await openWatchedPage(browser);
    await signIn(own.page, portal, person.login, person.password, '/dashboard/home');
    await own.page.getByRole('button', { name: 'Application menu' }).click();
    const menu = own.page.getByRole('navigation', { name: 'Application menu' });
    await menu.getByText('Manage Account').waitFor();
    expect(await menu.getByText('Sign Out').count()).toBe(1);
    expect(await menu.getByText('Sign In').count()).toBe(0);
    expect(await menu.getByText('Countries').count()).toBe(0);
    expect(await menu.getByText(/^Accounts$/).count()).toBe(0);
    await own.page.keyboard.press('Escape');

    // Password change: the policy applies, then the new password works.
    await own.page.goto(`${portal.url}/#/connectid/profile/password`);
    await own.page.getByLabel('Current password').fill(person.password);
    await own.page.getByLabel('New password').fill('short');
    await own.page.getByLabel('Confirm the password').fill('short');
    await own.page.getByRole('button', { name: 'Change password' }).click();
    await own.page.getByRole('alert').waitFor();
    await own.page.getByLabel('New password').fill(person.newPassword);
    await own.page.getByLabel('Confirm the password').fill(person.newPassword);
    await own.page.getByRole('button', { name: 'Change password' }).click();
    await own.page.getByText('Password updated').waitFor();
    await expect(apiToken(portal, person.login, person.password)).rejects.toThrow();
    expect(await apiToken(portal, person.login, person.newPassword)).toMatch(/^ey/);

    // Sign out: back on the public home page, signed out.
    await own.page.goto(`${portal.url}/#/dashboard/home`);
    // The menu may still be open from before: open it only when it is not.
    const signOut = own.page
      .getByRole('navigation', { name: 'Application menu' })
      .getByText('Sign Out');
    const burger = own.page.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    await signOut.click();
    await own.page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await own.page.waitForURL(`${portal.url}/#/home`);

    // Signed in again in French: the identity server asks in French too, and offers English.
    await signIn(own.page, portal, person.login, person.newPassword, '/dashboard/home');
    await own.page.getByRole('button', { name: 'Change language to Français' }).click();
    await own.page.getByRole('button', { name: "Menu de l'application" }).click();
    await own.page
      .getByRole('navigation', { name: "Menu de l'application" })
      .getByText('Se déconnecter', { exact: true })
      .click();
    await own.page.getByText('Voulez-vous vous déconnecter ?').waitFor();
    expect(await own.page.locator('html').getAttribute('lang')).toBe('fr');
    await own.page.getByRole('link', { name: 'EN', exact: true }).click();
    await own.page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await own.page.waitForURL(`${portal.url}/#/home`);
    await own.page.getByRole('main').getByRole('button', { name: 'Se connecter' }).waitFor();
    expect(own.cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
    await own.context.close();
  });

  it('sends a signed-in user without the role to /403 and a signed-out user to sign-in', async () => {
    const applicant = await openWatchedPage(browser);
    await signIn(applicant.page, portal, 'applicant', 'Palm-Breeze-2041', '/dashboard/home');
    await applicant.page.goto(`${portal.url}/#/connectid/accounts`);
    await applicant.page.waitForURL(`${portal.url}/#/403`);
    await applicant.page
      .getByText('The page you were looking for requires authorization, try to login again')
      .waitFor();
    await applicant.context.close();

    const stranger = await openWatchedPage(browser);
    await stranger.page.goto(`${portal.url}/#/connectid/accounts`);
    await stranger.page.locator('#username').waitFor();
    expect(stranger.page.url()).toContain('/realms/portal/');
    // The sign-in page is accessible, and leads to registration and back to the portal.
    expect(await axeViolations(stranger.page)).toEqual([]);
    expect(await stranger.page.locator('#portal-home').getAttribute('href')).toBe(`${portal.url}/`);
    await stranger.page.getByRole('link', { name: 'New to the portal? Create an account' }).click();
    await stranger.page.waitForURL(`${portal.url}/#/register`);
    await stranger.context.close();
  });
});
