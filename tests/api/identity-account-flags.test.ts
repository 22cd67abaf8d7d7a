import { decodeJwt } from 'jose';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentAccountDirectory } from '../../src/modules/connectid/server/directory';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { CodeFlow, nextCode } from '../support/identity-client';
import { freePort } from '../support/identity-server';

/**
 * The whole chain of issue 14's point 4: the identity administrator's "force password change"
 * and "force two-factor set-up" actions on an account (the account workflow), then a real
 * sign-in through the built-in provider, which must ask for both before any code is issued,
 * then clears the account's flags (a new version with a history line).
 */
describe('identity server: the administrator forces a new password and 2FA', () => {
  let api: ApiHarness;
  let publicUrl: string;
  let directory: DocumentAccountDirectory;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    api = await startApiServer('pglite', { publicUrl });
    await api.server.listen({ port, host: '127.0.0.1' });
    directory = new DocumentAccountDirectory(api.server.database.db, api.server.definitions);
    // The whole portal with its demo accounts: slow to start on a loaded machine.
  }, 300_000);
  afterAll(async () => api?.close());

  it('asks the applicant for a new password, then a second factor, before any token', async () => {
    const admin = await api.issuer.token({
      sub: 'idadmin-test',
      groups: ['search', 'read', 'update', 'security'].map((s) => `connectid-account-${s}`),
    });
    const applicant = await directory.findByLogin('applicant');
    expect(applicant).toBeDefined();
    const id = applicant?.id as string;
    const base = `/api/connectid/account/${id}`;
    for (const action of ['force-password-change', 'force-two-factor']) {
      const doc = (await api.call('GET', base, { token: admin })).json();
      const done = await api.call('POST', `${base}/actions/${action}`, {
        token: admin,
        body: { version: doc.version },
      });
      expect(done.statusCode, done.body).toBe(200);
    }
    expect(await directory.securityFlags(id)).toEqual({
      forcePasswordChange: true,
      forceTotp: true,
    });

    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: 'applicant', password: 'Palm-Breeze-2041' });
    expect(flow.callback).toBeUndefined();
    expect(flow.page).toContain('You need to change your password');
    // The group's policy is shown before submitting (the PUBLIC group's DEFAULT policy).
    expect(flow.page).toMatch(
      /<div class="rules" id="password-rules">.*have at least \d+ characters/s,
    );
    await flow.submit({ passwordNew: 'Reef-Lantern-5083', passwordConfirm: 'Reef-Lantern-5083' });
    expect(flow.callback).toBeUndefined();
    expect(flow.page).toContain('Set up two-factor authentication');
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(flow.page)?.[1] as string;
    await flow.submit({ otp: await generate({ secret }) });
    expect(flow.callback?.get('code')).toBeTruthy();
    const tokens = await flow.exchange();
    expect(tokens.status).toBe(200);
    expect(decodeJwt(tokens.body.access_token).sub).toBe(id);

    expect(await directory.securityFlags(id)).toEqual({
      forcePasswordChange: false,
      forceTotp: false,
    });
    const history = (await api.call('GET', base, { token: admin })).json();
    expect(history.data.security).toEqual({ forcePasswordChange: false, forceTotp: false });
    const { rows } = await api.tables
      .selectFrom('document_history')
      .select('action')
      .where('document_id', '=', id)
      .orderBy('version')
      .execute()
      .then((r) => ({ rows: r }));
    expect(rows.map((r) => r.action).slice(-2)).toEqual([
      'password-changed',
      'two-factor-enrolled',
    ]);

    // The next sign-in asks the new password and a code, nothing more.
    const next = new CodeFlow(publicUrl);
    await next.start();
    await next.submit({ username: 'applicant', password: 'Reef-Lantern-5083' });
    expect(next.page).toContain('Enter the 6-digit code');
    // The code of the next 30 seconds: the enrolment's own is used up.
    await next.submit({ otp: await nextCode(secret) });
    expect(next.callback?.get('code')).toBeTruthy();
  });

  it('clears a forced change when the person changes their password from the profile', async () => {
    const admin = await api.issuer.token({
      sub: 'idadmin-test',
      groups: ['search', 'read', 'security'].map((s) => `connectid-account-${s}`),
    });
    const sponsor = (await directory.findByLogin('sponsor'))?.id as string;
    const base = `/api/connectid/account/${sponsor}`;
    const doc = (await api.call('GET', base, { token: admin })).json();
    await api.call('POST', `${base}/actions/force-password-change`, {
      token: admin,
      body: { version: doc.version },
    });
    expect((await directory.securityFlags(sponsor))?.forcePasswordChange).toBe(true);
    const own = await api.issuer.token({ sub: sponsor, groups: [] });
    const changed = await api.call('POST', '/api/connectid/profile/password', {
      token: own,
      body: { currentPassword: 'Coral-Reef-3187', newPassword: 'Tide-Pool-Lantern-9' },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await directory.securityFlags(sponsor))?.forcePasswordChange).toBe(false);
  });

  // Decided (docs/security.md): a wrong current password on the profile's change-password
  // route is a failed password like a failed sign-in, as Keycloak's account console counts it,
  // so a stolen session cannot try passwords without limit.
  it('counts wrong current passwords of the change-password route toward the lockout', async () => {
    const agent = (await directory.findByLogin('agent'))?.id as string;
    const own = await api.issuer.token({ sub: agent, groups: [] });
    const change = (currentPassword: string) =>
      api.call('POST', '/api/connectid/profile/password', {
        token: own,
        headers: { locale: 'fr' },
        body: { currentPassword, newPassword: 'Trade-Wind-Lantern-7' },
      });
    // LOCKOUT_ATTEMPTS (5): four refusals naming the field, the fifth locks the account.
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const wrong = await change(`Not-It-${attempt}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.fields[0]).toMatchObject({
        path: '/currentPassword',
        message: "Le mot de passe actuel n'est pas correct",
      });
    }
    const locked = await change('Not-It-5');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toBe(
      "Trop d'échecs : le compte est bloqué pendant un moment",
    );
    // Locked for a while, the right password too, on this route and at sign-in.
    expect((await change('Trade-Wind-7453')).statusCode).toBe(429);
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: 'agent', password: 'Trade-Wind-7453' });
    expect(flow.callback).toBeUndefined();
    expect(flow.page).toContain('Your account is locked for');
    // Nothing changed: the password is still the old one once the lock is lifted.
    await api.server.database.db
      .updateTable('credential' as never)
      .set({ locked_until: null } as never)
      .execute();
    const after = new CodeFlow(publicUrl);
    await after.start();
    await after.submit({ username: 'agent', password: 'Trade-Wind-7453' });
    expect(after.callback?.get('code')).toBeTruthy();
  });
});
