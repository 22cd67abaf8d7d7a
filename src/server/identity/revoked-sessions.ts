import { sql, type Kysely } from 'kysely';
import type { ChangeNotices } from '../db/change-notices';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/** How often sessions whose tokens have all expired are dropped from memory. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The sessions ended by signing out, so their access tokens stop working at once rather than
 * at their expiry. Answered from memory, kept current by the table's change notices
 * (db/change-notices.ts); while notices are not received, every check asks the table.
 */
export class RevokedSessions {
  private readonly db: Kysely<IdentityTables>;
  /** Ended sessions by sid, with when their last token expires (ms). */
  private readonly ended = new Map<string, number>();
  /** Whether `ended` holds every session ended that notices have not been missed for. */
  private complete = false;
  private nextPrune = 0;

  constructor(
    db: IdentityKysely,
    /** The longest an access token lives, in seconds. */
    private readonly tokenLifetime: number,
    private readonly notices?: ChangeNotices,
  ) {
    this.db = identityDb(db);
  }

  /** Listening first, then reading the table, so a session ended in between is not missed. */
  static async follow(
    db: IdentityKysely,
    tokenLifetime: number,
    notices: ChangeNotices,
  ): Promise<RevokedSessions> {
    const sessions = new RevokedSessions(db, tokenLifetime, notices);
    await notices.on('revoked_session', (sid) => sessions.remember(sid, sessions.expiry()));
    notices.onResume(() => void sessions.load().catch(() => undefined));
    await sessions.load();
    return sessions;
  }

  /** Records the sessions' sids as ended. */
  async revoke(sids: readonly string[]): Promise<void> {
    if (sids.length === 0) return;
    const expiresAt = this.expiry();
    await this.db
      .insertInto('revoked_session')
      .values(sids.map((sid) => ({ sid, expires_at: new Date(expiresAt).toISOString() })))
      .onConflict((c) => c.column('sid').doNothing())
      .execute();
    for (const sid of sids) this.remember(sid, expiresAt);
  }

  /** Sessions a committed transaction of this process ended, known here before its notice. */
  endedHere(sids: readonly string[]): void {
    const expiresAt = this.expiry();
    for (const sid of sids) this.remember(sid, expiresAt);
  }

  async isRevoked(sid: string): Promise<boolean> {
    const now = Date.now();
    if (now >= this.nextPrune) this.prune(now);
    const expiresAt = this.ended.get(sid);
    if (expiresAt !== undefined && expiresAt > now) return true;
    if (this.complete && this.notices?.live) return false;
    const row = await this.db
      .selectFrom('revoked_session')
      .select('expires_at')
      .where('sid', '=', sid)
      .executeTakeFirst();
    if (row) this.remember(sid, new Date(row.expires_at).getTime());
    return Boolean(row);
  }

  /** Removes rows whose tokens have all expired. */
  async purge(): Promise<void> {
    await this.db
      .deleteFrom('revoked_session')
      .where('expires_at', '<', sql<Date>`now()`)
      .execute();
  }

  /** Reads every session ended whose tokens may still be alive. */
  private async load(): Promise<void> {
    this.complete = false;
    const rows = await this.db
      .selectFrom('revoked_session')
      .select(['sid', 'expires_at'])
      .where('expires_at', '>', sql<Date>`now()`)
      .execute();
    for (const row of rows) this.remember(row.sid, new Date(row.expires_at).getTime());
    this.complete = true;
  }

  /** When the tokens of a session ended now have all expired (the row's `expires_at`). */
  private expiry(): number {
    return Date.now() + (this.tokenLifetime + 60) * 1000;
  }

  private remember(sid: string, expiresAt: number): void {
    this.ended.set(sid, Math.max(expiresAt, this.ended.get(sid) ?? 0));
  }

  private prune(now: number): void {
    this.nextPrune = now + PRUNE_EVERY_MS;
    for (const [sid, expiresAt] of this.ended) if (expiresAt <= now) this.ended.delete(sid);
  }
}

/** The sids a stored session gave its clients (oidc-provider's `authorizations.<client>.sid`). */
export function sessionSids(payload: Record<string, unknown>): string[] {
  const authorizations = (payload.authorizations ?? {}) as Record<string, { sid?: unknown } | null>;
  return Object.values(typeof authorizations === 'object' ? authorizations : {})
    .map((entry) => entry?.sid)
    .filter((sid): sid is string => typeof sid === 'string' && sid.length > 0);
}
