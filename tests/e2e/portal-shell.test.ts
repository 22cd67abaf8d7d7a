import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/config';
import { axeViolations, WCAG_22_AA } from '../support/axe';
import { launchChromium, openWatchedPage } from '../support/browser';
import { createVerifiableDocument, VERIFIABLE, type SendJson } from '../support/documents';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

/**
 * The portal shell in Chromium, against the real server and identity server with the demo
 * personas: the / and /home redirects, the menu each persona sees, the toolbar's language and
 * colour scheme, and axe-core's WCAG 2.1 AA rules on the home, dashboard and a list page.
 */
/** A text of a translations namespace file, in French. */
async function frenchText(namespace: string, key: string): Promise<string> {
  const file = path.join(PROJECT_ROOT, 'translations', 'fr', `${namespace}.json`);
  let node: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  return String(node);
}

/** WCAG contrast ratio of two computed `rgb(...)` colours. */
function contrast(foreground: string, background: string): number {
  const luminance = (rgb: string) => {
    const [r, g, b] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * The focused element's ring: a 2 px solid outline, apart from the element, at least 3:1
 * against the page behind it (WCAG 2.4.13, focus appearance).
 */
async function expectFocusRing(page: Page, what: string): Promise<void> {
  const ring = await page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const style = getComputedStyle(focused);
    return {
      style: style.outlineStyle,
      width: style.outlineWidth,
      colour: style.outlineColor,
      page: getComputedStyle(document.body).backgroundColor,
    };
  });
  expect(ring.style, what).toBe('solid');
  expect(ring.width, what).toBe('2px');
  expect(contrast(ring.colour, ring.page), what).toBeGreaterThanOrEqual(3);
}

