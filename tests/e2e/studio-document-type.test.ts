import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { signIn } from '../support/e2e-accounts';
import { accessible, fromMenu } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';

const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041' };
const ROLE = 'appeal-submit';

/** Fills a text field of a scope by its label. */
const fill = (scope: Page | ReturnType<Page['locator']>, label: string | RegExp, value: string) =>
  scope.getByRole('textbox', { name: label }).fill(value);

/**
 * A new document type made in the studio's browser UI alone, on a portal that is never
 * restarted: the analyst creates "Appeal" from blank (identifier, titles, route prefix, roles),
 * which the check accepts as generated, adds a text to it on the Texts tab, publishes, and grants
 * its applicants' role to a unit from the Roles tab; an applicant then finds the type's menu
 * entry and files an appeal: saved, then submitted.
 */
describe('a new document type from the studio', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('"Appeal" is created from blank, given a text, published, its role granted, and filed', async () => {
    const { page, cspViolations, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ANALYST.login, ANALYST.password, '/studio/forms');
    await page.getByRole('button', { name: 'New document type' }).click();
    const dialog = page.getByRole('dialog', { name: 'New document type' });
    // Nothing given: each field says what it lacks, and nothing is written.
    await dialog.getByRole('button', { name: 'Add to the draft' }).click();
    await dialog.getByText('Give the title in English').waitFor();
    await fill(dialog, /^Identifier/, 'sponsor-application');
    await dialog
      .getByText('A document type, module or texts namespace already has this identifier')
      .waitFor();
    await fill(dialog, /^Identifier/, 'appeal');
    expect(await dialog.getByRole('textbox', { name: /^Route prefix/ }).inputValue()).toBe(
      '/appeal',
    );
    await fill(dialog, /^Title in English/, 'Appeal');
    await fill(dialog, /^Title in French/, 'Recours');
    await accessible(page, 'studio new document type dialog');
    await dialog.getByRole('button', { name: 'Add to the draft' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('status')
      .getByText(/^The document type Appeal is in the draft/)
      .waitFor();
    await page
      .getByRole('status')
      .getByText(/The check accepts the draft/)
      .waitFor({ timeout: 60_000 });

    // A text of its own, added in both languages on the Texts tab.
    await page.getByRole('tab', { name: 'Texts' }).click();
    await page.getByRole('combobox', { name: 'Texts of', exact: true }).click();
    await page.getByRole('option', { name: 'appeal', exact: true }).click();
    await page.getByRole('button', { name: 'Add a text' }).click();
    const add = page.getByRole('dialog', { name: 'Add a text to appeal' });
    await fill(add, /^Key/, 'details.summaryHelp');
    await fill(add, /^English/, 'Say in a few lines what you appeal against');
    await fill(add, /^Français/, 'Dites en quelques lignes ce que vous contestez');
    await add.getByRole('button', { name: 'Add to the draft' }).click();
    await page
      .getByText('The text appeal.details.summaryHelp is in the draft in English and French.')
      .waitFor();
    expect(
      await page.getByRole('textbox', { name: 'details.summaryHelp (Français)' }).inputValue(),
    ).toBe('Dites en quelques lignes ce que vous contestez');
    await accessible(page, 'studio texts');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publishing = page.getByRole('dialog', { name: 'Publish the draft' });
    await publishing.getByRole('textbox', { name: 'Note' }).fill('Appeals against decisions');
    await publishing.getByRole('button', { name: 'Publish', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/^Version \d+ is published/)
      .waitFor({ timeout: 90_000 });
    // Its applicants' role granted by the analyst alone, from the Roles tab, to the unit every
    // account holder has: read from the database, the role is then no longer marked.
    await page.getByRole('tab', { name: 'Roles' }).click();
    const row = page.getByRole('row').filter({ has: page.getByText(ROLE, { exact: true }) });
    await expect
      .poll(() => row.getByText('No unit grants it').count(), { timeout: 30_000 })
      .toBe(1);
    await row.getByRole('button', { name: /^Grant .* to a unit$/ }).click();
    const granting = page.getByRole('dialog', { name: 'Grant a role to an access unit' });
    await granting.getByRole('combobox', { name: 'Access unit' }).click();
    await page.getByRole('option', { name: /\(BASE\)$/ }).click();
    await granting.getByRole('button', { name: 'Grant', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/now grants/)
      .waitFor();
    await expect.poll(() => row.getByText('No unit grants it').count()).toBe(0);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();

    // An applicant files an appeal: the new menu entry, the form, saved, then submitted.
    const applicant = await openWatchedPage(browser);
    const own = applicant.page;
    await signIn(own, portal, APPLICANT.login, APPLICANT.password, '/appeal/mine');
    await fromMenu(own, 'New appeal');
    await own.waitForURL(/#\/appeal\/new$/);
    await own.getByRole('textbox', { name: /^Summary/ }).fill('The refusal of my visa');
    await own.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => own.url()).toMatch(/#\/appeal\/edit\/[0-9a-f-]{36}$/);
    await own.getByRole('button', { name: 'Submit', exact: true }).click();
    await own.getByText('Application Submitted Successfully').waitFor();
    await own.locator('text="Submitted" >> visible=true').first().waitFor();
    expect(applicant.pageErrors).toEqual([]);
    await own.context().close();
  });
});
