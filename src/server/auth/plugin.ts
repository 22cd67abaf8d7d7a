import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { holdsAnyRole, type Principal } from './principal';
import type { TokenVerifier } from './token-verifier';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/**
 * Reads the bearer token of every request; a token that is present but not valid is a 401.
 * Requests below `exceptBelow` are left alone: the identity server authenticates its own
 * callers (a client's HTTP Basic credentials at the token endpoint, RFC 6749 section 2.3.1).
 */
export function installAuthentication(
  app: FastifyInstance,
  verify: TokenVerifier,
  exceptBelow: readonly string[] = [],
): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) return;
    if (exceptBelow.some((prefix) => request.url.startsWith(prefix))) return;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new ApiProblem(401, ERROR_CODES.invalidToken);
    try {
      request.principal = await verify(match[1]);
    } catch {
      throw new ApiProblem(401, ERROR_CODES.invalidToken);
    }
  });
}

/** The caller must be signed in (else 401) and hold one of the roles (else 403). */
export function requireAnyRole(request: FastifyRequest, roles: readonly string[]): Principal {
  const principal = request.principal;
  if (!principal) throw new ApiProblem(401, ERROR_CODES.notSignedIn);
  if (!holdsAnyRole(principal, roles)) throw new ApiProblem(403, ERROR_CODES.forbidden);
  return principal;
}

/** The caller must be signed in (else 401). */
export function requireSignedIn(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiProblem(401, ERROR_CODES.notSignedIn);
  return request.principal;
}
