import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { apiToken, IDENTITY_ADMIN, signIn } from '../support/e2e-accounts';
import { accessible, accessibleInBoth, shot } from '../support/journey';
import type { PortalProcess } from '../support/portal-process';
import { sharedPortal } from '../support/shared-portal';

const LOGIN = 'border-sync';

/**
 * A service account's API credentials on their own screen (specification 001, `token`):
 * the identity administrator issues them, reads the secret once in a dialog that says so, and
 * the service obtains a token with them at the identity server; new credentials are asked
 * before they replace the current ones, and revoking them ends the service's access.
 */
describe('API credentials of a service account in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  const tokenStatus = (clientId: string, secret: string) =>
    fetch(`${portal.url}/realms/portal/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    }).then((r) => r.status);

  beforeAll(async () => {
    [portal, browser] = await Promise.all([sharedPortal('demo'), launchChromium()]);
    const admin = await apiToken(portal, IDENTITY_ADMIN.login, IDENTITY_ADMIN.password);
    const created = await fetch(`${portal.url}/api/connectid/account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'create',
        data: {
          identity: { loginIdentifier: LOGIN, firstName: 'Border', lastName: 'Sync' },
          contact: { emailAddress: 'border-sync@systems.example', primaryMobileNo: '+685 7219901' },
          organisation: { userType: 'SERVICE', serviceAccountName: 'Border Control Sync' },
          access: { userGroup: 'OFFICERS', accessUnits: [], activationStatus: 'active' },
        },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('issues credentials shown once, asks before replacing them, and revokes them', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, IDENTITY_ADMIN.login, IDENTITY_ADMIN.password, '/dashboard/home');
    // The account offers its API credentials as a next step of its own.
    await page.goto(`${portal.url}/#/connectid/accounts/view/${LOGIN}`);
    await page
      .getByRole('navigation', { name: 'Next steps:' })
      .getByRole('link', { name: 'API credentials' })
      .click();
    await page.waitForURL(new RegExp(`#/connectid/accounts/api-credentials/${LOGIN}$`));
    const section = page.getByRole('region', { name: 'API credentials' });
    await section.getByText('No API credentials have been issued.').waitFor();
    await accessibleInBoth(page, 'api-credentials-none', (p) =>
      p.getByRole('heading', { name: /API credentials|Identifiants d’API/ }).waitFor(),
    );
    await shot(page, 'api-credentials-none');

    await section.getByRole('button', { name: 'Issue API credentials' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API credentials' });
    await dialog.getByText('It is shown only this once').waitFor();
    const codes = await dialog.locator('pre').allTextContents();
    const [clientId = '', secret = ''] = codes;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codes[2]).toBe(`${portal.url}/realms/portal/protocol/openid-connect/token`);
    await dialog.getByRole('button', { name: 'Copy Client secret' }).waitFor();
    // The dialog has faded in: axe measures its colours as they stay, not half way.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => a))),
    );
    await accessible(page, 'api-credentials-issued');
    await shot(page, 'api-credentials-issued');
    await dialog.getByRole('button', { name: 'I have copied the secret' }).click();
    await section.getByText(/^Active: issued on \d{2}\/\d{2}\/\d{4}/).waitFor();
    // Once closed, the secret is on the page no more.
    expect(await page.content()).not.toContain(secret);
    expect(await tokenStatus(clientId, secret)).toBe(200);

    // Replacing active credentials is asked first; going back keeps them.
    await section.getByRole('button', { name: 'Issue new API credentials' }).click();
    const confirm = page.getByRole('dialog', { name: 'Issue new API credentials' });
    await confirm.getByText(/replace the current ones/).waitFor();
    await confirm.getByRole('button', { name: 'Back' }).click();
    expect(await tokenStatus(clientId, secret)).toBe(200);

    await section.getByRole('button', { name: 'Revoke API credentials' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke API credentials' });
    await revoke.getByRole('button', { name: 'Revoke API credentials' }).click();
    await section.getByText(/^The API credentials are revoked/).waitFor();
    await section.getByText(/^None active: the last ones were revoked on/).waitFor();
    expect(await tokenStatus(clientId, secret)).toBe(401);
    await shot(page, 'api-credentials-revoked');
    // Issued and revoked, each a line of the account's history naming the administrator.
    await page.reload();
    const history = page.getByRole('region', { name: 'Action history' });
    await history.getByRole('cell', { name: 'API credentials revoked' }).waitFor();
    expect(await history.getByRole('cell', { name: 'API credentials issued' }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
