import fs from 'node:fs/promises';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JSONWebKeySet,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { AuthConfig } from '../config';
import type { Principal } from './principal';

export type TokenVerifier = (token: string) => Promise<Principal>;

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** Verified tokens kept at most (a busy server sees one per signed-in person). */
const MAX_CACHED_TOKENS = 10_000;

/**
 * Verifies bearer tokens (signature, issuer, audience, expiry); roles are the `groups` claim.
 * A verified token is remembered until its expiry: the signature check was a seventh of a read.
 */
export async function createTokenVerifier(
  config: AuthConfig,
  jwks?: JSONWebKeySet,
  now: () => number = Date.now,
): Promise<TokenVerifier> {
  const keys = await keySource(config, jwks);
  const verified = new Map<string, { principal: Principal; expiresAt: number }>();
  return async (token) => {
    const known = verified.get(token);
    // A copy: a caller changing its principal must not change the next caller's.
    if (known && known.expiresAt > now())
      return { ...known.principal, roles: [...known.principal.roles] };
    if (known) verified.delete(token);
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    try {
      ({ payload, protectedHeader: header } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
        // A token that never expires is refused, whoever signed it.
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(now()),
      }));
    } catch (error) {
      throw new InvalidTokenError((error as Error).message);
    }
    if (!isAccessToken(header, payload)) throw new InvalidTokenError('not an access token');
    const principal = principalFrom(payload);
    // Oldest first out: a Map keeps insertion order.
    if (verified.size >= MAX_CACHED_TOKENS) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, { principal, expiresAt: (payload.exp as number) * 1000 });
    return principal;
  };
}

/** An access token: header `typ` `at+jwt` (RFC 9068) or claim `typ` `Bearer` (Keycloak's). */
export function isAccessToken(header: JWTHeaderParameters, payload: JWTPayload): boolean {
  const type = typeof header.typ === 'string' ? header.typ.toLowerCase() : '';
  return type === 'at+jwt' || type === 'application/at+jwt' || payload.typ === 'Bearer';
}

async function keySource(config: AuthConfig, jwks?: JSONWebKeySet): Promise<JWTVerifyGetKey> {
  if (jwks) return createLocalJWKSet(jwks);
  if (config.jwksFile) {
    return createLocalJWKSet(
      JSON.parse(await fs.readFile(config.jwksFile, 'utf8')) as JSONWebKeySet,
    );
  }
  if (config.jwksUrl) return createRemoteJWKSet(new URL(config.jwksUrl));
  throw new Error('No source of token signing keys is configured');
}

function principalFrom(payload: JWTPayload): Principal {
  const text = (claim: string) =>
    typeof payload[claim] === 'string' ? (payload[claim] as string) : undefined;
  const groups = Array.isArray(payload.groups)
    ? payload.groups.filter((g): g is string => typeof g === 'string')
    : [];
  return {
    subject: payload.sub as string,
    // Keycloak's group mapper may give full paths ("/visa-application-read"); roles are the names.
    roles: groups.map((g) => g.replace(/^\//, '')),
    name: text('name'),
    preferredUsername: text('preferred_username'),
    email: text('email'),
    phoneNumber: text('phone_number'),
    locale: text('locale'),
    userType: text('user_type'),
    sessionId: text('sid'),
  };
}
