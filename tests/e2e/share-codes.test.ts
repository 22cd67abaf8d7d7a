import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';
import { act, paidVisa, type VisaView, VISA_APPLICANT_ROLES } from '../support/granted-visa';
import { applicationsOverHttp, payOverHttp } from '../support/http-applications';
import { accessibleInBoth, shot, SHOTS, switchLanguage } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';
import { visaApplication } from '../support/visa-data';

/**
 * Proving one's status in Chromium (docs/status-sharing.md): the holder of a granted work visa
 * makes a WORK share code on its screen; an employer, not signed in, checks it on the public
 * status check with the holder's date of birth and reads the work conditions; the holder reads
 * that check in their log and revokes the code; the employer's next check shows nothing.
 * The application is lodged, paid and granted through the API to keep the journey short.
 */
const HOLDER = {
  login: 'e2e.sharer',
  password: 'Reef-Sharer-7316!',
  firstName: 'Sione',
  lastName: 'Tui',
  roles: VISA_APPLICANT_ROLES,
};
const OFFICER = {
  login: 'e2e.sharegranter',
  password: 'Reef-Granter-6402!',
  firstName: 'Tavita',
  lastName: 'Granter',
  roles: ['visa-application-search', 'visa-application-read', 'visa-application-grant'],
};
/** The holder's date of birth (tests/support/visa-data.ts), as an employer types it. */
const BIRTH_DATE = '12/04/1990';
const CONDITION = 'Work for Reef Builders Ltd only';
const ADDITIONAL = 'No more than 40 hours a week';

describe('proving one’s status with a share code in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let application: VisaView;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    await Promise.all([createAccount(portal, HOLDER), createAccount(portal, OFFICER)]);
    const token = await apiToken(portal, HOLDER.login, HOLDER.password);
    const officerToken = await apiToken(portal, OFFICER.login, OFFICER.password);
    const api = applicationsOverHttp(portal.url);
    const data = visaApplication('WRK', 'WV1Y');
    const paid = await paidVisa(api, token, data, payOverHttp(api, token, 'Sione Tui'));
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    application = await act(api, officerToken, paid, 'grant', {
      conditions: { selected: [{ code: 'C1', description: CONDITION }], additional: ADDITIONAL },
    });
    expect(application.status).toBe('GRANTED');
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** The employer's check on the public page, as typed: the code and the date of birth. */
  async function check(page: Page, code: string) {
    await page.goto(`${portal.url}/#/status-check`);
    await page.getByLabel('Share code', { exact: false }).fill(code.toLowerCase());
    await page.getByLabel("Holder's date of birth", { exact: false }).fill(BIRTH_DATE);
    await page.getByRole('button', { name: 'Check the status' }).click();
  }

  it('makes a work code, the employer reads the conditions, the holder sees it and revokes it', async () => {
    const holder = await openWatchedPage(browser);
    const page = holder.page;
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(
      page,
      portal,
      HOLDER.login,
      HOLDER.password,
      `/visa/application/view/${application.id}`,
    );
    const panel = page.getByRole('region', { name: 'Prove your status' });
    await panel.getByText('You have not made a share code yet.').waitFor();
    await accessibleInBoth(page, 'share-codes-panel', async (p) => {
      await p
        .getByRole('region', { name: /^(Prove your status|Prouver votre statut)$/ })
        .getByRole('button', { name: /^(Make a share code|Créer un code de partage)$/ })
        .waitFor();
    });

    // A WORK code for the default number of days, shown once.
    await panel.getByRole('button', { name: 'Make a share code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make a share code' });
    await dialog.getByLabel('What is it for?', { exact: false }).selectOption('work');
    const days = await dialog.getByLabel('Valid for (days)', { exact: false }).inputValue();
    expect(Number(days)).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Make the code' }).click();
    const shown = page.getByRole('dialog', { name: 'Your share code' });
    const code = (await shown.locator('[data-code]').textContent())!.trim();
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{3} [2-9A-HJKMNP-Z]{3} [2-9A-HJKMNP-Z]{3}$/);
    await shot(page, 'share-code-made');
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = panel.locator('[data-share-code]').first();
    await expect.poll(() => row.getAttribute('data-state')).toBe('active');

    // The employer, not signed in, checks it with the holder's date of birth.
    const employer = await openWatchedPage(browser);
    const checker = employer.page;
    await checker.setViewportSize({ width: 1366, height: 900 });
    await check(checker, code);
    const result = checker.getByRole('article');
    await result.waitFor();
    expect(await result.getAttribute('data-validity')).toBe('inForce');
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('Sione');
    expect(text).toContain(CONDITION);
    expect(text).toContain(ADDITIONAL);
    expect(text).toMatch(/Check reference CHK-[A-Z0-9]{10} made on/);
    const reference = /CHK-[A-Z0-9]{10}/.exec(text)![0];
    await shot(checker, 'status-check-result');
    await accessibleInBoth(checker, 'status-check-result', async (p) => {
      await p.getByRole('article').waitFor();
    });

    // The holder reads the check in their log, then revokes the code after the question.
    await page.reload();
    const log = page.getByRole('region', { name: 'Who checked your status' });
    const logged = log.locator(`[data-status-check="${reference}"]`);
    await logged.waitFor();
    expect(await logged.textContent()).toContain('Share code');
    expect(await logged.textContent()).toContain('Status shown');
    await panel
      .getByRole('button', { name: /^Revoke the code for / })
      .first()
      .click();
    const question = page.getByRole('dialog', { name: 'Revoke this share code?' });
    await question.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('revoked');
    await panel.getByText('Revoked', { exact: true }).waitFor();

    // The employer's next check shows nothing, in the same words as any other miss.
    await check(checker, code);
    const refused = checker.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('This code and date of birth show nothing');
    expect(await checker.getByRole('article').count()).toBe(0);
    expect(holder.cspViolations.concat(employer.cspViolations)).toEqual([]);
    expect(holder.pageErrors.concat(employer.pageErrors)).toEqual([]);

    if (SHOTS) await screenshots(page, checker);
    await holder.context.close();
    await employer.context.close();
  }, 300_000);
});

