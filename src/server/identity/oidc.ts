import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, type JWK } from 'jose';
import type Provider from 'oidc-provider';
import { createTokenVerifier } from '../auth/token-verifier';
import type { AccountDirectory } from './directory';
import { publicJwk } from './keys';
import { PROTOCOL_PATH, profileClaims, TTL, type Realm } from './provider';
import { readBody, refreshTokenWrapper, transformResponseBody } from './refresh-token-jwt';
import type { RevokedSessions } from './revoked-sessions';
import { noStore } from './replies';
import { rememberClientAddress } from './sessions';

interface OidcMountOptions extends Realm {
  provider: Provider;
  directory: AccountDirectory;
  revokedSessions: RevokedSessions;
  /** The signing keys (keys.ts): the current one signs, any of them verifies. */
  keys: JWK[];
  signingKey: JWK;
}

/**
 * oidc-provider (a Koa app) below the realm's path, as Keycloak serves it: requests forwarded
 * untouched, refresh tokens wrapped as JWTs for keycloak-js (refresh-token-jwt.ts), and a
 * userinfo endpoint accepting the API's access token.
 */
export async function mountOidc(app: FastifyInstance, options: OidcMountOptions) {
  const { provider, directory, revokedSessions, realm, realmPath, issuer } = options;
  const callback = provider.callback();
  const publicKeys = { keys: options.keys.map(publicJwk) };
  // The API's own check of an access token (signature, issuer, audience, expiry, kind).
  const verify = await createTokenVerifier(options, publicKeys);

  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    noStore(reply);
    const token = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const fail = (error: string) =>
      reply
        .status(401)
        .header('www-authenticate', `Bearer realm="${realm}", error="${error}"`)
        .send({ error, error_description: 'Token verification failed' });
    if (!token) return fail('invalid_request');
    try {
      const { subject, sessionId } = await verify(token);
      if (sessionId && (await revokedSessions.isRevoked(sessionId))) return fail('invalid_token');
      const found = await directory.findById(subject);
      if (!found?.canSignIn) return fail('invalid_token');
      return profileClaims(found);
    } catch {
      return fail('invalid_token');
    }
  };

  const forward = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    const url = raw.url ?? '/';
    raw.originalUrl = url;
    rememberClientAddress(raw, request.ip);
    raw.url = url.slice(realmPath.length) || '/';
    void callback(raw, reply.raw);
  };
  const wrapper = await refreshTokenWrapper({
    signingKey: options.signingKey,
    verifyKeys: createLocalJWKSet(publicKeys),
    issuer,
    clientId: options.clientId,
    ttlSeconds: TTL.RefreshToken,
  });
  /** The token endpoint, with refresh tokens wrapped as JWTs for keycloak-js (see the module). */
  const token = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw as IncomingMessage & { body?: string };
    // oidc-provider takes an already read body from req.body.
    raw.body = await wrapper.unwrapRequest(await readBody(raw));
    transformResponseBody(reply.raw, (body) => wrapper.wrapResponse(body));
    forward(request, reply);
  };
  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave the stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const all = ['GET', 'POST', 'OPTIONS', 'HEAD'] as const;
    for (const [method, url, handler] of [
      [all, `${realmPath}${PROTOCOL_PATH}/*`, forward],
      [all, `${realmPath}/.well-known/*`, forward],
      [['POST'], `${realmPath}${PROTOCOL_PATH}/token`, token],
      [['GET', 'POST'], `${realmPath}${PROTOCOL_PATH}/userinfo`, userinfo],
    ] as const) {
      scope.route({ method: [...method], url, handler });
    }
  });
}
