import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, createAccount, signIn } from '../support/e2e-accounts';
import { applicationsOverHttp } from '../support/http-applications';
import { accessibleInBoth, act, badge, field, panel, shot, tab } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';
import { visaApplication } from '../support/visa-data';

/** Two applicants of their own: the holder of the application and the adviser acting for them. */
const APPLICANT_ROLES = ['visa-application-submit', 'visa-application-read', 'view-profile'];
const HOLDER = {
  login: 'e2e.delegation.holder',
  password: 'Lagoon-Holder-4821!',
  firstName: 'Mele',
  lastName: 'Holder',
  roles: APPLICANT_ROLES,
};
const ADVISER = {
  login: 'e2e.delegation.adviser',
  password: 'Reef-Adviser-7390!',
  firstName: 'Tavita',
  lastName: 'Adviser',
  roles: APPLICANT_ROLES,
};
/** The grants as the visa workflow words them (workflows/visa-application.json, `delegation`). */
const FILL = 'Fill in and change the application';
const SUBMIT = 'Submit the application';
const PASSPORT = 'PD7654321';
const PREFIX = '/visa/application';
const TYPE = 'visa-application';

type Stored = {
  id: string;
  version: number;
  status: string;
  data: {
    characterQuestions: Array<Record<string, unknown>>;
    documents: Array<Record<string, unknown>>;
  };
};

/**
 * Delegated access in Chromium on the demo portal: the holder of a draft visa application lets
 * an adviser fill it in and submit it, from the panel of its screen; the adviser finds it in
 * My Library under the holder's name, fills in what is missing (the passport number) and
 * submits it, the holder's own declarations and character answers shown but not theirs to
 * change; the holder then sees it submitted and the adviser's name "on behalf of" theirs in its
 * history. The draft (declarations accepted, questions answered, files uploaded by the holder)
 * is made through the API: the form's filling is another journey's (visa-journey.test.ts).
 */
describe('an adviser acting for an applicant, in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let holderToken: string;
  let draft: Stored;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    await Promise.all([createAccount(portal, HOLDER), createAccount(portal, ADVISER)]);
    holderToken = await apiToken(portal, HOLDER.login, HOLDER.password);
    const http = applicationsOverHttp(portal.url);
    // The passport number is left for the adviser to fill in.
    const { passportNumber: _left, ...applicant } = visaApplication('VIS', 'VV30').applicant;
    const data = { ...visaApplication('VIS', 'VV30'), applicant };
    const stored = (await http.send('POST', `/api/evisa/${TYPE}`, holderToken, { data })) as Stored;
    const file = await http.uploadPdf(holderToken);
    draft = (await http.send(
      'POST',
      `/api/evisa/${TYPE}/${stored.id}/actions/update`,
      holderToken,
      {
        version: stored.version,
        data: {
          ...data,
          characterQuestions: stored.data.characterQuestions.map((q) => ({ ...q, answer: false })),
          documents: stored.data.documents.map((d) => ({ ...d, file })),
        },
      },
    )) as Stored;
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const delegates = (page: Page) =>
    page.getByRole('region', {
      name: /^(People who may act for you|Personnes pouvant agir pour vous)$/,
    });

  it('the holder lets the adviser fill in and submit the application', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, HOLDER.login, HOLDER.password, `${PREFIX}/edit/${draft.id}`);
    const region = delegates(page);
    await region
      .getByText(/^(Nobody may act for you\.|Personne ne peut agir pour vous\.)$/)
      .waitFor();
    await accessibleInBoth(page, 'delegation-panel', async () => {
      await delegates(page).getByRole('button').first().waitFor();
    });
    await shot(page, 'delegation-panel');

    await region.getByRole('button', { name: 'Add a delegate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a delegate' });
    await dialog.getByText('Your declarations stay your own', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Add the delegate' }).click();
    await dialog.getByText('Give their sign-in name or e-mail address.').waitFor();
    await dialog.getByRole('textbox', { name: /sign-in name or e-mail/ }).fill(ADVISER.login);
    await dialog.getByRole('checkbox', { name: FILL }).check();
    await dialog.getByRole('checkbox', { name: SUBMIT }).check();
    await shot(page, 'delegation-dialog');
    await dialog.getByRole('button', { name: 'Add the delegate' }).click();
    await region.getByText(`${ADVISER.login} may now act for you.`).waitFor();
    const row = region.locator(`li[data-delegate="${ADVISER.login}"]`);
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByText(/^May .+ and .+$/).waitFor();
    // Left open, it runs for the longest the workflow allows (`maxDays`).
    await row.getByText(/^This one only · until \d{2}\/\d{2}\/\d{4}$/).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the adviser finds it in My Library, fills in what is missing and submits it', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ADVISER.login, ADVISER.password, '/dashboard/my-library');
    const forHolder = page.locator(`[data-delegated-for="${HOLDER.firstName} ${HOLDER.lastName}"]`);
    await forHolder.waitFor();
    expect(await forHolder.textContent()).toBe(`For ${HOLDER.firstName} ${HOLDER.lastName}`);
    await shot(page, 'delegation-library');
    await page
      .getByRole('row')
      .filter({ has: forHolder })
      .getByRole('link', { name: /^Open/ })
      .click();

    const notice = page.locator('[data-acting-for]');
    await notice
      .getByText(`You are acting for ${HOLDER.firstName} ${HOLDER.lastName}: you may`, {
        exact: false,
      })
      .waitFor();
    // The holder's own panel is not the adviser's, nor who may pay.
    expect(await delegates(page).count()).toBe(0);
    expect(await page.locator('[data-payers]').count()).toBe(0);
    // Its next step, as for its holder: the application's edit screen.
    await page.getByRole('link', { name: 'Edit application' }).click();
    await page.waitForURL(new RegExp(`#${PREFIX}/edit/${draft.id}$`));
    await accessibleInBoth(page, 'delegate-screen', async () => {
      await page.locator('[data-acting-for]').waitFor();
    });
    await shot(page, 'delegate-screen');
    // The declarations and the character answers are the holder's: shown, not to be changed.
    await tab(page, 'Declaration');
    await panel(page).getByText('Yes', { exact: true }).first().waitFor();
    expect(await panel(page).getByRole('radio').count()).toBe(0);
    await tab(page, 'Character questions');
    await panel(page).getByText('No', { exact: true }).first().waitFor();
    expect(await panel(page).getByRole('radio').count()).toBe(0);

    await tab(page, 'Applicant');
    await field(panel(page), 'Passport number').fill(PASSPORT);
    await act(page, 'Submit');
    await expect.poll(() => page.url()).toMatch(/\/view\/[0-9a-f-]{36}$/);
    await page
      .getByTestId('confirmation')
      .getByText(/VA-\d{4}-\d{6}/)
      .waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the holder sees it submitted, by the adviser on their behalf', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, HOLDER.login, HOLDER.password, `${PREFIX}/view/${draft.id}`);
    await badge(page, 'Submitted');
    const history = page.getByRole('region', { name: 'Action history' });
    await history
      .getByText(
        `${ADVISER.firstName} ${ADVISER.lastName} on behalf of ${HOLDER.firstName} ${HOLDER.lastName}`,
      )
      .first()
      .waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
