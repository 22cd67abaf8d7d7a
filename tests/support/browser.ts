import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Browser work no page asks for, turned off in every test and bench browser. */
export const CHROMIUM_QUIET_FEATURES = '--disable-features=WebUIOmniboxPopup';

/**
 * Debian's Chromium driven by Playwright. Missing Chromium is a failure with the command to
 * fix it, never a skipped test. `extraArgs`: more switches (a certificate to trust, say).
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run scripts/ensure-chromium (apt-get install chromium)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Headless Chromium loads its omnibox's web UI (some 60 modules, in a process of its
      // own) in every new window, which each test's context is: work no tested page asks for.
      CHROMIUM_QUIET_FEATURES,
      ...extraArgs,
    ],
  });
}

/** A page that records every Content-Security-Policy violation and page error. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  cspViolations: string[];
  pageErrors: string[];
}

export async function openWatchedPage(
  browser: Browser,
  options: { locale?: string } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({ locale: options.locale ?? 'en-NZ' });
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    cspViolations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation(text: string): void })
        .__reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, context, cspViolations, pageErrors };
}
