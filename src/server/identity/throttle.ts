import { sql, type Kysely } from 'kysely';
import type { ServerConfig } from '../config';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/**
 * Failed attempts per client address, across every account it tries (ASVS 5.0 V6.3.1). An
 * address failing `failures` times (0: no limit) in a window is blocked for `blockMinutes`, each
 * later block that much longer up to `maxBlockMinutes`, as Keycloak's brute-force detection
 * waits. Counted in the database, shared by every process.
 */
export class AttemptThrottle {
  private readonly db: Kysely<IdentityTables>;

  constructor(
    db: IdentityKysely,
    private readonly settings: ServerConfig['identity']['addressThrottle'],
    /** What is throttled (`sign-in`, `code`): each kind counts apart. */
    private readonly kind: string,
  ) {
    this.db = identityDb(db);
  }

  /** Minutes the address must still wait (rounded up), or 0 when it may try. */
  async waitFor(address: string): Promise<number> {
    if (this.settings.failures <= 0) return 0;
    const row = await this.db
      .selectFrom('attempt_throttle')
      .select('blocked_until')
      .where('key', '=', this.key(address))
      .executeTakeFirst();
    const until = row?.blocked_until ? new Date(row.blocked_until).getTime() : 0;
    return until > Date.now() ? Math.ceil((until - Date.now()) / 60_000) : 0;
  }

  /** Counts a failure; answers the minutes of the block it starts, or 0. */
  async fail(address: string): Promise<number> {
    const { failures, windowMinutes, blockMinutes, maxBlockMinutes } = this.settings;
    if (failures <= 0) return 0;
    const key = this.key(address);
    const now = new Date();
    const windowStart = new Date(now.getTime() - windowMinutes * 60_000).toISOString();
    // One statement: a window past restarts the count (and, without a block in it, the blocks).
    const counted = await this.db
      .insertInto('attempt_throttle')
      .values({ key, failures: 1, window_start: now.toISOString(), blocks: 0 })
      .onConflict((c) =>
        c.column('key').doUpdateSet({
          failures: sql`case when attempt_throttle.window_start < ${windowStart}
            then 1 else attempt_throttle.failures + 1 end`,
          blocks: sql`case when attempt_throttle.window_start < ${windowStart}
            and coalesce(attempt_throttle.blocked_until, attempt_throttle.window_start) < ${windowStart}
            then 0 else attempt_throttle.blocks end`,
          window_start: sql`case when attempt_throttle.window_start < ${windowStart}
            then ${now.toISOString()}::timestamptz else attempt_throttle.window_start end`,
        }),
      )
      .returning(['failures', 'blocks'])
      .executeTakeFirstOrThrow();
    if (counted.failures < failures) return 0;
    const minutes = Math.min(blockMinutes * (counted.blocks + 1), maxBlockMinutes);
    await this.db
      .updateTable('attempt_throttle')
      .set({
        failures: 0,
        blocks: counted.blocks + 1,
        window_start: now.toISOString(),
        blocked_until: new Date(now.getTime() + minutes * 60_000).toISOString(),
      })
      .where('key', '=', key)
      .execute();
    return minutes;
  }

  /** Forgets blocks and counts long past. */
  async purge(): Promise<void> {
    const iso = new Date(
      Date.now() - Math.max(this.settings.windowMinutes, this.settings.maxBlockMinutes) * 120_000,
    ).toISOString();
    const before = sql<Date>`${iso}::timestamptz`;
    await this.db
      .deleteFrom('attempt_throttle')
      .where('window_start', '<', before)
      .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', before)]))
      .execute();
  }

  private key = (address: string) => `${this.kind}:${address}`;
}
