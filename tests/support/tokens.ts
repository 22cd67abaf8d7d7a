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
    options?: {
      expiresIn?: string | null;
      issuer?: string;
      audience?: string;
      /** The header's `typ`: `at+jwt` (an access token) unless a test forges another kind. */
      typ?: string;
    },
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
        expiresIn: options.expiresIn === undefined ? '10m' : options.expiresIn,
        typ: options.typ ?? 'at+jwt',
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
    typ: 'at+jwt',
  });
}

function sign(
  key: KeyObject,
  kid: string,
  claims: TokenClaims,
  options: { issuer: string; audience: string; expiresIn: string | null; typ: string },
): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid, typ: options.typ })
    .setIssuedAt()
    .setIssuer(options.issuer)
    .setAudience(options.audience);
  // null: a token without `exp`, which the server must refuse.
  if (options.expiresIn !== null) jwt.setExpirationTime(options.expiresIn);
  return jwt.sign(key);
}
