import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config';
import { CredentialStore } from '../../src/server/identity/credentials';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { CodeFlow } from '../support/identity-client';
import { freePort } from '../support/identity-server';

const LIMIT = 10;
const messageOf = (page: string) => /role="alert"[^>]*>([^<]*)</.exec(page)?.[1]?.trim() ?? '';

/**
 * Brute force across accounts (ASVS 5.0 V6.3.1): one client address trying many logins is
 * blocked after the configured number of failures, whichever logins it tries, real or not, and
 * even with a right password once blocked; and an account's own lock lasts longer each time,
 * as Keycloak's brute-force detection waits.
 */
describe.each(databaseKinds())('sign-in throttling on %s', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const base = configFromEnv({});
    api = await startApiServer(kind, {
      publicUrl,
      demoData: true,
      identity: {
        ...base.identity,
        addressThrottle: {
          failures: LIMIT,
          windowMinutes: 15,
          blockMinutes: 5,
          maxBlockMinutes: 60,
        },
      },
    });
    await api.server.listen({ port, host: '127.0.0.1' });
  }, 300_000);
  afterAll(async () => api?.close());

  it('blocks an address after the configured failures spread over 50 logins', async () => {
    const logins = [
      'applicant',
      'verifier',
      'validator',
      ...Array.from({ length: 47 }, (_, i) => `nobody-${i}`),
    ];
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      await flow.submit({ username: logins[attempt % 50]!, password: 'Wrong-Guess-0000' });
      statuses.push(flow.status);
    }
    expect(statuses.slice(0, LIMIT - 1)).toEqual(Array(LIMIT - 1).fill(401));
    expect(statuses.slice(LIMIT - 1)).toEqual(Array(100 - LIMIT + 1).fill(429));
    expect(messageOf(flow.page)).toMatch(
      /^Too many failed sign-in attempts from your network\. Please try again in \d+ minutes\.$/,
    );
    // Blocked, the right password gets nowhere either.
    await flow.submit({ username: 'applicant', password: 'Palm-Breeze-2041' });
    expect(flow.status).toBe(429);
    expect(flow.callback).toBeUndefined();
  });

  it('locks an account for longer each time it is locked again', async () => {
    const credentials = new CredentialStore(api.server.database.db as never, {
      lockoutAttempts: 3,
      lockoutMinutes: 15,
      maxLockoutMinutes: 40,
    });
    const id = '00000000-0000-4000-8000-00000000abcd';
    await credentials.setPassword(id, 'locksmith', 'Right-Password-123!', undefined);
    const lockFor = async () => {
      for (let i = 0; i < 2; i++) expect(await credentials.verify(id, 'wrong')).toBe('wrong');
      expect(await credentials.verify(id, 'wrong')).toBe('locked');
      const { lockedUntil } = await credentials.status(id);
      // The lock is over (as if its time had passed) before the next round.
      await api.server.database.db
        .updateTable('credential' as never)
        .set({ locked_until: new Date(Date.now() - 1000).toISOString() } as never)
        .where('account_id' as never, '=', id as never)
        .execute();
      return Math.round(((lockedUntil?.getTime() ?? 0) - Date.now()) / 60_000);
    };
    expect(await lockFor()).toBe(15);
    expect(await lockFor()).toBe(30);
    expect(await lockFor()).toBe(40);
    // A good sign-in starts the count again.
    expect(await credentials.verify(id, 'Right-Password-123!')).toBe('ok');
    expect(await lockFor()).toBe(15);
  });
});
