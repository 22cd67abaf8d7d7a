import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';
import { CHILD, paidVisa, VISA_APPLICANT_ROLES } from '../support/granted-visa';
import { applicationsOverHttp, payOverHttp } from '../support/http-applications';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';
import { visaApplication } from '../support/visa-data';

const APPLICANT = {
  login: 'e2e.family',
  password: 'Reef-Family-4821!',
  firstName: 'Sione',
  lastName: 'Tui',
  roles: VISA_APPLICANT_ROLES,
};
const OFFICER = {
  login: 'e2e.granter',
  password: 'Reef-Granter-5930!',
  firstName: 'Tavita',
  lastName: 'Granter',
  roles: [
    'visa-application-search',
    'visa-application-read',
    'visa-application-grant',
    'visa-application-issue',
  ],
};
const REASON = 'No birth certificate was given for the child';

type View = {
  id: string;
  version: number;
  status: string;
  data: Record<string, unknown> & {
    fees: { lines: Array<{ narration?: string; status?: string }> };
  };
};

/**
 * A decision per person in Chromium: the officer grants the applicant and refuses the child on
 * the grant screen; the child's fee is waived, one e-visa is issued, and the applicant reads
 * both outcomes. The application is lodged and paid through the API to keep the journey short.
 */
describe('a decision per person in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let officerToken = '';
  let application: View;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    await Promise.all([createAccount(portal, APPLICANT), createAccount(portal, OFFICER)]);
    const token = await apiToken(portal, APPLICANT.login, APPLICANT.password);
    officerToken = await apiToken(portal, OFFICER.login, OFFICER.password);
    const api = applicationsOverHttp(portal.url);
    const data = { ...visaApplication('WRK', 'WV1Y'), dependants: [CHILD] };
    application = await paidVisa<View>(api, token, data, payOverHttp(api, token, 'Sione Tui'));
    expect(application.status).toBe('PAID FOR VERIFICATION');
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('grants the applicant, refuses the child: one fee charged, one e-visa, both outcomes shown', async () => {
    const { id } = application;
    const officer = await openWatchedPage(browser);
    const page = officer.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(
      page,
      portal,
      OFFICER.login,
      OFFICER.password,
      `/visa/application/verification/${id}`,
    );
    const rows = page.getByRole('region', { name: 'Decision for each person' });
    const main = page.getByRole('radiogroup', { name: /Decision for Sione Tui/ });
    const child = page.getByRole('radiogroup', { name: /Decision for Lani Tui/ });
    await main.waitFor();
    // Granting with no decision for the child is refused here, as the server would.
    await main.getByRole('radio', { name: 'Grant' }).check();
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await rows.getByText('Grant or refuse Lani Tui', { exact: false }).first().waitFor();
    await child.getByRole('radio', { name: 'Refuse' }).check();
    await rows.getByLabel(/Why is Lani Tui refused/).fill(REASON);
    await rows.getByRole('button', { name: 'Add a condition for Sione Tui' }).click();
    await rows.getByLabel('Code').fill('C1');
    await rows.getByLabel('Description').fill('Work for the sponsor only');
    // At 390 px the rows fit the width: nothing to scroll sideways.
    const overflow = await rows.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The screen's own scroll areas at phone width are not this journey's: checked wide.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await page.getByText('Application Granted Successfully').waitFor();
    await officer.context.close();

    // The fee is charged for one person: the child's lines are waived.
    const read = async () =>
      (await (
        await fetch(`${portal.url}/api/evisa/visa-application/${id}`, {
          headers: { authorization: `Bearer ${officerToken}` },
        })
      ).json()) as View;
    const granted = await read();
    expect(granted.status).toBe('GRANTED');
    const lines = granted.data.fees.lines;
    expect(
      lines.filter((l) => l.narration === 'Lani Tui').every((l) => l.status === 'WAIVED'),
    ).toBe(true);
    expect(lines.filter((l) => l.status === 'PAID').length).toBeGreaterThan(0);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const issued = await fetch(`${portal.url}/api/evisa/visa-application/${id}/actions/issue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${officerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        version: granted.version,
        data: {
          issuance: { effectiveDate: tomorrow, expiryDate: '2099-01-31', placeOfIssue: 'Apia' },
        },
      }),
    });
    expect(issued.status, await issued.clone().text()).toBe(200);

    // The applicant reads both outcomes and finds one e-visa, their own.
    const applicant = await openWatchedPage(browser);
    await signIn(
      applicant.page,
      portal,
      APPLICANT.login,
      APPLICANT.password,
      `/visa/application/view/${id}`,
    );
    const decisions = applicant.page.getByRole('region', { name: 'Decision for each person' });
    await decisions.getByText('Refused').waitFor();
    await decisions.getByText(`Reason: ${REASON}`).waitFor();
    await decisions.getByText('Granted').waitFor();
    await decisions.getByText('C1 — Work for the sponsor only').waitFor();
    await applicant.page
      .getByRole('button', { name: /Download the e-visa/ })
      .first()
      .waitFor();
    expect(await applicant.page.getByRole('button', { name: /Download the e-visa/ }).count()).toBe(
      1,
    );
    expect(applicant.pageErrors).toEqual([]);
    expect(officer.pageErrors).toEqual([]);
    await applicant.context.close();
  });
});
