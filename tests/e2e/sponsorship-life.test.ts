import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, signIn } from '../support/e2e-accounts';
import { applicationsOverHttp, payOnGatewayPage } from '../support/http-applications';
import { panel, tab } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';
import { answerAll, sponsorApplication } from '../support/sponsor-data';

/** Demo accounts the portal starts with (seeds/connectid.json). */
const SPONSOR = { login: 'sponsor.org', password: 'Lagoon-Trade-5629' };
const VERIFIER = { login: 'verifier', password: 'Harbour-Light-9264!' };
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041' };
const PREFIX = '/sponsor/application';
const TYPE = 'sponsor-application';

type View = {
  id: string;
  version: number;
  status: string;
  data: Record<string, unknown> & { header?: { reference?: string; expiryDate?: string } };
};

/**
 * A sponsorship's life in Chromium on the demo portal: the sponsor renews it from its screen
 * before it expires (the renewal, granted, leaves the sponsorship its number and a later
 * expiry); once an officer revokes it, a visa applicant's form refuses its number. What the
 * browser does not need to show (payments, the officers' grants) is prepared through the API.
 */
describe('a sponsorship renewed, then revoked, in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let sponsor: string;
  let verifier: string;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    [sponsor, verifier] = await Promise.all([
      apiToken(portal, SPONSOR.login, SPONSOR.password),
      apiToken(portal, VERIFIER.login, VERIFIER.password),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const http = () => applicationsOverHttp(portal.url);
  const send = async (method: 'GET' | 'POST', path: string, token: string, body?: unknown) =>
    (await http().send(method, `/api/evisa/${TYPE}${path}`, token, body)) as View;

  /** A stored application of the sponsor submitted, paid on the gateway and granted. */
  async function granted(stored: View, period: string): Promise<View> {
    const { fees: _fees, ...given } = stored.data;
    const file = await http().uploadPdf(sponsor);
    const filled = answerAll({ ...sponsorApplication('SPORG'), ...given }, file);
    const submitted = await send('POST', `/${stored.id}/actions/submit`, sponsor, {
      version: stored.version,
      data: filled,
    });
    await send('POST', `/${stored.id}/actions/initiate`, sponsor, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    const purchase = (await http().send(
      'POST',
      `/api/payments/${TYPE}/${stored.id}/purchase`,
      sponsor,
    )) as { redirectUrl: string };
    await payOnGatewayPage(purchase.redirectUrl, 'Lagoon Trading');
    const paid = await send('GET', `/${stored.id}`, verifier);
    return send('POST', `/${stored.id}/actions/grant`, verifier, {
      version: paid.version,
      data: { verification: { period } },
    });
  }

  it('renews from its screen keeping its number; revoked, a visa form refuses it', async () => {
    const sponsorship = await granted(
      await send('POST', '', sponsor, { data: sponsorApplication('SPORG') }),
      'SPO3Y',
    );
    const reference = sponsorship.data.header!.reference!;
    const expiry = sponsorship.data.header!.expiryDate!;

    // The sponsor starts the renewal from the granted sponsorship's screen.
    const { page, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, SPONSOR.login, SPONSOR.password, `${PREFIX}/view/${sponsorship.id}`);
    await page
      .getByRole('heading', { name: 'Visa applications naming this sponsorship' })
      .waitFor();
    await page.getByRole('button', { name: 'Renew this sponsorship' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/keeps its number/).waitFor();
    await dialog.getByRole('button', { name: 'Renew this sponsorship' }).click();
    await page.waitForURL(new RegExp(`#${PREFIX}/edit/[0-9a-f-]{36}$`));
    const renewalId = page.url().split('/').pop()!;
    expect(renewalId).not.toBe(sponsorship.id);

    // The renewal, prefilled from the sponsorship, is submitted, paid and granted for a year.
    const renewal = await send('GET', `/${renewalId}`, sponsor);
    expect(renewal.data.header).toMatchObject({ renews: reference });
    expect((await granted(renewal, 'SPO1Y')).status).toBe('RENEWAL GRANTED');

    // The sponsorship keeps its number; its validity now ends a year after it used to.
    await page.goto(`${portal.url}/#${PREFIX}/view/${sponsorship.id}`);
    await tab(page, 'Sponsorship details');
    await panel(page).getByText(reference).first().waitFor();
    const renewed = await send('GET', `/${sponsorship.id}`, sponsor);
    expect(renewed.status).toBe('GRANTED');
    expect(renewed.data.header?.reference).toBe(reference);
    expect(renewed.data.header!.expiryDate! > expiry).toBe(true);
    const [y, m, d] = renewed.data.header!.expiryDate!.split('-');
    await panel(page).getByText(`${d}/${m}/${y}`).first().waitFor();
    expect(pageErrors).toEqual([]);

    // An officer revokes it; a visa applicant naming it is told at once.
    await send('POST', `/${sponsorship.id}/actions/revoke`, verifier, {
      version: renewed.version,
      notes: 'False declarations',
    });
    const applicant = await openWatchedPage(browser);
    await signIn(
      applicant.page,
      portal,
      APPLICANT.login,
      APPLICANT.password,
      '/visa/application/new',
    );
    await applicant.page.getByRole('tab', { name: /^Sponsorship/ }).click();
    await applicant.page
      .getByRole('radiogroup', { name: /^Are you sponsored/ })
      .first()
      .getByLabel('Yes', { exact: true })
      .check();
    await applicant.page.getByLabel(/^Sponsor reference number/).fill(reference);
    await applicant.page.getByText('Invalid Sponsor reference').first().waitFor();
    expect(await applicant.page.getByLabel(/^Sponsor name/).inputValue()).toBe('');
    expect(applicant.pageErrors).toEqual([]);
  });
});
