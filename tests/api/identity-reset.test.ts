import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases';
import { CodeFlow, formAction } from '../support/identity-client';
import { startIdentityServer, type IdentityHarness } from '../support/identity-server';

/**
 * The sign-in page's links and "forgot your password?": a code by SMS (or e-mail), the same
 * answers whether or not the username exists, limited, single-use and expiring codes, the
 * account's policy, and back to the sign-in with the new password.
 */
const messageOf = (html: string) => /<div class="alert error"[^>]*>(.*?)<\/div>/s.exec(html)?.[1];
const hrefOf = (html: string, id: string) =>
  new RegExp(`<a href="([^"]+)" id="${id}"`).exec(html)?.[1]?.replaceAll('&amp;', '&');

describe.each(databaseKinds())('identity server: links and password reset (%s)', (kind) => {
  let server: IdentityHarness;
  let db: Kysely<unknown>;

  beforeAll(async () => {
    server = await startIdentityServer(kind, { lockoutAttempts: 3, lockoutMinutes: 15 });
    db = server.handle.db as unknown as Kysely<unknown>;
    for (const [id, login, phone] of [
      ['r-1', 'rosa', '+685 7220001'],
      ['r-2', 'rita', '+685 7220002'],
      ['r-3', 'remy', '+685 7220003'],
    ] as const) {
      server.directory.add({ id, loginIdentifier: login, phoneNumber: phone });
      await server.credentials.setPassword(id, login, `${login} Old pass 1!`, undefined);
    }
    server.directory.policies.set('r-1', { code: 'STAFF', minimumLength: 12, minimumDigits: 2 });
  });
  afterAll(async () => server?.close());

  /** The last code texted to a number (the outbox keeps SMS when no provider is set). */
  const lastCode = async (phone: string) => {
    const { rows } = await sql<{ body: string }>`
      select body from outbox where channel = 'sms' and recipient = ${phone}
      order by created_at desc limit 1`.execute(db);
    return /\b(\d{6})\b/.exec(rows[0]?.body ?? '')?.[1];
  };
  /** The code page's second form: "send a new code", back to the first step. */
  const restart = async (flow: CodeFlow) => {
    const action = new URL(formAction(flow.page), flow.pageUrl).href;
    const response = await flow.browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ step: 'restart', lang: 'en' }),
    });
    expect(response.status).toBe(303);
    const page = await flow.browser.fetch(
      new URL(response.headers.get('location') as string, action).href,
    );
    flow.page = await page.text();
    flow.pageUrl = action;
  };
  const openReset = async (flow: CodeFlow) => {
    const href = hrefOf(flow.page, 'forgot-password');
    expect(href).toBeTruthy();
    const response = await flow.browser.fetch(new URL(href as string, flow.pageUrl).href);
    flow.page = await response.text();
    flow.pageUrl = new URL(href as string, flow.pageUrl).href;
    flow.status = response.status;
  };

  it('links the sign-in page to the reset, the registration and the portal home, in both languages', async () => {
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    expect(hrefOf(flow.page, 'forgot-password')).toMatch(/\/login-actions\/[^/]+\/reset\?lang=en$/);
    expect(hrefOf(flow.page, 'register')).toBe(`${server.publicUrl}/#/register`);
    expect(hrefOf(flow.page, 'portal-home')).toBe(`${server.publicUrl}/`);
    expect(flow.page).toContain('Forgot your password?');
    const fr = new CodeFlow(server.publicUrl);
    await fr.start({ ui_locales: 'fr' });
    expect(fr.page).toContain('Mot de passe oublié ?');
    expect(fr.page).toContain('Créez un compte');
    expect(hrefOf(fr.page, 'forgot-password')).toMatch(/\/reset\?lang=fr$/);
    // No registration link when self-registration is off.
    server.config.selfRegistration = false;
    try {
      const closed = new CodeFlow(server.publicUrl);
      await closed.start();
      expect(hrefOf(closed.page, 'register')).toBeUndefined();
      expect(hrefOf(closed.page, 'portal-home')).toBe(`${server.publicUrl}/`);
    } finally {
      server.config.selfRegistration = true;
    }
    await openReset(fr);
    expect(fr.page).toContain('<html lang="fr">');
    expect(fr.page).toContain('Réinitialiser votre mot de passe');
    expect(fr.page).toContain('par SMS');
  });

  it('resets a password with a texted code under the account policy, then signs in with it', async () => {
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await openReset(flow);
    expect(flow.page).toContain('Reset your password');
    await flow.submit({ username: 'Rosa' });
    expect(flow.page).toContain('we have sent a 6-digit code');
    const code = await lastCode('+6857220001');
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '111111' ? '222222' : '111111';
    await flow.submit({ code: wrong });
    expect(flow.status).toBe(400);
    expect(messageOf(flow.page)).toBe('This code is not right. Check it and try again.');
    expect(flow.page).toContain('aria-invalid="true"');
    await flow.submit({ code: code as string });
    expect(flow.page).toContain('Choose a new password');
    const rules = /<div class="rules" id="password-rules">(.*?)<\/div>/s.exec(flow.page)?.[1];
    expect(rules).toContain('have at least 12 characters');
    expect(rules).toContain('contain at least 2 digits');
    await flow.submit({ passwordNew: 'short 1', passwordConfirm: 'short 1' });
    expect(messageOf(flow.page)).toContain('does not meet these rules');
    await flow.submit({ passwordNew: 'Rosa new pass 42', passwordConfirm: 'Rosa new pass 43' });
    expect(messageOf(flow.page)).toBe('The two passwords do not match.');
    await flow.submit({ passwordNew: 'Rosa new pass 42', passwordConfirm: 'Rosa new pass 42' });
    // Back on the sign-in page of the same interaction, told so, the username filled in.
    expect(flow.page).toContain('Your password has been changed.');
    expect(flow.page).toContain('value="Rosa"');
    await flow.submit({ username: 'rosa', password: 'rosa Old pass 1!' });
    expect(messageOf(flow.page)).toBe('Invalid username or password.');
    await flow.submit({ username: 'rosa', password: 'Rosa new pass 42' });
    expect(flow.callback?.get('code')).toBeTruthy();
    expect((await flow.exchange()).status).toBe(200);
    // The code was used up.
    const { rows } = await sql<{ used: boolean }>`
      select used_at is not null as used from challenge
      where destination = '+6857220001' order by created_at desc limit 1`.execute(db);
    expect(rows[0]?.used).toBe(true);
  });

  it('answers the same for an unknown username, and locks its codes the same way', async () => {
    const known = new CodeFlow(server.publicUrl);
    await known.start();
    await openReset(known);
    await known.submit({ username: 'rita' });
    const unknown = new CodeFlow(server.publicUrl);
    await unknown.start();
    await openReset(unknown);
    await unknown.submit({ username: 'nobody.here' });
    expect(unknown.status).toBe(known.status);
    const strip = (html: string) =>
      html
        .replace(/login-actions\/[^/"?]+/g, 'login-actions/UID')
        .replaceAll('rita', 'NAME')
        .replaceAll('nobody.here', 'NAME');
    expect(strip(unknown.page)).toBe(strip(known.page));
    const code = await lastCode('+6857220002');
    const wrong = code === '111111' ? '222222' : '111111';
    for (const flow of [known, unknown]) {
      for (let i = 0; i < 5; i++) {
        await flow.submit({ code: wrong });
        expect(messageOf(flow.page)).toBe('This code is not right. Check it and try again.');
      }
      await flow.submit({ code: wrong });
      expect(messageOf(flow.page)).toBe('Too many wrong codes. Ask for a new one.');
      // Back to the first step.
      expect(flow.page).toContain('name="step" value="request"');
    }
    // The real code took every try it allows: even the right one is refused now.
    const { rows } = await sql<{ attempts: number }>`
      select attempts from challenge where destination = '+6857220002'`.execute(db);
    expect(rows.map((r) => Number(r.attempts))).toEqual([5]);
  });

  it('refuses an expired code and limits requests per username, known or not', async () => {
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await openReset(flow);
    await flow.submit({ username: 'remy' });
    const code = await lastCode('+6857220003');
    await sql`update challenge set expires_at = now() - interval '1 minute'
      where destination = '+6857220003'`.execute(db);
    await flow.submit({ code: code as string });
    expect(messageOf(flow.page)).toBe(
      'This code has expired or has already been used. Ask for a new one.',
    );
    expect(await server.credentials.verify('r-3', 'remy Old pass 1!')).toBe('ok');

    for (const login of ['remy', 'no.such.person']) {
      const limited = new CodeFlow(server.publicUrl);
      await limited.start();
      await openReset(limited);
      // remy asked once above: two more are allowed; an unknown name gets the same count.
      const allowed = login === 'remy' ? 2 : 3;
      for (let i = 0; i < allowed; i++) {
        await limited.submit({ username: login });
        expect(limited.status).toBe(200);
        expect(limited.page).toContain('name="step" value="code"');
        await restart(limited);
      }
      await limited.submit({ username: login });
      expect(limited.status).toBe(429);
      expect(messageOf(limited.page)).toBe(
        'Too many codes have been asked for. Please wait 15 minutes and try again.',
      );
    }
  });
});