describe('portal shell in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('fixtures'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** The texts the page shows: every visible text node, trimmed. */
  const visibleTexts = (page: Page) =>
    page.evaluate(() => {
      const texts: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        const parent = node.parentElement;
        if (text && parent?.checkVisibility({ visibilityProperty: true })) texts.push(text);
      }
      return texts;
    });

  /** Texts written the same in English and French (e.g. "Document"): they may stay as they are. */
  async function sameInBothLanguages(): Promise<Set<string>> {
    const leaves = (tree: unknown, prefix = ''): Array<[string, string]> =>
      typeof tree === 'string'
        ? [[prefix, tree]]
        : Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
            leaves(value, `${prefix}.${key}`),
          );
    const read = async (lang: string) => {
      const own = JSON.parse(
        await fs.readFile(path.join(PROJECT_ROOT, 'translations', `${lang}.json`), 'utf8'),
      ) as unknown;
      return new Map(leaves(own));
    };
    const [en, fr] = [await read('en'), await read('fr')];
    return new Set([...en].filter(([key, text]) => fr.get(key) === text).map(([, text]) => text));
  }

  /** Opens the application menu, unfolds every folder, and lists its entries in order. */
  async function menuEntries(page: Page): Promise<string[]> {
    const menu = page.getByRole('navigation', { name: 'Application menu' });
    const burger = page.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    await menu.getByText(/^Sign (In|Out)$/).waitFor();
    for (;;) {
      const closed = menu.locator('button[aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().click();
    }
    return menu.locator('h2, a, button').evaluateAll((elements) =>
      elements.map((element) => {
        const label = (element.textContent ?? '').replace(/[▸▾]/g, '').trim();
        if (element.tagName === 'H2') return `# ${label}`;
        if (element.getAttribute('aria-expanded') !== null) return `[${label}]`;
        return element.tagName === 'A' ? label : `(${label})`;
      }),
    );
  }

  it('sends / and /home to the dashboard when signed in, and / to /home when not', async () => {
    const stranger = await openWatchedPage(browser);
    await stranger.page.goto(`${portal.url}/#/`);
    await stranger.page.waitForURL(`${portal.url}/#/home`);
    await stranger.page.getByRole('heading', { name: 'Check an electronic document' }).waitFor();
    // The menu is made as it first opens; Register shows once the server has said visitors may
    // register (on by default).
    await stranger.page.getByRole('button', { name: 'Application menu' }).click();
    await stranger.page
      .getByRole('navigation', { name: 'Application menu' })
      .getByRole('link', { name: 'Register' })
      .waitFor();
    expect(await menuEntries(stranger.page)).toEqual([
      'Home',
      '# User management',
      'Register',
      '(Sign In)',
    ]);
    expect(stranger.cspViolations).toEqual([]);
    await stranger.context.close();

    const applicant = await openWatchedPage(browser);
    await signIn(applicant.page, portal, 'applicant', 'Palm-Breeze-2041', '/dashboard/home');
    for (const start of ['/', '/home']) {
      await applicant.page.goto(`${portal.url}/#${start}`);
      await applicant.page.waitForURL(`${portal.url}/#/dashboard/home`);
      await applicant.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    }
    expect(await applicant.page.title()).toMatch(/ - Immigration Portal$/);
    expect(applicant.pageErrors).toEqual([]);
    await applicant.context.close();
  });

  it('starts single sign-on once a public page has painted, at once behind roles, and signs in silently', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    // What the page's main region showed when single sign-on's first request (the realm's
    // description) left; '' when there was no main region yet.
    await context.addInitScript(() => {
      const original = window.fetch;
      const record = window as unknown as { ssoStartedOver?: string };
      window.fetch = (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (/\/realms\/portal$/.test(url) && record.ssoStartedOver === undefined)
          record.ssoStartedOver = document.querySelector('main')?.textContent ?? '';
        return original.call(window, input, init);
      };
    });
    const startedOver = () =>
      page.evaluate(() => (window as unknown as { ssoStartedOver?: string }).ssoStartedOver);
    const paths: string[] = [];
    page.on('request', (request) => paths.push(new URL(request.url()).pathname));

    await page.goto(`${portal.url}/#/home`);
    await page.getByRole('main').getByRole('button', { name: 'Sign In' }).waitFor();
    await expect.poll(startedOver, { timeout: 30_000 }).toBeDefined();
    expect(await startedOver()).toContain('Check an electronic document');

    await signIn(page, portal, 'applicant', 'Palm-Breeze-2041', '/dashboard/home');
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    paths.length = 0;
    await page.reload();
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    // A page behind roles: the chain left before anything was drawn, and ended signed in
    // through the silent sign-on frame, with no third-party cookies check on our own origin.
    expect(await startedOver()).toBe('');
    expect(paths).toContain('/silent-check-sso.html');
    expect(paths).toContain('/realms/portal/protocol/openid-connect/login-status-iframe.html');
    expect(paths.filter((path) => path.includes('3p-cookies'))).toEqual([]);
    // The login-status frame's first check was answered from the frame itself.
    const beforeSilentSignOn = paths.slice(0, paths.indexOf('/silent-check-sso.html'));
    expect(beforeSilentSignOn.filter((path) => path.endsWith('/init'))).toEqual([]);

    // Signed out in another tab: the login-status frame's later checks (every 5 s) notice, and
    // this page, behind roles, goes to the sign-in page.
    const other = await context.newPage();
    await other.goto(`${portal.url}/#/dashboard/home`);
    await other.getByRole('heading', { name: /^Welcome, / }).waitFor();
    const burger = other.getByRole('button', { name: 'Application menu' });
    if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    await other.getByRole('navigation', { name: 'Application menu' }).getByText('Sign Out').click();
    await other.getByRole('button', { name: 'Yes, sign me out' }).click();
    await other.waitForURL(`${portal.url}/#/home`);
    await page.locator('#username').waitFor({ timeout: 30_000 });
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('checks an electronic document on the public home page: a valid number, then a wrong one', async () => {
    const password = 'Lagoon-Check-4821!';
    const people = { owner: 'td.owner', officer: 'td.officer' };
    await createAccount(portal, {
      login: people.owner,
      password,
      firstName: 'Tala',
      lastName: 'Owner',
      roles: ['test-document-submit', 'test-document-read'],
    });
    await createAccount(portal, {
      login: people.officer,
      password,
      firstName: 'Sione',
      lastName: 'Officer',
      roles: ['test-document-search', 'test-document-grant'],
    });
    const send: SendJson = async (method, apiPath, token, body) => {
      const response = await fetch(`${portal.url}/api${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${apiPath}: ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    };
    const granted = await createVerifiableDocument(send, {
      owner: await apiToken(portal, people.owner, password),
      officer: await apiToken(portal, people.officer, password),
    });

    const { page, context, cspViolations } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/home`);
    const check = async (number: string, secondFactor: string) => {
      await page.getByLabel('Document number').fill(number);
      await page.getByLabel('Passport number, date of birth').fill(secondFactor);
      await page.getByRole('button', { name: 'Check', exact: true }).click();
      return page.getByTestId('document-check-result');
    };
    const [year, month, day] = VERIFIABLE.dateOfBirth.split('-');
    const valid = await check(granted.number, `${day}/${month}/${year}`);
    await valid.getByText('Basic document checks passed, you can continue.').waitFor();
    const shown = (await valid.textContent()) ?? '';
    expect(shown).toContain(granted.number);
    // Genuine and in force, said as such: no status of the service's own workings.
    expect(shown).not.toContain('Granted');
    expect(shown).not.toContain('Ana');
    expect(shown).not.toContain(granted.passportNumber);
    expect(await page.getByRole('alert').count()).toBe(0);

    // Every miss is the same "Verification Errors" panel, word for word: a wrong second factor
    // says no more than a number that does not exist.
    const errors = page.getByRole('alert', { name: 'Verification Errors' });
    const wrong = await check(granted.number, 'ZZ0000000');
    await wrong.getByText(/No valid document matches/).waitFor();
    const wrongPanel = await errors.textContent();
    const unknown = await check('TD-1999-99999', granted.passportNumber);
    await unknown.getByText(/No valid document matches/).waitFor();
    expect(await errors.getByRole('listitem').count()).toBe(1);
    expect(await errors.textContent()).toBe(wrongPanel);
    expect(await page.getByText('Basic document checks passed').count()).toBe(0);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('works with the keyboard alone: the menu, and the document check form', async () => {
    const { page, context } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/home`);
    const burger = page.getByRole('button', { name: 'Application menu' });
    await burger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('navigation', { name: 'Application menu' });
    await expect
      .poll(() =>
        menu.getByRole('link', { name: 'Home' }).evaluate((e) => e === document.activeElement),
      )
      .toBe(true);
    // Self-registration is on: Register comes between Home and Sign In.
    await menu.getByRole('link', { name: 'Register' }).waitFor();
    await page.keyboard.press('Tab');
    expect(
      await menu
        .getByRole('link', { name: 'Register' })
        .evaluate((e) => e === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Tab');
    expect(
      await menu
        .getByRole('button', { name: 'Sign In' })
        .evaluate((e) => e === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => burger.getAttribute('aria-expanded')).toBe('false');
    expect(await burger.evaluate((e) => e === document.activeElement)).toBe(true);
    await expectFocusRing(page, 'the menu button');

    await page.getByLabel('Document number').focus();
    // An input's focus was a 1 px change of its border's colour.
    await expectFocusRing(page, 'a text input');
    await page.keyboard.type('TD-1999-00001');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ZZ0000000');
    await page.keyboard.press('Enter');
    await page
      .getByTestId('document-check-result')
      .getByText(/No valid document matches/)
      .waitFor();
    await context.close();
  });

  it('changes every visible text of the home page to French, and speaks French to the API', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/home`);
    await page.getByRole('heading', { name: 'Check an electronic document' }).waitFor();
    const english = await visibleTexts(page);
    await page.getByRole('button', { name: 'Change language to Français' }).click();
    await page.getByRole('heading', { name: 'Vérifier un document électronique' }).waitFor();
    const french = await visibleTexts(page);
    const neutral = await sameInBothLanguages();
    const words = (text: string) => /\p{L}/u.test(text); // '*' or '-' are in no language
    expect(
      french.filter((text) => words(text) && english.includes(text) && !neutral.has(text)),
    ).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');

    // The API is told the language, and answers in it.
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/evisa/verification'));
    await page.getByLabel('Numéro du document').fill('XX-0000-000000');
    await page.getByLabel('Numéro de passeport, date de naissance').fill('P1234567');
    await page.getByRole('button', { name: 'Vérifier' }).click();
    expect((await sent).headers().locale).toBe('fr');
    const answer = await page.getByTestId('document-check-result').textContent();
    expect(answer).toBe(await frenchText('dashboard', 'errors.documentNotVerified'));

    // The choice survives a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Vérifier un document électronique' }).waitFor();
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('switches to the dark colour scheme and keeps it', async () => {
    const { page, context } = await openWatchedPage(browser);
    await page.goto(`${portal.url}/#/home`);
    const toggle = page.getByRole('button', { name: 'Dark mode' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await toggle.click();
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const dark = await background();
    const luminance = (rgb: string) =>
      (rgb.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, c) => sum + Number(c), 0);
    expect(luminance(dark)).toBeLessThan(luminance(light) / 3);
    // The focus ring stands out from the dark page too (the brand blue would be 2:1 there).
    await page.getByLabel('Document number').focus();
    await expectFocusRing(page, 'a text input in dark mode');
    await toggle.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expectFocusRing(page, 'a button in dark mode');
    await page.reload();
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await context.close();
  });

  it('keeps the portal name on one line of the 64 px bar on a phone, in French too', async () => {
    const { page, context } = await openWatchedPage(browser);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${portal.url}/#/home`);
    await page
      .getByRole('button', { name: /language/i })
      .or(page.getByRole('button', { name: 'More actions' }))
      .first()
      .waitFor();
    for (const name of ['Immigration Portal', "Portail de l'immigration"]) {
      if (name.startsWith('Portail')) {
        await page.evaluate(() => localStorage.setItem('portal.language', 'fr'));
        await page.reload();
      }
      const title = page.getByRole('heading', { level: 1, name, exact: true });
      await title.waitFor();
      const box = (await title.boundingBox())!;
      const lineHeight = await title.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight));
      expect(box.height).toBeLessThan(lineHeight * 1.5);
      const header = (await page.locator('header').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height);
    }
    await context.close();
  });

  it('passes axe-core (WCAG 2.1 AA) on the home page, the dashboard and a list page', async () => {
    const stranger = await openWatchedPage(browser);
    await stranger.page.goto(`${portal.url}/#/home`);
    await stranger.page.getByRole('heading', { name: 'Check an electronic document' }).waitFor();
    expect(await axeViolations(stranger.page)).toEqual([]);
    await stranger.context.close();

    const admin = await openWatchedPage(browser);
    await signIn(admin.page, portal, 'idadmin', 'Key-Keeper-8105!', '/dashboard/home');
    await admin.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await admin.page.getByText('No messages').waitFor();
    // The identity administrator works with no document type that has statistics: none are
    // shown.
    expect(await admin.page.getByText(/^Statistics: /).count()).toBe(0);
    expect(await axeViolations(admin.page)).toEqual([]);
    await admin.page.goto(`${portal.url}/#/connectid/accounts`);
    // The seeded personas share one creation instant, so which of them page 1 shows varies:
    // wait for the rows themselves, not for a given account.
    await admin.page
      .getByRole('table')
      .getByRole('button', { name: /^Open\b/ })
      .first()
      .waitFor();
    expect(await axeViolations(admin.page)).toEqual([]);
    await admin.context.close();

    // A visa officer sees the visa applications' statistics: tables of counts, each month a row.
    const officer = await openWatchedPage(browser);
    await signIn(officer.page, portal, 'verifier', 'Harbour-Light-9264!', '/dashboard/home');
    const months = officer.page.getByRole('table', {
      name: 'Visa application in the last 6 months',
    });
    await months.getByRole('columnheader', { name: 'Month' }).waitFor();
    expect(await months.getByRole('row').count()).toBe(7);
    expect(await axeViolations(officer.page)).toEqual([]);
    await officer.context.close();
  });

  it('passes axe-core (WCAG 2.2 AA) in dark mode on the home page and the dashboard header', async () => {
    const { page, context } = await openWatchedPage(browser);
    await context.addInitScript(() => localStorage.setItem('mantine-color-scheme-value', 'dark'));
    await page.goto(`${portal.url}/#/home`);
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: 'Check an electronic document' }).waitFor();
    expect(await axeViolations(page, WCAG_22_AA)).toEqual([]);
    await signIn(page, portal, 'idadmin', 'Key-Keeper-8105!', '/dashboard/home');
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await page.getByText('No messages').waitFor();
    // The brand title and the Home link: each text against the header it sits on.
    const header = page.getByRole('banner');
    for (const text of [
      header.getByRole('heading', { level: 1 }),
      header.getByRole('link', { name: 'Home' }),
    ]) {
      const [colour, background] = await text.evaluate((element) => [
        getComputedStyle(element).color,
        // The first ancestor with a background of its own.
        (() => {
          for (let node: Element | null = element; node; node = node.parentElement) {
            const colour = getComputedStyle(node).backgroundColor;
            if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
          }
          return 'rgb(255, 255, 255)';
        })(),
      ]);
      expect(contrast(colour, background), `${colour} on ${background}`).toBeGreaterThanOrEqual(
        4.5,
      );
    }
    expect(await axeViolations(page, WCAG_22_AA)).toEqual([]);
    await context.close();
  });

  it('logs no console warning or error while signing in and moving between hash routes', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error')
        logged.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    });
    await page.goto(`${portal.url}/#/home`);
    await page.getByRole('heading', { name: 'Check an electronic document' }).waitFor();
    await signIn(page, portal, 'idadmin', 'Key-Keeper-8105!', '/connectid/accounts');
    const open = page
      .getByRole('table')
      .getByRole('button', { name: /^Open\b/ })
      .first();
    await open.click();
    await page.waitForURL(/\/connectid\/accounts\/view\//);
    await page.getByRole('tab').first().waitFor();
    // Hash changes the router did not make itself (the address bar, a plain `#/...` link): a
    // document screen's unsaved-changes blocker made React Router warn on each.
    await page.evaluate(() => {
      window.location.hash = '/dashboard/home';
    });
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await page.goBack();
    await page.waitForURL(/\/connectid\/accounts\/view\//);
    await page.getByRole('tab').first().waitFor();
    await page.evaluate(() => {
      window.location.hash = '/connectid/accounts';
    });
    await open.waitFor();
    await page.reload();
    await open.waitFor();
    // A form with unsaved changes, opened by a hash change the router did not make, then left
    // by another and by Back: the guard asks each time and the edits stay (React Router warned
    // of "a blocker on a POP navigation" and let them go).
    await page.evaluate(() => {
      window.location.hash = '/connectid/accounts/new';
    });
    const first = page.getByRole('textbox', { name: /^Login identifier/ });
    // Typed and left in one task, before a frame is painted: the text has not reached the form
    // yet (the widgets hand it over after the paint), and the guard must hold all the same.
    const typeAndLeave = () =>
      first.evaluate((input: HTMLInputElement) => {
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
        setValue?.call(input, 'tala');
        input.dispatchEvent(new Event('input', { bubbles: true }));
        window.location.hash = '/connectid/accounts';
      });
    const leaving = [typeAndLeave, () => page.goBack()];
    for (const leave of leaving) {
      await leave();
      const dialog = page
        .getByRole('dialog')
        .filter({ hasText: 'Are you sure you want to continue without saving' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(page.url()).toMatch(/#\/connectid\/accounts\/new$/);
      expect(await first.inputValue()).toBe('tala');
    }
    expect(logged).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('checks nothing while a field is empty, and re-words its messages when the language changes', async () => {
    const { page, context } = await openWatchedPage(browser);
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/evisa/verification')) posted.push(request.method());
    });
    await page.goto(`${portal.url}/#/home`);
    // The carousel and the paragraph under it say different things.
    const carousel = page.getByRole('region', { name: 'News' });
    const slide = (await carousel.locator('p').textContent()) ?? '';
    const intro = (await page.locator('main p').nth(1).textContent()) ?? '';
    expect(slide).not.toBe('');
    expect(intro).not.toContain(slide);
    expect(slide).not.toContain(intro);

    await page.getByRole('button', { name: 'Check', exact: true }).click();
    const number = page.getByLabel('Document number');
    await expect.poll(() => number.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('This field is required').count()).toBe(2);
    // The two boxes sit on one line.
    const second = page.getByLabel('Passport number, date of birth');
    const top = async (input: typeof number) => (await input.boundingBox())?.y;
    expect(await top(number)).toBe(await top(second));
    await page.getByRole('button', { name: 'Change language to Français' }).click();
    await page.getByText('Ce champ est obligatoire').first().waitFor();
    expect(await page.getByText('Ce champ est obligatoire').count()).toBe(2);

    // An answer shown in French turns English with the page.
    await page.getByLabel('Numéro du document').fill('XX-0000-000000');
    await page.getByLabel('Numéro de passeport, date de naissance').fill('P1234567');
    await page.getByRole('button', { name: 'Vérifier' }).click();
    const answer = page.getByTestId('document-check-result');
    await answer.getByText(await frenchText('dashboard', 'errors.documentNotVerified')).waitFor();
    await page.getByRole('button', { name: 'Changer la langue en English' }).click();
    await answer.getByText(/^No valid document matches/).waitFor();
    expect(posted).toEqual(['POST']);
    await context.close();
  });

  // Every signed-in persona holds view-profile: Home, the dashboards, then what its roles open.
  const COMMON = ['Home', '[Dashboards]', 'My Library', 'My Tasks'];
  // The user management module's own pages, then the fixed entries.
  const ACCOUNT = [
    '# User management',
    'Change password',
    'Security and sign-in',
    'My data',
    'Manage Account',
    '(Sign Out)',
  ];
  // Catalogue folders and their entries are alphabetical in the language shown.
  const sso = (passenger: string[], configuration: string[] = []) => [
    '# Catalogues',
    '[Configuration]',
    'Attributes',
    ...configuration,
    '[Operators]',
    'Agencies',
    'Agents',
    'Traders',
    ...passenger,
    '[Single sign-on]',
    'Administrations',
    'Countries',
    'Identity types',
    'User type identifiers',
    'User types',
  ];
  const SSO_CATALOGUES = sso([]);
  const ALL_CATALOGUES = sso(
    [
      '[Passenger]',
      'All declarations',
      'All other declarations',
      'All questions',
      'Attachments',
      'Binders',
      'Conditions',
      'Country blocks',
      'Declarations',
      'Document fees',
      'Documents',
      'Modes of payment',
      'Other declarations',
      'Passport blocks',
      'Periods',
      'Permissions',
      'Proofs',
      'Questions',
      'Relations',
      'Requirements',
      'Sub-document country blocks',
      'Sub-document fees',
      'Sub-document passport blocks',
      'Sub-documents',
    ],
    ['Bank accounts for invoices'],
  );
  // Every account holder has an inbox (the BASE access unit).
  const INBOX = ['# Message', 'Inbox'];
  it.each<[string, string, string[]]>([
    ['applicant', 'Palm-Breeze-2041', [...INBOX, '# Visa application', 'New']],
    [
      'verifier',
      'Harbour-Light-9264!',
      [
        ...INBOX,
        '# Payment invoice',
        'Find Payment Invoices',
        'Invoices to Verify',
        '# Sponsor application',
        'Create Sponsor Application',
        'Find Sponsor Applications',
        'Find Submitted Applications',
        'Find Granted Applications',
        'Sponsor Applications to Verify',
        '# Visa application',
        'Find',
        'Submitted',
        'Assigned to me',
        'For assignment',
        'Assigned',
        'Team workload',
        ...SSO_CATALOGUES,
      ],
    ],
    [
      'catalogue',
      'Ledger-Stone-2976!',
      [...INBOX, ...ALL_CATALOGUES, '# Studio', 'Definitions studio'],
    ],
    [
      'idadmin',
      'Key-Keeper-8105!',
      [
        '# Access role',
        'Access roles',
        '# Access unit',
        'Access units',
        '# User account',
        'Accounts',
        'Pending accounts',
        'Rejected accounts',
        'Returned accounts',
        'Active accounts',
        'Inactive accounts',
        'Deleted accounts',
        'Closure requests',
        'Closed accounts',
        ...INBOX,
        '# Password policy',
        'Password policies',
        '# User group',
        'User groups',
        ...SSO_CATALOGUES,
        '# Records',
        'Retention',
      ],
    ],
  ])('shows %s the menu entries of its roles', async (login, password, expected) => {
    const { page, context, cspViolations } = await openWatchedPage(browser);
    await signIn(page, portal, login, password, '/dashboard/home');
    expect(await menuEntries(page)).toEqual([...COMMON, ...expected, ...ACCOUNT]);
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});
