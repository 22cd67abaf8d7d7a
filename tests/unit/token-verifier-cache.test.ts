import * as jose from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, InvalidTokenError } from '../../src/server/auth/token-verifier';
import { createTestIssuer } from '../support/tokens';

vi.mock('jose', async (original) => {
  const actual = await original<typeof import('jose')>();
  return { ...actual, jwtVerify: vi.fn(actual.jwtVerify) };
});

/**
 * A verified token is remembered until it expires: the same person's next calls skip the
 * signature check, a token past its expiry is checked again (and refused), and each caller gets
 * a principal of its own.
 */
describe('the token verifier’s memory', () => {
  it('checks a token’s signature once while it lives, and refuses it once expired', async () => {
    const issuer = await createTestIssuer('https://issuer.example/realms/portal');
    let clock = Date.now();
    const verify = await createTokenVerifier(
      { issuer: issuer.issuer, audience: issuer.audience },
      issuer.jwks,
      () => clock,
    );
    const token = await issuer.token({ sub: 'ana', groups: ['visa-application-read'] });
    const checks = vi.mocked(jose.jwtVerify);
    checks.mockClear();

    const first = await verify(token);
    const second = await verify(token);
    expect(second).toEqual(first);
    expect(checks).toHaveBeenCalledTimes(1);
    // Each call has its own copy.
    second.roles.push('changed');
    expect((await verify(token)).roles).toEqual(['visa-application-read']);

    // Past its expiry (ten minutes), the token is checked again and refused.
    clock += 11 * 60_000;
    await expect(verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
    expect(checks).toHaveBeenCalledTimes(2);
  });
});
