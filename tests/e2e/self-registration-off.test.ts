import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { startPortal, type PortalProcess } from '../support/portal-process';

/**
 * A server started with self-registration off (SELF_REGISTRATION=false): the menu offers no
 * Register, and /register and /success are pages that do not exist.
 */
describe('self-registration switched off, in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([
      startPortal({ SELF_REGISTRATION: 'false' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('offers no Register and answers /register and /success with the not-found page', async () => {
    const { page, context } = await openWatchedPage(browser);
    const answered = page.waitForResponse((r) => r.url().endsWith('/registration/options'));
    await page.goto(`${portal.url}/#/home`);
    expect((await answered).status()).toBe(404);
    const burger = page.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    const menu = page.getByRole('navigation', { name: 'Application menu' });
    await menu.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Register' }).count()).toBe(0);
    expect(await menu.getByRole('heading', { name: 'User management' }).count()).toBe(0);
    // Nor does the home page's own way in.
    await page.getByRole('button', { name: 'Sign In' }).first().waitFor();
    expect(await page.getByRole('main').getByRole('link', { name: 'Register' }).count()).toBe(0);

    for (const route of ['/register', '/success']) {
      await page.goto(`${portal.url}/#${route}`);
      await page.getByText('The page you were looking for does not exist').waitFor();
      expect(await page.getByRole('heading', { name: 'Register' }).count()).toBe(0);
    }
    await context.close();
  });
});
