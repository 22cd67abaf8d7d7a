import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { createAccount, signIn } from '../support/e2e-accounts';
import { accessible, fromMenu } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';

const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const APPELLANT = {
  login: 'appellant',
  password: 'Appeal-Writer-4821!',
  firstName: 'Tavita',
  lastName: 'Appellant',
};

/** Fills a text field of a scope by its label. */
const fill = (scope: Page | ReturnType<Page['locator']>, label: string | RegExp, value: string) =>
  scope.getByRole('textbox', { name: label }).fill(value);

/**
 * A new document type made in the studio's browser UI alone, on a portal that is never
 * restarted: the analyst creates "Appeal" from blank (identifier, titles, route prefix, roles),
 * which the check accepts as generated, adds a text to it on the Texts tab, publishes, and a
 * person holding the applicant role finds the type's menu entry, which opens its form.
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

  it('"Appeal" is created from blank, given a text, published and opens from the menu', async () => {
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
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();

    // Its roles are granted as an administrator would once the type is published.
    await createAccount(portal, { ...APPELLANT, roles: ['appeal-submit'] });
    const appellant = await openWatchedPage(browser);
    await signIn(appellant.page, portal, APPELLANT.login, APPELLANT.password, '/appeal/mine');
    await appellant.page.getByRole('banner').getByText('Tavita Appellant').waitFor();
    await fromMenu(appellant.page, 'New appeal');
    await appellant.page.waitForURL(/#\/appeal\/new$/);
    await appellant.page.getByRole('textbox', { name: /^Summary/ }).fill('The refusal of my visa');
    expect(appellant.pageErrors).toEqual([]);
    await appellant.page.context().close();
  });
});
