import { createHash, randomBytes } from 'node:crypto';
import { identityDb, type IdentityKysely } from '../../../server/module';

/**
 * One-time links to correct a returned self-registration (docs/identity.md): a random 32-byte
 * token kept as its SHA-256 (that size needs no slow hash), in the `oidc_payload` table.
 */
const MODEL = 'RegistrationCorrection';
export const CORRECTION_LINK_DAYS = 14;

/** The portal route a link opens: the registration page in its correction mode. */
export const CORRECTION_ROUTE = '/register';

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Makes a new link's token for the account, replacing any earlier one, inside the caller's
 * transaction (the return that sends it): a return rolled back leaves no token.
 */
export async function issueCorrectionToken(
  db: IdentityKysely,
  accountId: string,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const tables = identityDb(db);
  await dropCorrectionTokens(db, accountId);
  await tables
    .insertInto('oidc_payload')
    .values({
      model: MODEL,
      id: digest(token),
      payload: JSON.stringify({ accountId }),
      grant_id: null,
      user_code: null,
      // The account's id in `uid`, indexed with the model, so its links are found and dropped.
      uid: accountId,
      expires_at: new Date(now.getTime() + CORRECTION_LINK_DAYS * 86_400_000).toISOString(),
      consumed_at: null,
    })
    .execute();
  return token;
}

/** The account a token was issued for, while it is valid; undefined otherwise. */
export async function accountOfCorrectionToken(
  db: IdentityKysely,
  token: unknown,
  now: Date,
): Promise<string | undefined> {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const row = await identityDb(db)
    .selectFrom('oidc_payload')
    .select(['uid', 'expires_at'])
    .where('model', '=', MODEL)
    .where('id', '=', digest(token))
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (!row?.uid || !row.expires_at || row.expires_at <= now) return undefined;
  return row.uid;
}

/** Drops every link of the account (the correction is made, or a newer link replaces them). */
export async function dropCorrectionTokens(db: IdentityKysely, accountId: string): Promise<void> {
  await identityDb(db)
    .deleteFrom('oidc_payload')
    .where('model', '=', MODEL)
    .where('uid', '=', accountId)
    .execute();
}
