import { sql, type Kysely } from 'kysely';
import { afterCommit } from '../db/after-commit';
import { sessionSids } from './revoked-sessions';
import { TTL } from './provider';
import { identityDb, type IdentityKysely } from './tables';

/**
 * Ends every sign-in of an account at once, in the caller's transaction (an account closed):
 * its sessions' sids are recorded as ended, so their access tokens are refused on every process
 * (revoked_session's notice, migration 0018), and its sessions, grants and refresh tokens go, so
 * nothing is renewed. `ended` hears the sids once the transaction has committed, so this process
 * refuses their tokens from the answer on (the notice reaches it a moment later). Answers how
 * many sessions were ended.
 */
export async function endAccountSessions(
  db: IdentityKysely,
  accountId: string,
  ended?: (sids: readonly string[]) => void,
): Promise<number> {
  const identity = identityDb(db);
  const ofAccount = sql<string>`payload->>'accountId'`;
  const sessions = await identity
    .selectFrom('oidc_payload')
    .select('payload')
    .where('model', '=', 'Session')
    .where(ofAccount, '=', accountId)
    .execute();
  const sids = [...new Set(sessions.flatMap((row) => sessionSids(row.payload)))];
  if (sids.length > 0) {
    // As RevokedSessions.revoke: kept while a token of the session could still be alive.
    const expiresAt = new Date(Date.now() + (TTL.AccessToken + 60) * 1000).toISOString();
    await identity
      .insertInto('revoked_session')
      .values(sids.map((sid) => ({ sid, expires_at: expiresAt })))
      .onConflict((c) => c.column('sid').doNothing())
      .execute();
    if (ended) afterCommit(db as Kysely<unknown>, () => ended(sids));
  }
  await identity.deleteFrom('oidc_payload').where(ofAccount, '=', accountId).execute();
  return sessions.length;
}
