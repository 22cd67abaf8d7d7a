import { createPublicKey, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from 'jose';
import { sql, type Kysely } from 'kysely';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/**
 * The private signing keys (RS256), oldest first, made once: processes starting together take
 * turns (an advisory lock), else each could make its own and refuse the other's tokens.
 */
export async function signingKeys(database: IdentityKysely): Promise<JWK[]> {
  const stored = await load(identityDb(database));
  if (stored.length > 0) return stored;
  return identityDb(database)
    .transaction()
    .execute(async (db) => {
      await sql`select pg_advisory_xact_lock(hashtext('identity-signing-key'))`.execute(db);
      const made = await load(db);
      if (made.length > 0) return made;
      const { privateKey } = await generateKeyPair('RS256', {
        extractable: true,
        modulusLength: 2048,
      });
      const jwk: JWK = {
        ...(await exportJWK(privateKey)),
        kid: randomUUID(),
        alg: 'RS256',
        use: 'sig',
      };
      await db
        .insertInto('signing_key')
        .values({ kid: jwk.kid as string, private_jwk: JSON.stringify(jwk) })
        .execute();
      return load(db);
    });
}

async function load(db: Kysely<IdentityTables>): Promise<JWK[]> {
  const rows = await db
    .selectFrom('signing_key')
    .select(['private_jwk'])
    .orderBy('created_at')
    .orderBy('kid')
    .execute();
  return rows.map((r) => r.private_jwk as JWK);
}

/** Only the public members of a key. */
export function publicJwk(jwk: JWK): JWK {
  const { kty, n, e, crv, x, y, kid, alg, use } = jwk;
  return Object.fromEntries(
    Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined),
  ) as JWK;
}

/** The public keys that verify our tokens, for the API's verifier (no HTTP round trip). */
export async function publicJwks(db: IdentityKysely): Promise<JSONWebKeySet> {
  return { keys: (await signingKeys(db)).map(publicJwk) };
}

/** Keycloak's `public_key`: the current signing key as base64 SPKI DER (no PEM armour). */
export function spkiBase64(jwk: JWK): string {
  const key = createPublicKey({
    key: publicJwk(jwk) as import('node:crypto').JsonWebKey,
    format: 'jwk',
  });
  return key.export({ type: 'spki', format: 'der' }).toString('base64');
}
