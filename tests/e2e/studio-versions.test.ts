import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import { launchChromium, openWatchedPage } from '../support/browser';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';
import { apiToken, signIn } from '../support/e2e-accounts';
import { startPortal, type PortalProcess } from '../support/portal-process';

const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const COUNTRY = 'catalogs/country.json';

/**
 * A portal restarted on a changed definitions folder after a studio publish: the Versions tab
 * shows the folder's file against the served one, line by line, and taking the folder's files
 * publishes them, ending the conflict.
 */
describe('the folder conflict in the Versions tab', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let folder: Awaited<ReturnType<typeof copyDefinitions>>;
  let country: CatalogDefinition;

  const titled = (title: string): CatalogDefinition => ({
    ...country,
    labels: { ...country.labels, en: { ...country.labels.en, title } },
  });

  beforeAll(async () => {
    folder = await copyDefinitions();
    country = await readProjectJson<CatalogDefinition>(COUNTRY);
    [portal, browser] = await Promise.all([
      startPortal({ DEFINITIONS_DIR: folder.dir }),
      launchChromium(),
    ]);
    const token = await apiToken(portal, ANALYST.login, ANALYST.password);
    const published = await fetch(`${portal.url}/api/definitions/sets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        base: 1,
        note: 'Studio title',
        changes: { [COUNTRY]: JSON.stringify(titled('Countries of the studio'), null, 2) },
      }),
    });
    if (published.status !== 201) throw new Error(await published.text());
    await folder.write(COUNTRY, titled('Countries of the folder'));
    await portal.restart();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    await folder?.remove();
  });

  it("compares the folder's files with the served version and takes them", async () => {
    const { page, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ANALYST.login, ANALYST.password, '/studio/versions');
    const alert = page.getByRole('status').filter({
      hasText: 'The deployment’s definition files are not applied',
    });
    await alert.getByRole('button', { name: 'Compare the folder’s files with version 2' }).click();
    await alert.getByText('1 file differs between the folder and version 2').waitFor();
    await alert.getByText(COUNTRY).waitFor();
    await alert.getByRole('button', { name: 'Show the lines' }).click();
    const lines = await alert.locator('pre').textContent();
    expect(lines).toMatch(/- +"title": "Countries of the studio"/);
    expect(lines).toMatch(/\+ +"title": "Countries of the folder"/);
    // One file differs: choosing per file is no other choice than keeping or taking.
    await alert.getByRole('button', { name: 'Take the folder’s files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Take the folder’s files' });
    await dialog.getByRole('textbox', { name: 'Note' }).fill('The folder is right');
    await dialog.getByRole('button', { name: 'Publish the folder’s files' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await alert.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'The folder is right' }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
