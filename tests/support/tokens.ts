import { exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet, type KeyObject } from 'jose';

/**
 * A signing key for tests. The server under test is configured to trust its public half and
 * verifies every token the normal way (signature, issuer, audience, expiry); there is no bypass.
 */
export interface TestIssuer {
  issuer: string;
  audience: string;
  jwks: JSONWebKeySet;
  token(
    claims: TokenClaims,
    options?: { expiresIn?: string; issuer?: string; audience?: string },
  ): Promise<string>;
}

export interface TokenClaims {
  sub: string;
  groups: string[];
  name?: string;
  preferred_username?: string;
  email?: string;
  locale?: string;
  [claim: string]: unknown;
}

export async function createTestIssuer(issuer: string, audience = 'portal'): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `test-${Math.random().toString(36).slice(2, 10)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return {
    issuer,
    audience,
    jwks: { keys: [publicJwk] },
    token: (claims, options = {}) =>
      sign(privateKey as KeyObject, kid, claims, {
        issuer: options.issuer ?? issuer,
        audience: options.audience ?? audience,
        expiresIn: options.expiresIn ?? '10m',
      }),
  };
}

/** A token signed by a key the server does not trust. */
export async function forgedToken(issuer: string, claims: TokenClaims): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return sign(privateKey as KeyObject, 'forged', claims, {
    issuer,
    audience: 'portal',
    expiresIn: '10m',
  });
}

function sign(
  key: KeyObject,
  kid: string,
  claims: TokenClaims,
  options: { issuer: string; audience: string; expiresIn: string },
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuedAt()
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setExpirationTime(options.expiresIn)
    .sign(key);
}
