import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { ProcessRegistry, type RegistryLog } from '../../src/server/db/process-registry';
import { SharedRateLimit } from '../../src/server/http/shared-rate-limit';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';

/** A log that keeps what it was told, for the warnings an operator would read. */
function keptLog(): RegistryLog & { lines: Array<{ level: string; message: string }> } {
  const lines: Array<{ level: string; message: string }> = [];
  return {
    lines,
    info: (_object, message) => lines.push({ level: 'info', message }),
    warn: (_object, message) => lines.push({ level: 'warn', message }),
  };
}

/**
 * What several server processes on one database share besides their data: the rate limit's
 * counts (@fastify/rate-limit's store over the database) and the register of running processes
 * with the definitions each loaded. Each instance here stands for one process; the heartbeats
 * are driven by hand (their timers are set far beyond the test), so nothing waits on a clock.
 */
describe.each(databaseKinds())('state shared by server processes on %s', (kind) => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  const registries: ProcessRegistry[] = [];
  const start = async (digest: string) => {
    const log = keptLog();
    const registry = await ProcessRegistry.start({
      db: database.db,
      digest,
      log,
      heartbeatMs: 3_600_000,
    });
    registries.push(registry);
    return { registry, log };
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind);
    database = await openDatabase({
      databaseUrl: testDatabase.databaseUrl,
      schema: testDatabase.schema,
      dataDir: testDatabase.dataDir,
    });
  });
  afterAll(async () => {
    for (const registry of registries) await registry.stop();
    await database?.close();
    await testDatabase?.cleanup();
  });

  it('counts hits of one key together across stores, each route apart, and restarts an ended window', async () => {
    const one = new SharedRateLimit(database.db);
    const other = new SharedRateLimit(database.db);
    expect(await one.hit('POST /check|198.51.100.1', 60_000)).toMatchObject({ current: 1 });
    expect(await other.hit('POST /check|198.51.100.1', 60_000)).toMatchObject({ current: 2 });
    const third = await one.hit('POST /check|198.51.100.1', 60_000);
    expect(third.current).toBe(3);
    expect(third.ttl).toBeGreaterThan(0);
    expect(third.ttl).toBeLessThanOrEqual(60_000);
    expect((await other.hit('POST /other|198.51.100.1', 60_000)).current).toBe(1);

    // The window ends (as if its minute had passed): the next hit starts the next one.
    await sql`update rate_limit_window set expires_at = now() - interval '1 second'
      where key = 'POST /check|198.51.100.1'`.execute(database.db);
    expect((await other.hit('POST /check|198.51.100.1', 60_000)).current).toBe(1);

    await sql`update rate_limit_window set expires_at = now() - interval '1 second'
      where key = 'POST /other|198.51.100.1'`.execute(database.db);
    expect(await one.purge()).toBe(1);
    expect(await one.purge()).toBe(0);
  });

  it('counts simultaneous hits on one key without losing any', async () => {
    const stores = [new SharedRateLimit(database.db), new SharedRateLimit(database.db)];
    const counts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % 2]!.hit('burst|203.0.113.9', 60_000)),
    );
    expect(counts.map((c) => c.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('warns once when processes on the database run different definitions, and says when they agree again', async () => {
    const first = await start('aaaaaaaaaaaaaaaa');
    const same = await start('aaaaaaaaaaaaaaaa');
    expect([...first.log.lines, ...same.log.lines]).toEqual([]);

    const changed = await start('bbbbbbbbbbbbbbbb');
    expect(changed.log.lines).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(
          /^Processes on this database run different definition sets: this one bbbbbbbbbbbbbbbb, others aaaaaaaaaaaaaaaa\. /,
        ),
      },
    ]);
    expect(await first.registry.beat()).toEqual([
      expect.objectContaining({ digest: 'bbbbbbbbbbbbbbbb' }),
    ]);
    expect(first.log.lines.map((l) => l.level)).toEqual(['warn']);
    // A lasting difference is not repeated at every heartbeat.
    await first.registry.beat();
    expect(first.log.lines).toHaveLength(1);

    // The rolling restart goes on: the processes with the old definitions stop.
    await first.registry.stop();
    await same.registry.stop();
    expect(await changed.registry.beat()).toEqual([]);
    expect(changed.log.lines.at(-1)).toEqual({
      level: 'info',
      message: 'Every process on this database runs the same definition set again',
    });
  });

  it('keeps one row for a process that switches to a published set, and never counts itself', async () => {
    const switching = await start('eeeeeeeeeeeeeeee');
    const other = await start('eeeeeeeeeeeeeeee');
    await switching.registry.serve('ffffffffffffffff');
    // Its own earlier set is no other process: it sees only the one not switched yet (and
    // those the tests above left running).
    const seen = (others: Array<{ digest: string }>) =>
      others.map((o) => o.digest).filter((digest) => /^[ef]+$/.test(digest));
    expect(seen(await switching.registry.beat())).toEqual(['eeeeeeeeeeeeeeee']);
    await other.registry.serve('ffffffffffffffff');
    expect(seen(await switching.registry.differing())).toEqual([]);
    const rows = await sql<{ n: number }>`select count(*)::int as n from server_process
      where id in (${switching.registry.id}, ${other.registry.id})
      and definitions_digest = 'ffffffffffffffff'`.execute(database.db);
    expect(rows.rows[0]!.n).toBe(2);
    await switching.registry.stop();
    await other.registry.stop();
  });

  it('stops counting a process that stopped saying it is alive', async () => {
    const live = await start('cccccccccccccccc');
    const dead = await start('dddddddddddddddd');
    expect(await live.registry.differing()).toContainEqual(
      expect.objectContaining({ digest: 'dddddddddddddddd' }),
    );
    // Its last heartbeat long ago (a process killed without stopping).
    await sql`update server_process set seen_at = now() - interval '1 day'
      where id = ${dead.registry.id}`.execute(database.db);
    expect(await live.registry.differing()).not.toContainEqual(
      expect.objectContaining({ digest: 'dddddddddddddddd' }),
    );
  });
});
