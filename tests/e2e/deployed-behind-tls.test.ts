import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { freePort, startPortal, type PortalProcess } from '../support/portal-process';
import { startTlsFront, type TlsFront } from '../support/tls-front';

/** The demo applicant (seeds/connectid.json). */
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041', name: 'Ana Tuilagi' };

/**
 * The portal as docs/deployment.md deploys it: behind a load balancer where TLS ends, which
 * speaks HTTP/2 to browsers and HTTP/1.1 to the portal with `X-Forwarded-Proto: https`, and with
 * `PUBLIC_URL` the load balancer's https address. A person signs in and reaches the dashboard
 * through it, every request of the page on HTTP/2, the identity server's cookies secure.
 */
describe('the portal behind a TLS-ending HTTP/2 front, as deployed, in Chromium', () => {
  let portal: PortalProcess;
  let front: TlsFront;
  let browser: Browser;

  beforeAll(async () => {
    const frontPort = await freePort();
    portal = await startPortal({ PUBLIC_URL: `https://localhost:${frontPort}` });
    front = await startTlsFront(Number(new URL(portal.url).port), frontPort);
    browser = await launchChromium([`--ignore-certificate-errors-spki-list=${front.spkiHash}`]);
  });
  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await portal?.stop();
  });

  it('signs a person in to the dashboard over HTTPS and HTTP/2, with secure cookies', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    // The protocol of every answer that came over the network, as Chromium's network log has it.
    const protocols = new Map<string, string>();
    const devtools = await context.newCDPSession(page);
    devtools.on('Network.responseReceived', ({ response }) => {
      if (!response.fromServiceWorker && !response.fromDiskCache && response.url.startsWith('http'))
        protocols.set(new URL(response.url).pathname, response.protocol ?? 'unknown');
    });
    await devtools.send('Network.enable');
    await page.goto(`${front.url}/#/dashboard/home`);
    // The identity server's sign-in page, at the issuer the public address makes.
    await page.locator('#username').waitFor();
    expect(new URL(page.url()).origin).toBe(front.url);
    await page.locator('#username').fill(APPLICANT.login);
    await page.locator('#password').fill(APPLICANT.password);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(`${front.url}/#/dashboard/home`);
    await page.getByRole('heading', { name: `Welcome, ${APPLICANT.name}` }).waitFor();
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);

    // The page, its scripts, the API and the identity server's answers all came over HTTP/2.
    for (const path of [
      '/',
      '/api/definitions/index',
      '/realms/portal/protocol/openid-connect/token',
    ])
      expect(protocols.get(path), path).toBe('h2');
    expect([...protocols].filter(([, protocol]) => protocol !== 'h2')).toEqual([]);

    const cookies = await context.cookies(front.url);
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.filter((cookie) => !cookie.secure).map((cookie) => cookie.name)).toEqual([]);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
