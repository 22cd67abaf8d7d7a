import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';
import { VISA_APPLICANT_ROLES, type VisaView } from '../support/granted-visa';
import { applicationsOverHttp } from '../support/http-applications';
import { accessibleInBoth, shot } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';
import { visaApplication } from '../support/visa-data';

/**
 * The read audit in Chromium (docs/audit.md): an officer opens an applicant's application on its
 * screen; the demo auditor finds that read on the audit screen by the document's id, with the
 * officer's name and the screen it was made through, and nothing of the applicant's own reads.
 */
const APPLICANT = {
  login: 'e2e.audited',
  password: 'Lagoon-Audited-4826',
  firstName: 'Losa',
  lastName: 'Audited',
  roles: VISA_APPLICANT_ROLES,
};
const OFFICER = {
  login: 'e2e.auditreader',
  password: 'Reef-Reader-5931!',
  firstName: 'Manu',
  lastName: 'Reader',
  roles: ['visa-application-search', 'visa-application-read'],
};
const AUDITOR = { login: 'auditor', password: 'Record-Keeper-7319!' };

describe('the audit screen in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let application: VisaView;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    await Promise.all([createAccount(portal, APPLICANT), createAccount(portal, OFFICER)]);
    const token = await apiToken(portal, APPLICANT.login, APPLICANT.password);
    const api = applicationsOverHttp(portal.url);
    application = (await api.send('POST', '/api/evisa/visa-application', token, {
      data: visaApplication('VIS', 'VV30'),
    })) as VisaView;
    // The applicant's own read: never a line of the trail.
    await api.send('GET', `/api/evisa/visa-application/${application.id}`, token);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it("finds an officer's opening of an application, with the screen it was made through", async () => {
    const officer = await openWatchedPage(browser);
    const view = `/visa/application/view/${application.id}`;
    await signIn(officer.page, portal, OFFICER.login, OFFICER.password, view);
    await officer.page.getByRole('heading', { level: 1 }).first().waitFor();

    const auditor = await openWatchedPage(browser);
    const page = auditor.page;
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, portal, AUDITOR.login, AUDITOR.password, '/audit');
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.getByLabel('Document', { exact: false }).first().fill(application.id);
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Read' }).click();
    // The kind is chosen before the first search: otherwise its lines are every kind's.
    await expect.poll(() => page.getByRole('combobox', { name: 'Kind' }).inputValue()).toBe('Read');
    // The read reaches the trail within its batch window: asked again until it is there.
    const table = page.getByRole('table', { name: 'Audit lines, newest first' });
    const read = table.locator('tr[data-action="document.read"]').first();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Search', exact: true }).click();
          await page.getByRole('status').first().waitFor();
          return read.count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    const text = (await read.textContent()) ?? '';
    expect(text).toContain('Opened a document');
    expect(text).toContain('Manu Reader');
    expect(text).toContain('screen /visa/application/view/:id');
    expect(text).toContain('GET /api/evisa/:type/:id');
    // No read line of the applicant's: their own read of their application is never recorded.
    const ownReads = table.locator('tr[data-action$=".read"]', { hasText: 'Losa Audited' });
    expect(await ownReads.count()).toBe(0);
    await shot(page, 'audit-screen');
    await accessibleInBoth(page, 'audit-screen', async (p) => {
      await p.getByRole('table').waitFor();
    });
    expect(auditor.cspViolations.concat(officer.cspViolations)).toEqual([]);
    expect(auditor.pageErrors.concat(officer.pageErrors)).toEqual([]);
  });
});
