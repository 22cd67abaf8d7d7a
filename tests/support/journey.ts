import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect, type ExpectStatic } from 'vitest';
import { axeViolations, WCAG_22_AA } from './axe';

/**
 * What the end-to-end journeys do on a document's screens, the way a person does: switch the
 * language from the header, find a section's tab and a field by its label, press an action of
 * the document, and hold every screen to axe's WCAG 2.2 AA rules in both languages.
 */

/** Screenshots to look at after a run (SHOTS_DIR), to see the screens as a person does. */
export const SHOTS = process.env.SHOTS_DIR ?? '';

export async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

export const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** The header's language switch, waiting until the page speaks the language. */
export async function switchLanguage(page: Page, to: 'en' | 'fr'): Promise<void> {
  if ((await lang(page)) === to) return;
  await page
    .getByRole('button', {
      name: to === 'fr' ? 'Change language to Français' : 'Changer la langue en English',
    })
    .click();
  await expect.poll(() => lang(page)).toBe(to);
  // Signed in, the choice is kept in the profile: done before anything the server writes in the
  // reader's language (a receipt, an e-mail) or the next sign-in reads it.
  await expect
    .poll(() =>
      page.getByRole('toolbar', { name: /^(Toolbar|Barre d'outils)$/ }).getAttribute('aria-busy'),
    )
    .not.toBe('true');
  await leaveTooltips(page);
}

/**
 * The pointer leaves the toolbar, and the tooltip its last click opened is gone before axe looks
 * at the page: a tooltip fading in or out has no stable contrast to measure.
 */
export async function leaveTooltips(
  page: Page,
  /** The test's own `expect` in a concurrent test, which the module's cannot stand for. */
  expectOf: ExpectStatic = expect,
): Promise<void> {
  await page.mouse.move(0, 0);
  await expectOf.poll(() => page.getByRole('tooltip').count()).toBe(0);
}

/** axe's WCAG 2.2 AA rules find nothing on the page as it is now. */
export async function accessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page, WCAG_22_AA);
  // Soft: an accessibility fault is reported, and the journey goes on to the next screens.
  expect.soft(violations, `${where} [${await lang(page)}]`).toEqual([]);
}

/** The same in English and in French (a screenshot of the French), leaving the page in English. */
export async function accessibleInBoth(
  page: Page,
  where: string,
  ready: (page: Page) => Promise<void>,
): Promise<void> {
  await switchLanguage(page, 'en');
  await ready(page);
  await accessible(page, where);
  await switchLanguage(page, 'fr');
  await ready(page);
  await accessible(page, where);
  await shot(page, `${where}-fr`);
  await switchLanguage(page, 'en');
  await ready(page);
}

export const panel = (page: Page) => page.getByRole('tabpanel');

/** Opens a section of the form by its tab, waiting until it is the one shown. */
export async function tab(page: Page, name: string): Promise<void> {
  const chosen = page.getByRole('tab', { name: new RegExp(`^${name}`) }).first();
  await chosen.click();
  await expect.poll(() => chosen.getAttribute('aria-selected')).toBe('true');
}

export const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label}`)).first();

/** Clicks an action button of the document (Submit, Query, Grant...). */
export const act = (page: Page, action: string) =>
  page
    .getByRole('group', { name: /^(Actions on this document|Actions sur ce document)$/ })
    .getByRole('button', { name: action, exact: true })
    .click();

/** The visible status only: the same word may sit in a hidden tab or menu. */
export const badge = (page: Page, status: string) =>
  page.locator(`text="${status}" >> visible=true`).first().waitFor();

/** Opens an entry of the application menu, unfolding its group if the menu is folded. */
export async function fromMenu(page: Page, entry: string): Promise<void> {
  const burger = page.getByRole('button', { name: 'Application menu' });
  if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
  const menu = page.getByRole('navigation', { name: 'Application menu' });
  const link = menu.getByRole('link', { name: entry });
  while (!(await link.isVisible())) {
    const closed = menu.locator('button[aria-expanded="false"]');
    if ((await closed.count()) === 0) break;
    await closed.first().click();
  }
  await link.click();
  if ((await burger.getAttribute('aria-expanded')) === 'true') await burger.click();
}
