import { sql, type Kysely } from 'kysely';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/** How long an answer "not revoked" is trusted before the table is asked again. */
const FRESH_MS = 2_000;
/** Answers kept at most; past it the oldest go (a busy server sees many sessions). */
const MAX_CACHED = 10_000;

/**
 * The sessions ended by signing out, so their access tokens stop working at once rather than
 * at their expiry (up to five minutes later). The identity server records a session's `sid`s
 * as it destroys the session; the API asks on every call, answered from memory: a revoked
 * session stays revoked, a live one is asked again after two seconds (another process may
 * have ended it). Rows outlive the tokens they stop by their lifetime, then are purged.
 */
export class RevokedSessions {
  private readonly db: Kysely<IdentityTables>;
  private readonly known = new Map<string, { revoked: boolean; at: number }>();

  constructor(
    db: IdentityKysely,
    /** The longest an access token lives, in seconds. */
    private readonly tokenLifetime: number,
  ) {
    this.db = identityDb(db);
  }

  /** Records the sessions' sids as ended. */
  async revoke(sids: readonly string[]): Promise<void> {
    if (sids.length === 0) return;
    const expiresAt = new Date(Date.now() + (this.tokenLifetime + 60) * 1000).toISOString();
    await this.db
      .insertInto('revoked_session')
      .values(sids.map((sid) => ({ sid, expires_at: expiresAt })))
      .onConflict((c) => c.column('sid').doNothing())
      .execute();
    for (const sid of sids) this.remember(sid, true);
  }

  async isRevoked(sid: string): Promise<boolean> {
    const cached = this.known.get(sid);
    if (cached && (cached.revoked || Date.now() - cached.at < FRESH_MS)) return cached.revoked;
    const row = await this.db
      .selectFrom('revoked_session')
      .select('sid')
      .where('sid', '=', sid)
      .executeTakeFirst();
    this.remember(sid, Boolean(row));
    return Boolean(row);
  }

  /** Removes rows whose tokens have all expired. */
  async purge(): Promise<void> {
    await this.db
      .deleteFrom('revoked_session')
      .where('expires_at', '<', sql<Date>`now()`)
      .execute();
  }

  private remember(sid: string, revoked: boolean): void {
    this.known.delete(sid);
    this.known.set(sid, { revoked, at: Date.now() });
    if (this.known.size > MAX_CACHED) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
  }
}

/** The sids a stored session gave its clients (oidc-provider's `authorizations.<client>.sid`). */
export function sessionSids(payload: Record<string, unknown>): string[] {
  const authorizations = payload.authorizations;
  if (typeof authorizations !== 'object' || authorizations === null) return [];
  return Object.values(authorizations as Record<string, unknown>)
    .map((entry) =>
      typeof entry === 'object' && entry !== null ? (entry as { sid?: unknown }).sid : undefined,
    )
    .filter((sid): sid is string => typeof sid === 'string' && sid.length > 0);
}
