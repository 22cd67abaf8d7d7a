import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config';

/**
 * A production start refuses the development cookie key (docs/security.md, what a deployment
 * must set): the identity server's session cookies would be signed with a key anyone can read.
 */
describe('the production configuration', () => {
  it('refuses to start without COOKIE_KEYS, and starts with them', () => {
    expect(() => configFromEnv({ NODE_ENV: 'production' })).toThrow(/COOKIE_KEYS/);
    expect(() => configFromEnv({ NODE_ENV: 'production', COOKIE_KEYS: '  ' })).toThrow(
      /COOKIE_KEYS/,
    );
    const config = configFromEnv({ NODE_ENV: 'production', COOKIE_KEYS: 'k1-long-random,k2' });
    expect(config.identity.cookieKeys).toEqual(['k1-long-random', 'k2']);
    // With an external Keycloak, the built-in server's cookies do not exist.
    expect(() => configFromEnv({ NODE_ENV: 'production', IDENTITY_SERVER: 'false' })).not.toThrow();
  });
});
