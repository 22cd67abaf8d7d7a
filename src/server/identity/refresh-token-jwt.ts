import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, jwtVerify, SignJWT, type JWK, type JWTVerifyGetKey } from 'jose';
import { ApiProblem, ERROR_CODES } from '../http/api-error';

/**
 * keycloak-js gives up on a refresh token that is not a JWT, and oidc-provider's are opaque: the
 * token endpoint wraps them in a signed JWT (`jti`) and unwraps them; the wrapper grants nothing.
 */
export async function refreshTokenWrapper(options: {
  signingKey: JWK;
  verifyKeys: JWTVerifyGetKey;
  issuer: string;
  clientId: string;
  ttlSeconds: number;
}) {
  const key = await importJWK(options.signingKey, 'RS256');
  return {
    /** Replaces a wrapped refresh token in a token request body (urlencoded) by the opaque one. */
    async unwrapRequest(body: string) {
      const params = new URLSearchParams(body);
      const token = params.get('refresh_token');
      if (params.get('grant_type') !== 'refresh_token' || !token || token.split('.').length !== 3)
        return body;
      try {
        const { payload } = await jwtVerify(token, options.verifyKeys, {
          issuer: options.issuer,
          audience: options.clientId,
          typ: 'Refresh',
        });
        if (typeof payload.jti === 'string') params.set('refresh_token', payload.jti);
      } catch {
        // Left as it is: oidc-provider refuses it as an invalid grant.
      }
      return params.toString();
    },
    /** Wraps the refresh token of a token response body (JSON). */
    async wrapResponse(body: string) {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return body;
      }
      if (typeof parsed.refresh_token !== 'string') return body;
      parsed.refresh_token = await new SignJWT({ typ: 'Refresh' })
        .setProtectedHeader({ alg: 'RS256', kid: options.signingKey.kid, typ: 'Refresh' })
        .setJti(parsed.refresh_token)
        .setIssuer(options.issuer)
        .setAudience(options.clientId)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(key);
      return JSON.stringify(parsed);
    },
  };
}

/** Reads a request body to the end (the token endpoint's bodies are small form posts). */
export async function readBody(request: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new ApiProblem(413, ERROR_CODES.tooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    // The caller's mistake, answered 413 like any body past the limit, not a failure of ours.
    if (size > limit) throw new ApiProblem(413, ERROR_CODES.tooLarge);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Lets `transform` rewrite the body a Koa app ends the response with, fixing its length. */
export function transformResponseBody(
  response: ServerResponse,
  transform: (body: string) => Promise<string>,
): void {
  const end = response.end.bind(response) as (chunk?: unknown) => ServerResponse;
  (response as { end: unknown }).end = (chunk?: unknown) => {
    const text = Buffer.isBuffer(chunk)
      ? chunk.toString('utf8')
      : typeof chunk === 'string'
        ? chunk
        : '';
    void transform(text).then(
      (changed) => {
        if (!response.headersSent) response.setHeader('content-length', Buffer.byteLength(changed));
        end(changed);
      },
      () => end(chunk),
    );
    return response;
  };
}