/** The colour scheme from the toolbar's switch, as a person changes it (no reload). */
async function scheme(page: Page, to: 'light' | 'dark') {
  const now = () =>
    page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
  if ((await now()) !== to)
    await page.getByRole('button', { name: /^(Dark mode|Mode sombre)$/ }).click();
  await expect.poll(now).toBe(to);
  await page.mouse.move(0, 0);
}

const SIZES = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

/**
 * The screens to look at (SHOTS_DIR): the panel, the code dialog, the public page and its
 * answer, light and dark, English and French, wide and phone-sized. One check per language:
 * the public check allows a few a minute from one address.
 */
async function screenshots(holder: Page, checker: Page) {
  // A code to check: the journey's own was revoked.
  await switchLanguage(holder, 'en');
  await holder.getByRole('button', { name: 'Make a share code' }).click();
  await holder.getByLabel('What is it for?', { exact: false }).selectOption('work');
  await holder.getByRole('button', { name: 'Make the code' }).click();
  const code = (await holder.locator('[data-code]').textContent())!.trim();
  await holder.getByRole('button', { name: 'Done' }).click();
  for (const language of ['en', 'fr'] as const) {
    for (const page of [holder, checker]) await page.setViewportSize(SIZES[0]!);
    await switchLanguage(holder, language);
    await checker.goto(`${checker.url().split('#')[0]}#/status-check`);
    await switchLanguage(checker, language);
    for (const colours of ['light', 'dark'] as const)
      for (const size of SIZES) {
        const name = `${colours}-${language}-${size.width}`;
        // The toolbar's switches are in the wide header: set there, then the size.
        for (const page of [holder, checker]) {
          await page.setViewportSize(SIZES[0]!);
          await scheme(page, colours);
          await page.setViewportSize(size);
        }
        await holder.locator('[data-share-codes]').scrollIntoViewIfNeeded();
        await holder
          .locator('[data-share-codes]')
          .screenshot({ path: path.join(SHOTS, `panel-${name}.png`) });
        await holder.locator('[data-share-codes] button').last().click();
        await holder.getByRole('dialog').waitFor();
        // Drawn once the modal's opening transition is over.
        await expect
          .poll(() =>
            holder
              .locator('.mantine-Modal-content')
              .evaluate((element) => getComputedStyle(element).opacity),
          )
          .toBe('1');
        await holder.screenshot({ path: path.join(SHOTS, `dialog-${name}.png`) });
        await holder.keyboard.press('Escape');
        await expect.poll(() => holder.getByRole('dialog').count()).toBe(0);
        await shot(checker, `public-${name}`);
      }
    await checker.getByRole('textbox').first().fill(code);
    await checker.getByRole('textbox').nth(1).fill(BIRTH_DATE);
    await checker.locator('form button[type=submit]').click();
    await checker.locator('[data-status-check-result]').waitFor();
    for (const colours of ['light', 'dark'] as const)
      for (const size of SIZES) {
        await checker.setViewportSize(SIZES[0]!);
        await scheme(checker, colours);
        await checker.setViewportSize(size);
        await shot(checker, `result-${colours}-${language}-${size.width}`);
      }
    await checker.emulateMedia({ media: 'print' });
    await shot(checker, `result-print-${language}`);
    await checker.emulateMedia({ media: 'screen' });
  }
}
