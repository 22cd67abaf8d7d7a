import { decodeJwt } from 'jose';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem } from '../../src/server/http/api-error';
import { databaseKinds } from '../support/databases';
import { CodeFlow, nextCode } from '../support/identity-client';
import { startIdentityServer, type IdentityHarness } from '../support/identity-server';

const messageOf = (html: string) => /<div class="alert error"[^>]*>(.*?)<\/div>/s.exec(html)?.[1];

describe.each(databaseKinds())('identity server: sign-in pages (%s)', (kind) => {
  let server: IdentityHarness;

  beforeAll(async () => {
    server = await startIdentityServer(kind, { lockoutAttempts: 3, lockoutMinutes: 15 });
    for (const [id, login] of [
      ['b-1', 'bob'],
      ['c-1', 'carol'],
      ['d-1', 'dave'],
      ['e-1', 'erin'],
      ['f-1', 'frank'],
      ['g-1', 'grace'],
    ] as const) {
      server.directory.add({ id, loginIdentifier: login, roles: ['role-a'] });
      await server.credentials.setPassword(
        id,
        login,
        `${login.toUpperCase()} pass 123!`,
        undefined,
      );
    }
  });
  afterAll(async () => server?.close());

  it('gives the same message for a wrong password and an unknown user', async () => {
    const wrong = new CodeFlow(server.publicUrl);
    await wrong.start();
    await wrong.submit({ username: 'bob', password: 'not it' });
    const unknown = new CodeFlow(server.publicUrl);
    await unknown.start();
    await unknown.submit({ username: 'nobody-here', password: 'not it' });
    expect(wrong.status).toBe(unknown.status);
    expect(messageOf(wrong.page)).toBe('Invalid username or password.');
    expect(messageOf(unknown.page)).toBe(messageOf(wrong.page));
    expect(wrong.callback).toBeUndefined();
    // The right password still works (one failure is below the limit).
    await wrong.submit({ username: 'bob', password: 'BOB pass 123!' });
    expect(wrong.callback?.get('code')).toBeTruthy();
  });

  it('shows the sign-in page in French from ui_locales or Accept-Language', async () => {
    const byParam = new CodeFlow(server.publicUrl);
    await byParam.start({ ui_locales: 'fr' });
    expect(byParam.page).toContain('<html lang="fr">');
    expect(byParam.page).toContain('Connectez-vous à votre compte');
    await byParam.submit({ username: 'nobody', password: 'x' });
    expect(messageOf(byParam.page)).toBe('Nom d&#39;utilisateur ou mot de passe invalide.');
    const byHeader = new CodeFlow(server.publicUrl);
    await byHeader.start({}, { 'accept-language': 'fr-CA,fr;q=0.9' });
    expect(byHeader.page).toContain('Mot de passe');
  });

  it('locks the account after too many failures, with a clear message', async () => {
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await flow.submit({ username: 'carol', password: 'wrong 1' });
    await flow.submit({ username: 'carol', password: 'wrong 2' });
    expect(messageOf(flow.page)).toBe('Invalid username or password.');
    await flow.submit({ username: 'carol', password: 'wrong 3' });
    expect(messageOf(flow.page)).toContain('locked for 15 minutes');
    // Even the right password is refused while the lock lasts.
    await flow.submit({ username: 'carol', password: 'CAROL pass 123!' });
    expect(messageOf(flow.page)).toContain('locked for 15 minutes');
    expect(flow.callback).toBeUndefined();
    expect((await server.credentials.status('c-1')).lockedUntil).not.toBeNull();
    await server.credentials.unlock('c-1');
    await flow.submit({ username: 'carol', password: 'CAROL pass 123!' });
    expect(flow.callback?.get('code')).toBeTruthy();
  });

  it('makes a flagged account change its password, enforcing the policy', async () => {
    server.directory.policies.set('d-1', {
      code: 'STRICT',
      minimumLength: 10,
      minimumDigits: 2,
      minimumUppercase: 1,
      allowUsernameInPassword: false,
    });
    await server.credentials.forcePasswordChange('d-1', true);
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await flow.submit({ username: 'dave', password: 'DAVE pass 123!' });
    expect(flow.callback).toBeUndefined();
    expect(flow.page).toContain('You need to change your password');
    await flow.submit({ passwordNew: 'short', passwordConfirm: 'short' });
    expect(messageOf(flow.page)).toContain('does not meet these rules');
    expect(messageOf(flow.page)).toContain('have at least 10 characters');
    expect(messageOf(flow.page)).toContain('contain at least 2 digits');
    await flow.submit({ passwordNew: 'MyDave password 99', passwordConfirm: 'MyDave password 99' });
    expect(messageOf(flow.page)).toContain('not contain your username');
    await flow.submit({ passwordNew: 'Abcdefgh 77', passwordConfirm: 'Abcdefgh 78' });
    expect(flow.page).toContain('do not match');
    await flow.submit({ passwordNew: 'Abcdefgh 77', passwordConfirm: 'Abcdefgh 77' });
    expect(flow.callback?.get('code')).toBeTruthy();
    expect((await flow.exchange()).status).toBe(200);
    const status = await server.credentials.status('d-1');
    expect(status.forcePasswordChange).toBe(false);
    expect(await server.credentials.verify('d-1', 'Abcdefgh 77')).toBe('ok');
  });

  it('enrols a forced second factor, then asks for codes at every sign-in', async () => {
    await server.credentials.forceTotp('e-1', true);
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await flow.submit({ username: 'erin', password: 'ERIN pass 123!' });
    expect(flow.page).toContain('Set up two-factor authentication');
    const secret = /<code class="secret" id="totp-secret">([A-Z2-7]+)<\/code>/.exec(flow.page)?.[1];
    expect(secret).toBeTruthy();
    expect(flow.page).toMatch(/otpauth:\/\/totp\/[^<]*secret=/);
    await flow.submit({ otp: '000000' });
    expect(messageOf(flow.page)).toBe('The code is not valid. Please try again.');
    // The same secret is shown again after a wrong code.
    expect(flow.page).toContain(secret as string);
    const enrolmentCode = await generate({ secret: secret as string });
    await flow.submit({ otp: enrolmentCode });
    expect(flow.callback?.get('code')).toBeTruthy();
    const tokens = await flow.exchange();
    expect(decodeJwt(tokens.body.access_token).sub).toBe('e-1');
    expect((await server.credentials.status('e-1')).totpEnabled).toBe(true);

    const next = new CodeFlow(server.publicUrl);
    await next.start();
    await next.submit({ username: 'erin', password: 'ERIN pass 123!' });
    expect(next.page).toContain('Enter the 6-digit code');
    expect(next.callback).toBeUndefined();
    await next.submit({ otp: '123456' });
    expect(messageOf(next.page)).toBe('The code is not valid. Please try again.');
    // The enrolment's code, still within its 30 seconds, is used up: a code is good once.
    await next.submit({ otp: enrolmentCode });
    expect(messageOf(next.page)).toBe('The code is not valid. Please try again.');
    await next.submit({ otp: await nextCode(secret as string) });
    expect(next.callback?.get('code')).toBeTruthy();
  });

  it("honours the administrator's flags on the account: a new password, then a second factor, before any token", async () => {
    server.directory.policies.set('g-1', { code: 'STAFF', minimumLength: 12, minimumDigits: 1 });
    server.directory.flags.set('g-1', { forcePasswordChange: true, forceTotp: true });
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await flow.submit({ username: 'grace', password: 'GRACE pass 123!' });
    expect(flow.callback).toBeUndefined();
    expect(flow.page).toContain('You need to change your password');
    // The group's rules are on the page before anything is submitted.
    const rules = /<div class="rules" id="password-rules">(.*?)<\/div>/s.exec(flow.page)?.[1];
    expect(rules).toContain('have at least 12 characters');
    expect(rules).toContain('contain at least 1 digit<');
    expect(rules).toContain('be different from your current password');
    expect(flow.page).toContain('aria-describedby="password-rules"');
    // Keeping the current password does not satisfy a forced change.
    await flow.submit({ passwordNew: 'GRACE pass 123!', passwordConfirm: 'GRACE pass 123!' });
    expect(messageOf(flow.page)).toBe('The new password must be different from the current one.');
    expect(flow.callback).toBeUndefined();
    await flow.submit({ passwordNew: 'Grace new pass 7', passwordConfirm: 'Grace new pass 7' });
    // Then the second factor, with its QR code and its secret, still without a token.
    expect(flow.callback).toBeUndefined();
    expect(flow.page).toContain('Set up two-factor authentication');
    expect(flow.page).toMatch(/<img class="qr" id="totp-qr"[^>]+src="data:image\/svg\+xml;base64,/);
    expect(flow.page).toContain('alt="QR code to add grace to an authenticator application"');
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(flow.page)?.[1] as string;
    await flow.submit({ otp: await generate({ secret }) });
    expect(flow.callback?.get('code')).toBeTruthy();
    expect((await flow.exchange()).status).toBe(200);
    expect(await server.directory.securityFlags('g-1')).toEqual({
      forcePasswordChange: false,
      forceTotp: false,
    });
    expect(await server.credentials.verify('g-1', 'Grace new pass 7')).toBe('ok');

    // Next time: the password and the code, no change asked.
    const next = new CodeFlow(server.publicUrl);
    await next.start();
    await next.submit({ username: 'grace', password: 'Grace new pass 7' });
    expect(next.page).toContain('Enter the 6-digit code');
    await next.submit({ otp: await nextCode(secret) });
    expect(next.callback?.get('code')).toBeTruthy();
  });

  it('shows the change-password rules in French, singular and plural', async () => {
    server.directory.policies.set('f-1', { code: 'P', minimumLength: 9, minimumUppercase: 1 });
    server.directory.flags.set('f-1', { forcePasswordChange: true, forceTotp: false });
    const flow = new CodeFlow(server.publicUrl);
    await flow.start({ ui_locales: 'fr' });
    await flow.submit({ username: 'frank', password: 'FRANK pass 123!' });
    expect(flow.page).toContain('<html lang="fr">');
    expect(flow.page).toContain('Vous devez changer votre mot de passe');
    expect(flow.page).toContain('comporter au moins 9 caractères');
    expect(flow.page).toContain('contenir au moins 1 lettre majuscule<');
    await flow.submit({ passwordNew: 'abc', passwordConfirm: 'abc' });
    expect(messageOf(flow.page)).toContain('ne respecte pas ces règles');
    server.directory.flags.delete('f-1');
    server.directory.policies.delete('f-1');
  });

  it('sends back to the password after too many wrong codes', async () => {
    const { secret } = await server.credentials.enrolTotp('f-1', 'frank');
    expect(await server.credentials.confirmTotp('f-1', await generate({ secret }))).toBe(true);
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await flow.submit({ username: 'frank', password: 'FRANK pass 123!' });
    for (let i = 0; i < 3; i++) await flow.submit({ otp: '000000' });
    expect(flow.page).toContain('name="password"');
    expect(flow.callback).toBeUndefined();
  });

  it('refuses a sign-in page without its interaction cookie', async () => {
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    const response = await fetch(flow.pageUrl);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('expired');
  });
  it('refuses a password that breaks the policy with one field problem per rule', async () => {
    const error = await server.credentials
      .setPassword('b-1', 'bob', 'bob', {
        code: 'P',
        minimumLength: 8,
        allowUsernameInPassword: false,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProblem);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: [
        { path: '/password', rule: 'minimumLength', params: { limit: 8 } },
        { path: '/password', rule: 'usernameInPassword', params: {} },
      ],
    });
    expect(await server.credentials.verify('b-1', 'BOB pass 123!')).toBe('ok');
    const row = await server.db
      .selectFrom('credential')
      .select('password_hash')
      .where('account_id', '=', 'b-1')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('tells when a password has expired under the policy', async () => {
    const policy = { code: 'P', passwordExpiryInDays: 30 };
    expect(await server.credentials.passwordExpired('b-1', policy)).toBe(false);
    await server.db
      .updateTable('credential')
      .set({ password_changed_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('account_id', '=', 'b-1')
      .execute();
    expect(await server.credentials.passwordExpired('b-1', policy)).toBe(true);
    expect(await server.credentials.passwordExpired('b-1', { code: 'P' })).toBe(false);
    server.directory.policies.set('b-1', policy);
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await flow.submit({ username: 'bob', password: 'BOB pass 123!' });
    expect(flow.page).toContain('Your password has expired');
    await flow.submit({ passwordNew: 'Fresh pass 456!', passwordConfirm: 'Fresh pass 456!' });
    expect(flow.callback?.get('code')).toBeTruthy();
    expect(await server.credentials.passwordExpired('b-1', policy)).toBe(false);
  });
});
