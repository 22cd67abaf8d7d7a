import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../translations/en.json';
import { launchChromium, openWatchedPage } from '../support/browser';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

/** Waits until the service worker controls the page (on a first visit, once it has claimed it). */
async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
    );
  });
}

/** Every request the worker's caches hold, by path. */
async function cachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

async function openRoute(page: Page, path: string): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#${path}`);
}

describe('the portal offline, with its service worker', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('starts offline, opens a page seen before, and shows the offline page for one never opened', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    const registerHeading = page.getByRole('heading', { name: en.register.title, level: 2 });
    await page.goto(`${portal.url}/#/home`);
    await page.getByText(en.pages.homeIntro).waitFor();
    await controlledByServiceWorker(page);
    // Registration's code is a lazy chunk, fetched now that the worker controls the page.
    await openRoute(page, '/register');
    await registerHeading.waitFor();
    await openRoute(page, '/home');
    await page.getByText(en.pages.homeIntro).waitFor();

    // The app shell is precached; lazy chunks are kept once fetched, never the API or sign-in.
    const cached = await cachedPaths(page);
    expect(cached).toContain('/index.html');
    expect(cached).toContain('/silent-check-sso.html');
    expect(cached.filter((path) => /^\/assets\/RegisterPage-/.test(path))).toHaveLength(1);
    expect(cached.filter((path) => /^\/assets\/CatalogSearchPage-/.test(path))).toEqual([]);
    expect(cached.filter((path) => /^\/(api|realms)\//.test(path))).toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await page.getByText(en.pages.homeIntro).waitFor();
    await page.getByRole('main').getByRole('button', { name: en.menu.signIn }).waitFor();

    // A page opened before: its chunk comes from the worker's cache.
    await openRoute(page, '/register');
    await registerHeading.waitFor();

    // A page never opened: its chunk cannot be fetched, the portal says it is offline.
    await openRoute(page, '/catalog/search/country');
    await page.getByText(en.pages.offline).waitFor();
    expect(await page.getByRole('link', { name: en.app.home }).count()).toBeGreaterThan(0);

    // Back online, opening it again fetches its code. The portal started offline, without its
    // identity server, so the page's sign-in check leads to the 401 page.
    await context.setOffline(false);
    await openRoute(page, '/home');
    await page.getByText(en.pages.homeIntro).waitFor();
    await openRoute(page, '/catalog/search/country');
    await page.waitForURL(/#\/401$/);
    await page.getByText(en.pages.unauthorized).waitFor();
    const kept = await cachedPaths(page);
    expect(kept.filter((path) => /^\/assets\/CatalogSearchPage-/.test(path))).toHaveLength(1);

    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('keeps the chunks of the page a first visit opened, fetched before the worker took control', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/register`);
    await page.getByRole('heading', { name: en.register.title, level: 2 }).waitFor();
    await controlledByServiceWorker(page);
    await expect
      .poll(async () =>
        (await cachedPaths(page)).some((path) => /^\/assets\/RegisterPage-/.test(path)),
      )
      .toBe(true);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: en.register.title, level: 2 }).waitFor();
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('never answers the API or the identity server from the worker', async () => {
    const { page, context, cspViolations } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/home`);
    await page.getByText(en.pages.homeIntro).waitFor();
    await controlledByServiceWorker(page);

    const answers: { path: string; fromWorker: boolean }[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (/^\/(api|realms)\//.test(path))
        answers.push({ path, fromWorker: response.fromServiceWorker() });
    });
    await page.reload();
    await page.getByText(en.pages.homeIntro).waitFor();
    const shell = await page.evaluate(() => navigator.serviceWorker.controller !== null);
    expect(shell).toBe(true);
    expect(answers.some((answer) => answer.path === '/api/definitions/index')).toBe(true);
    // Single sign-on starts once the public page has painted: its first request may follow
    // the text just waited for.
    await expect
      .poll(() => answers.some((answer) => answer.path.startsWith('/realms/portal')))
      .toBe(true);
    expect(answers.filter((answer) => answer.fromWorker)).toEqual([]);
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});
