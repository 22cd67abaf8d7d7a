import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, IDENTITY_ADMIN, signIn, outboxMessages } from '../support/e2e-accounts';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

/**
 * A returned self-registration in Chromium: the person registers, the reviewer returns it with
 * notes, the person (who cannot sign in yet) opens the one-time link of the notice's e-mail,
 * corrects and sends it again, the reviewer finds it pending and accepts it, and the person
 * signs in.
 */
describe('a returned registration in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const person = {
    login: 'lagi.return',
    email: 'lagi.return@example.org',
    mobile: '+685 7775501',
    password: 'Lagoon-Reef-2048!',
  };
  const NOTES = 'Your last name is misspelt: please correct it.';

  /** The latest message the outbox holds for a recipient on a channel (the developer API). */
  const latest = async (channel: 'sms' | 'email', recipient: string) => {
    const items = await outboxMessages(portal, { channel, recipient });
    return items[0]?.body ?? '';
  };

  const reviewer = async (path: string) => {
    const watched = await openWatchedPage(browser);
    await signIn(watched.page, portal, IDENTITY_ADMIN.login, IDENTITY_ADMIN.password, path);
    return watched;
  };
  const openPending = async (page: Page) => {
    await page.getByRole('cell', { name: person.login, exact: true }).click();
  };

  it('registers, is returned with notes, corrects through the link, is accepted and signs in', async () => {
    // 1. Registration, with the code texted to the mobile number.
    const registration = await openWatchedPage(browser);
    const { page } = registration;
    await page.goto(`${portal.url}/#/register`);
    await page.getByLabel('Login name').fill(person.login);
    await page.getByLabel('First name').fill('Lagi');
    await page.getByLabel('Last name').fill('Retrun');
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Mobile number').fill(person.mobile);
    await page.getByRole('combobox', { name: 'I register as' }).click();
    await page.getByRole('option', { name: /Member of the public/ }).click();
    await page.getByRole('combobox', { name: 'Identity document type' }).click();
    await page.getByRole('option', { name: 'Passport' }).click();
    await page.getByLabel('Identity document number').fill('PA123456');
    await page.getByLabel('Date of issuance').fill('01/03/2022');
    await page.getByLabel('Date of expiry').fill('01/03/2032');
    await page.getByLabel('Date of expiry').blur();
    await page.getByRole('button', { name: 'Send me a confirmation code' }).click();
    await page.getByText(/A confirmation code was sent to/).waitFor();
    const code = /\b(\d{6})\b/.exec(await latest('sms', person.mobile))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Confirmation code').fill(code!);
    await page.getByLabel(/^Password/).fill(person.password);
    await page.getByLabel('Confirm the password').fill(person.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(/Your registration is pending approval/).waitFor();
    await registration.context.close();
    // Not accepted yet: no sign-in.
    await expect(apiToken(portal, person.login, person.password)).rejects.toThrow();

    // 2. The reviewer returns it with notes.
    const first = await reviewer('/connectid/accounts/pending');
    await openPending(first.page);
    await first.page.getByLabel('Notes', { exact: true }).fill(NOTES);
    await first.page.getByRole('button', { name: 'Return' }).click();
    await first.page
      .getByRole('status')
      .filter({ hasText: /returned/i })
      .first()
      .waitFor();
    expect(first.cspViolations).toEqual([]);
    expect(first.pageErrors).toEqual([]);
    await first.context.close();

    // 3. The e-mail carries the notes and a one-time link; the person corrects and resends.
    const mail = await latest('email', person.email);
    expect(mail).toContain(NOTES);
    const link = /(http\S+#\/register\?correction=[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect(link).toBeDefined();
    // One SMS besides the code's, to the number as the code's was written, with that link (not
    // the inbox's, which this person cannot open).
    const texts = (await outboxMessages(portal, { channel: 'sms' })).filter((m) =>
      m.recipient.replace(/\s/g, '').endsWith('7775501'),
    );
    expect(texts.map((m) => m.recipient)).toEqual(['+6857775501', '+6857775501']);
    expect(texts.filter((m) => m.body.includes(link!))).toHaveLength(1);
    const correction = await openWatchedPage(browser);
    const fix = correction.page;
    await fix.goto(link!.replace(/^https?:\/\/[^/#]+/, portal.url));
    await fix.getByRole('heading', { name: 'Correct your registration' }).waitFor();
    await fix.getByTestId('return-notes').getByText(NOTES).waitFor();
    expect(await fix.getByLabel('Login name').getAttribute('readonly')).not.toBeNull();
    expect(await fix.getByLabel('Mobile number').getAttribute('readonly')).not.toBeNull();
    expect(await fix.getByLabel('Last name').inputValue()).toBe('Retrun');
    // The identity document as registered, verified as on the registration page.
    expect(await fix.getByLabel('Identity document number').inputValue()).toBe('PA123456');
    await fix
      .getByTestId('document-verification')
      .getByText('Basic document verifications have been passed successfully, you may proceed.')
      .waitFor();
    expect(await axeViolations(fix)).toEqual([]);
    // SHOTS_DIR=folder keeps a picture of the correction page, to look at.
    if (process.env.SHOTS_DIR)
      await fix.screenshot({ path: `${process.env.SHOTS_DIR}/correction.png`, fullPage: true });
    // In French too, the reviewer's notes as written.
    await fix.getByText('FR', { exact: true }).click();
    await fix.getByRole('heading', { name: 'Corriger votre inscription' }).waitFor();
    await fix.getByText('Les remarques du vérificateur').waitFor();
    // The identity document's type in French too, not the catalogue's English description.
    await expect
      .poll(() => fix.getByRole('combobox', { name: /^Type de pièce d.identité/ }).inputValue())
      .toBe('Passeport');
    expect(await axeViolations(fix)).toEqual([]);
    await fix.getByText('EN', { exact: true }).click();
    await fix.getByRole('heading', { name: 'Correct your registration' }).waitFor();
    await fix.getByLabel('Last name').fill('');
    await fix.getByRole('button', { name: 'Send the corrected registration' }).click();
    await fix.getByTestId('error-summary').waitFor();
    await fix.getByLabel('Last name').fill('Return');
    await fix.getByRole('button', { name: 'Send the corrected registration' }).click();
    await fix.getByText(/Your corrected registration is pending approval/).waitFor();
    // The link is used up.
    await fix.goto(link!.replace(/^https?:\/\/[^/#]+/, portal.url));
    await fix.reload();
    await fix
      .getByRole('alert')
      .getByText(/This link is no longer valid/)
      .waitFor();
    expect(correction.cspViolations).toEqual([]);
    expect(correction.pageErrors).toEqual([]);
    await correction.context.close();

    // 4. Pending again (MODIFIED): the reviewer sees the correction and accepts it.
    const second = await reviewer('/connectid/accounts/pending');
    const row = second.page.getByRole('row').filter({ hasText: person.login });
    await row.getByRole('cell', { name: 'Return', exact: true }).waitFor();
    await row.getByRole('cell', { name: 'Modified', exact: true }).waitFor();
    await openPending(second.page);
    await second.page.getByRole('button', { name: 'Accept' }).click();
    await second.page
      .getByRole('status')
      .filter({ hasText: /accepted/i })
      .first()
      .waitFor();
    expect(second.cspViolations).toEqual([]);
    await second.context.close();

    // 5. The acceptance's e-mail says where to sign in; the person follows it and signs in.
    const accepted = await latest('email', person.email);
    const signInLink = /Sign in to the portal here: (http\S+)/.exec(accepted)?.[1];
    expect(signInLink).toMatch(/#\/connectid\/profile$/);
    const own = await openWatchedPage(browser);
    await own.page.goto(signInLink!.replace(/^https?:\/\/[^/#]+/, portal.url));
    await own.page.locator('#username').waitFor();
    await own.page.locator('#username').fill(person.login);
    await own.page.locator('#password').fill(person.password);
    await own.page.locator('button[type=submit]').click();
    await own.page.waitForURL(/#\/connectid\/accounts\/profile\//);
    await own.page.getByText(person.login, { exact: true }).waitFor();
    await own.page.getByRole('button', { name: 'Application menu' }).click();
    await own.page
      .getByRole('navigation', { name: 'Application menu' })
      .getByText('Manage Account')
      .waitFor();
    expect(own.pageErrors).toEqual([]);
    await own.context.close();
  });
});
