import { sql } from 'kysely';
import { sessionSids } from './revoked-sessions';
import { TTL } from './provider';
import { identityDb, type IdentityKysely } from './tables';

/**
 * Ends every sign-in of an account at once, in the caller's transaction (an account closed):
 * its sessions' sids are recorded as ended, so their access tokens are refused on every process
 * (revoked_session's notice, migration 0018), and its sessions, grants and refresh tokens go, so
 * nothing is renewed. Answers how many sessions were ended.
 */
export async function endAccountSessions(db: IdentityKysely, accountId: string): Promise<number> {
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
  }
  await identity.deleteFrom('oidc_payload').where(ofAccount, '=', accountId).execute();
  return sessions.length;
}
