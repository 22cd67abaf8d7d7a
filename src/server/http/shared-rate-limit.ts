import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type ColumnType, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Migration 0017's counter table, known to this module only. */
type RateLimitTables = {
  rate_limit_window: {
    key: string;
    hits: number;
    expires_at: ColumnType<Date, Date, Date>;
  };
};

/** What @fastify/rate-limit wants back from a count: hits in the window, milliseconds left. */
interface WindowCount {
  current: number;
  ttl: number;
}

/**
 * @fastify/rate-limit's counts kept in the database, so a client meets one limit however many
 * processes serve it. Fixed windows, as the plugin's own stores count; each hit one atomic
 * upsert, on the database's clock.
 */
export class SharedRateLimit {
  private readonly db: Kysely<RateLimitTables>;
  /**
   * Keys this process saw over their limit, until their window ends (local time): a client
   * refused once is refused again without a write, so a flood of guesses costs no database work.
   * A fixed window's count only grows until it ends, so the answer is the one the database gives.
   */
  private readonly over = new Map<string, { until: number; current: number }>();

  constructor(db: Kysely<Database>) {
    this.db = db.withTables<RateLimitTables>() as unknown as Kysely<RateLimitTables>;
  }

  /** Counts one hit of `key` and answers the window's count and what is left of it. */
  async hit(key: string, timeWindowMs: number): Promise<WindowCount> {
    const window = sql<Date>`now() + ${Math.max(1, Math.trunc(timeWindowMs))} * interval '1 millisecond'`;
    const ended = sql<boolean>`rate_limit_window.expires_at <= now()`;
    const row = await this.db
      .insertInto('rate_limit_window')
      .values({ key, hits: 1, expires_at: window })
      .onConflict((c) =>
        c.column('key').doUpdateSet({
          hits: sql`case when ${ended} then 1 else rate_limit_window.hits + 1 end`,
          expires_at: sql<Date>`case when ${ended} then excluded.expires_at
            else rate_limit_window.expires_at end`,
        }),
      )
      .returning([
        'hits',
        sql<number>`greatest(0, extract(epoch from (expires_at - now())) * 1000)::float8`.as('ttl'),
      ])
      .executeTakeFirstOrThrow();
    return { current: row.hits, ttl: Math.ceil(Number(row.ttl)) };
  }

  /** Deletes the windows that have ended (a client that came back would restart them anyway). */
  async purge(): Promise<number> {
    this.forgetEnded();
    const gone = await this.db
      .deleteFrom('rate_limit_window')
      .where(sql<boolean>`expires_at < now()`)
      .executeTakeFirst();
    return Number(gone.numDeletedRows);
  }

  private forgetEnded(): void {
    const now = Date.now();
    for (const [key, known] of this.over) if (known.until <= now) this.over.delete(key);
  }

  /** A hit, answered here for a key known to be over `max` in its window, else counted. */
  private async limitedHit(key: string, timeWindowMs: number, max: number): Promise<WindowCount> {
    const known = this.over.get(key);
    const now = Date.now();
    if (known && known.until > now) return { current: ++known.current, ttl: known.until - now };
    const count = await this.hit(key, timeWindowMs);
    if (count.current > max && count.ttl > 0) {
      if (this.over.size >= 100_000) this.forgetEnded();
      this.over.set(key, { until: now + count.ttl, current: count.current });
    }
    return count;
  }

  /** The class of the plugin's `store` option; each limited route's child counts apart. */
  storeClass(): FastifyRateLimitStoreCtor {
    const hit = (key: string, timeWindowMs: number, max: number) =>
      this.limitedHit(key, timeWindowMs, max);
    class DatabaseRateLimitStore implements FastifyRateLimitStore {
      constructor(
        _options: unknown,
        private readonly scope = '',
      ) {}

      incr(
        key: string,
        callback: (error: Error | null, result?: WindowCount) => void,
        timeWindow: number,
        max: number,
      ): void {
        hit(`${this.scope}${key}`, timeWindow, max).then(
          (count) => callback(null, count),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      }

      child(routeOptions: object): FastifyRateLimitStore {
        // At run time the plugin hands the route's merged options, its route under `routeInfo`.
        const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } })
          .routeInfo;
        const scope = route ? `${String(route.method)} ${String(route.url)}|` : '';
        return new DatabaseRateLimitStore(undefined, scope);
      }
    }
    return DatabaseRateLimitStore;
  }
}
