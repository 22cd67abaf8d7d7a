import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, IDENTITY_ADMIN, signIn } from '../support/e2e-accounts';
import { accessible } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';

const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const ROLE = 'catalog-manage';
const UNIT = 'CATALOGUE_MANAGER';

type Unit = { id: string; version: number; data: { access: { roles: string[] } } };

/**
 * The studio's Roles tab in Chromium: the identity administrator has taken a role from the only
 * unit granting it, so the tab marks it as granted by no unit; the analyst, alone, grants it
 * back to that unit from the tab after a confirmation, and the tab then names the unit.
 */
describe('the studio’s roles in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  /** The identity administrator's own request, as the unit's "Change roles" screen sends it. */
  async function takeRoleAway() {
    const token = await apiToken(portal, IDENTITY_ADMIN.login, IDENTITY_ADMIN.password);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const units = `${portal.url}/api/connectid/access-unit`;
    const found = await fetch(`${units}/${UNIT}`, { headers });
    expect(found.status).toBe(200);
    const unit = (await found.json()) as Unit;
    const roles = unit.data.access.roles.filter((role) => role !== ROLE);
    const changed = await fetch(`${units}/${unit.id}/actions/edit-roles`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ version: unit.version, data: { ...unit.data, access: { roles } } }),
    });
    expect(changed.status, await changed.text()).toBe(200);
  }

  it('an analyst grants a role no unit grants to a unit, from the Roles tab', async () => {
    await takeRoleAway();
    const { page, cspViolations, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ANALYST.login, ANALYST.password, '/studio/roles');
    await page.getByRole('switch', { name: 'Only roles no unit grants' }).check();
    const row = page.getByRole('row').filter({ has: page.getByText(ROLE, { exact: true }) });
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.getByText('No unit grants it').count()).toBe(1);
    await accessible(page, 'studio roles');

    await row.getByRole('button', { name: /^Grant .* to a unit$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Grant a role to an access unit' });
    // Nothing is sent before a unit is chosen.
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await dialog.getByText('Choose the unit to grant the role to').waitFor();
    await dialog.getByRole('combobox', { name: 'Access unit' }).click();
    await page
      .getByRole('option', { name: `Catalogue managers: every reference-data catalogue (${UNIT})` })
      .click();
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/now grants/)
      .waitFor();
    await expect.poll(() => dialog.count()).toBe(0);

    // Read again from the database: the unit grants it, and it is no longer marked.
    await page.getByRole('switch', { name: 'Only roles no unit grants' }).uncheck();
    await expect.poll(() => row.getByText(UNIT, { exact: true }).count()).toBe(1);
    expect(await row.getByText('No unit grants it').count()).toBe(0);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
