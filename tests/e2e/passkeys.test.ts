import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launchChromium, openWatchedPage } from '../support/browser';
import { createAccount, signIn } from '../support/e2e-accounts';
import { shot } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

/**
 * A passkey in Chromium (docs/identity.md, "Passkeys and recovery codes"), with the DevTools
 * virtual authenticator standing for the device: the person adds a passkey on the security
 * page, signs out, and signs in again with the passkey alone ("Sign in with a passkey", no
 * username nor password); then the password asks for the passkey as the second factor.
 */
const PERSON = {
  login: 'e2e.passkey',
  password: 'Lantern-Quay-4827!',
  firstName: 'Losa',
  lastName: 'Passkey',
  roles: ['view-profile', 'manage-account'],
};
const SECURITY = '/connectid/profile/security';

describe('passkeys in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    await createAccount(portal, PERSON);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('adds a passkey on the security page and signs in with it', async () => {
    const watched = await openWatchedPage(browser);
    const { page, context } = watched;
    await page.setViewportSize({ width: 1366, height: 900 });
    // The device: a platform authenticator that keeps passkeys and verifies its user.
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    await signIn(page, portal, PERSON.login, PERSON.password, SECURITY);
    const panel = page.getByRole('region', { name: 'Passkeys' });
    await panel.getByText('You have no passkey yet.').waitFor();
    await panel.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabel('Name of this passkey', { exact: false }).fill('Work laptop');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await panel.getByText('Passkey "Work laptop" added. You can now sign in with it.').waitFor();
    await expect.poll(() => panel.locator('[data-passkey="Work laptop"]').count()).toBe(1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    await shot(page, 'security-passkeys');
    expect(await axeViolations(page)).toEqual([]);

    // Recovery codes: ten, shown once.
    const recovery = page.getByRole('region', { name: 'Recovery codes' });
    await recovery.getByRole('button', { name: 'Make recovery codes' }).click();
    const shown = page.getByRole('dialog', { name: 'Your recovery codes' });
    await expect.poll(() => shown.locator('[data-recovery-code]').count()).toBe(10);
    await shown.getByRole('button', { name: 'I have kept them' }).click();
    await recovery.getByText('10 codes of 10 left', { exact: false }).waitFor();

    // Sign out, as a person does.
    await page.goto(`${portal.url}/#/dashboard/home`);
    const burger = page.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    await page.getByRole('navigation', { name: 'Application menu' }).getByText('Sign Out').click();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL(`${portal.url}/#/home`);

    // Back in with the passkey alone: no username, no password.
    await page.goto(`${portal.url}/#${SECURITY}`);
    const withPasskey = page.getByRole('button', { name: 'Sign in with a passkey' });
    await withPasskey.waitFor();
    await shot(page, 'sign-in-passkey');
    expect(await axeViolations(page)).toEqual([]);
    await withPasskey.click();
    await page.waitForURL(`${portal.url}/#${SECURITY}`);
    await panel.locator('[data-passkey="Work laptop"]').getByText('last used').waitFor();

    expect(watched.cspViolations).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
  }, 180_000);

  it('asks a phone-sized browser in French for the passkey after the password', async () => {
    const watched = await openWatchedPage(browser, { locale: 'fr-FR' });
    const { page, context } = watched;
    await page.setViewportSize({ width: 390, height: 844 });
    // The account has a passkey (the test above): the password is not enough; the page offers
    // the passkey and, the account having some, a recovery code.
    await page.goto(`${portal.url}/#${SECURITY}`);
    await page.locator('#username').fill(PERSON.login);
    await page.locator('#password').fill(PERSON.password);
    await page.locator('button[type=submit]').click();
    await page.getByRole('heading', { name: 'Confirmez votre identité' }).waitFor();
    await page.getByRole('button', { name: 'Utiliser ma clé d’accès' }).waitFor();
    await page.getByText('Utiliser un code de secours').waitFor();
    await shot(page, 'sign-in-second-factor-fr');
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.cspViolations).toEqual([]);
    await context.close();
  }, 120_000);
});
