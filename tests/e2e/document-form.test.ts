import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';

const APPLICANT = {
  login: 'sample.applicant',
  password: 'Sample-Applicant-2041!',
  firstName: 'Ana',
  lastName: 'Applicant',
};
const OFFICER = {
  login: 'sample.officer',
  password: 'Sample-Officer-2041!',
  firstName: 'Olu',
  lastName: 'Officer',
};

/**
 * The form engine end to end, on the sample permit defined under tests/fixtures: a multi-section
 * form with an array and a conditional field, eager errors in English then French, save,
 * reopen, and a previous version.
 */
describe('a document form in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('fixtures'), launchChromium()]);
    const manager = await apiToken(portal, 'catalogue', 'Ledger-Stone-2976!');
    await createAccount(portal, {
      ...APPLICANT,
      roles: ['sample-permit-submit', 'sample-permit-read', 'catalog-read'],
    });
    await createAccount(portal, { ...OFFICER, roles: ['sample-permit-search'] });
    // New Zealand is among the ISO 3166 countries the portal starts with.
    const found = await fetch(`${portal.url}/api/catalog/v1/country`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filter: [{ field: 'code', criterion: 'equals', value: 'NZ' }] }),
    });
    expect((await found.json()).items[0].data.name).toBe('New Zealand');
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** The toolbar's language button offers the other language. */
  const switchLanguage = async (page: Page, label: 'EN' | 'FR') => {
    const name = label === 'FR' ? 'Change language to Français' : 'Changer la langue en English';
    await page.getByRole('toolbar').getByRole('button', { name }).click();
  };

  it('fills sections with an array and a conditional field, shows errors in English and French, saves, reopens and shows a version', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, APPLICANT.login, APPLICANT.password, '/sample/permit/new');

    const familyName = page.getByLabel(/Family name/);
    await familyName.fill('Doe');
    await familyName.fill('');
    await familyName.blur();
    await page.getByText('This field is required').first().waitFor();
    await page.getByLabel(/E-mail/).fill('not-an-email');
    await page.getByText('Enter a valid e-mail address').waitFor();

    await switchLanguage(page, 'FR');
    await page.getByText('Saisissez une adresse e-mail valide').waitFor();
    await page.getByText('Ce champ est obligatoire').first().waitFor();
    await switchLanguage(page, 'EN');

    await page.getByLabel(/Family name/).fill('Doe');
    await page.getByLabel(/E-mail/).fill('jane.doe@example.org');
    await page.getByLabel(/Date of birth/).fill('15/03/1990');
    // The date picker opens as a styled calendar (@mantine/dates' styles): small previous/next
    // controls over a grid of equal day cells on a popover; unstyled, it showed two huge
    // chevrons and bare text over the fields below.
    await page.getByLabel(/Date of birth/).click();
    // The month's own days: the last and next months' are not drawn (below AA contrast).
    await page.locator('.mantine-DateInput-day:not([data-hidden])').first().waitFor();
    const calendar = await page.evaluate(() => {
      const size = (e: Element | null) => {
        const box = e?.getBoundingClientRect();
        return [Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)];
      };
      const control = document.querySelector('.mantine-DateInput-calendarHeaderControl');
      const days = [...document.querySelectorAll('.mantine-DateInput-day:not([data-hidden])')];
      const dropdown = days[0]?.closest('.mantine-Popover-dropdown');
      return {
        control: size(control),
        chevron: size(control?.querySelector('svg') ?? null),
        dayWidths: [...new Set(days.map((d) => size(d)[0]))],
        background: dropdown ? getComputedStyle(dropdown).backgroundColor : '',
      };
    });
    expect(calendar.control[0]).toBeLessThanOrEqual(40);
    expect(calendar.control[1]).toBeLessThanOrEqual(40);
    expect(calendar.chevron[1]).toBeLessThanOrEqual(24);
    expect(calendar.dayWidths).toHaveLength(1);
    expect(calendar.dayWidths[0]).toBeGreaterThanOrEqual(28);
    expect(calendar.background).not.toMatch(/^(rgba\(0, 0, 0, 0\)|transparent|)$/);
    await page.keyboard.press('Escape');
    expect(await page.getByLabel(/Spouse's name/).count()).toBe(0);
    await page
      .getByRole('radiogroup', { name: /Married/ })
      .getByLabel('Yes')
      .check();
    await page.getByLabel(/Spouse's name/).fill('John Doe');

    await page.getByRole('tab', { name: /Dependants/ }).click();
    await page.getByTitle('Add').click();
    await page.getByLabel(/Given name/).fill('Mia');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Application Saved Successfully').waitFor();
    await expect.poll(() => page.url()).toMatch(/#\/sample\/permit\/edit\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').at(-1)!;

    // Reopen: the saved data comes back from the server.
    await page.goto(`${portal.url}/#/sample/permit/edit/${id}`);
    await page.reload();
    await expect.poll(() => page.getByLabel(/Family name/).inputValue()).toBe('Doe');
    await page.getByRole('tab', { name: /Dependants/ }).click();
    await expect.poll(() => page.getByLabel(/Given name/).inputValue()).toBe('Mia');
    await page.getByRole('tab', { name: /Applicant/ }).click();
    await page.getByLabel(/Family name/).fill('Doe-Smith');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Application Saved Successfully').waitFor();
    await page.getByRole('link', { name: 'View version 2' }).waitFor();

    // The first version still reads as it was saved.
    await page.getByRole('link', { name: 'View version 1' }).click();
    await page.getByText(/You are looking at version 1/).waitFor();
    const applicant = page.getByTestId('readonly-applicant');
    await applicant.getByText('Doe', { exact: true }).waitFor();
    expect(await applicant.getByText('Doe-Smith').count()).toBe(0);
    expect(await applicant.getByText('15/03/1990').count()).toBe(1);

    // Submitting validates the whole document and allocates a number; the timeline shows the way.
    await page.getByRole('link', { name: 'Back to the document' }).click();
    await page.goto(`${portal.url}/#/sample/permit/edit/${id}`);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Application Submitted Successfully').waitFor();
    await page.getByText(`SP-${new Date().getUTCFullYear()}-000001`).first().waitFor();
    await page.getByText('Usually 10 days at this step').waitFor();

    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('lists the document for an officer and exports the list as CSV', async () => {
    const { page, context, cspViolations } = await openWatchedPage(browser);
    await signIn(page, portal, OFFICER.login, OFFICER.password, '/sample/permit');
    await page.getByRole('cell', { name: 'Doe-Smith' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8');
    const [header, row] = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toBe('Number,Family name,Status,Updated at');
    expect(row).toContain(`SP-${new Date().getUTCFullYear()}-000001,Doe-Smith,Submitted,`);
    await page.getByRole('button', { name: /^Open SP-/ }).click();
    await expect.poll(() => page.url()).toMatch(/#\/sample\/permit\/view\//);
    await page.getByTestId('readonly-applicant').getByText('Doe-Smith').waitFor();
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});
