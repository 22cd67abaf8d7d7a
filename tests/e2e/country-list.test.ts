import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { startPortal, type PortalProcess } from '../support/portal-process';
import { apiToken, signIn } from '../support/e2e-accounts';

const MANAGER = { login: 'catalogue', password: 'Ledger-Stone-2976!' };
const READER = { login: 'verifier', password: 'Harbour-Light-9264!', name: 'Tavita Verifier' };

describe('the portal in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  async function filterCode(page: Page, code: string) {
    await page.getByLabel('Field', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Code', exact: true }).click();
    await page.getByLabel('Criterion', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Equals', exact: true }).click();
    await page.getByLabel('Value', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Apply' }).click();
  }

  it('lists a country created through the API, after a restart of the process, with no CSP violation', async () => {
    const manager = await apiToken(portal, MANAGER.login, MANAGER.password);
    const created = await fetch(`${portal.url}/api/catalog/v1/country`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        code: 'XT',
        name: 'Xanthe Test Isles',
        startTime: '2020-01-01T00:00:00Z',
      }),
    });
    expect(created.status).toBe(201);
    await portal.restart();

    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, READER.login, READER.password, '/catalog/search/country');
    // Among the 249 ISO countries the portal starts with, the filter finds the new one.
    await filterCode(page, 'XT');
    await page.getByRole('cell', { name: 'Xanthe Test Isles' }).waitFor();
    expect(await page.getByRole('cell', { name: 'XT', exact: true }).count()).toBe(1);
    expect(await page.title()).toBe(`${READER.name} - Immigration Portal`);
    // A reader is not offered the New button: creating needs a manager role.
    expect(await page.getByRole('button', { name: 'New' }).count()).toBe(0);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('creates an entry from the New dialog after the browser-side validator caught a bad code', async () => {
    const { page, context, cspViolations } = await openWatchedPage(browser);
    await signIn(page, portal, MANAGER.login, MANAGER.password, '/catalog/search/country');
    await page.getByRole('button', { name: 'New' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Entry' });
    await dialog.getByLabel('Code').fill('XYL');
    await dialog.getByLabel('Name (English)').fill('Xylo Atoll');
    await dialog.getByLabel('Valid from').fill('2021-03-04T05:06:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Must be at most 2 characters').waitFor();
    await dialog.getByLabel('Code').fill('XY');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Entry saved').waitFor();
    await filterCode(page, 'XY');
    await page.getByRole('cell', { name: 'Xylo Atoll' }).waitFor();
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('serves hashed assets with a year-long cache and the page with revalidation', async () => {
    const index = await fetch(`${portal.url}/`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${portal.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
