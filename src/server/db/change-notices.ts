import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Called with a notice's payload: what changed (a catalogue's id, a session's sid). */
export type NoticeHandler = (payload: string) => void;

/**
 * Notices that something in the database changed, for the processes sharing it to forget what
 * they keep in memory (LISTEN/NOTIFY; tables' triggers post them too, migration 0018). This
 * process hears a notice before `notify` returns, the others once PostgreSQL delivers it.
 */
export interface ChangeNotices {
  /** Tells every process on this database (this one at once) that `payload` changed. */
  notify(channel: string, payload: string): Promise<void>;
  /** Runs `handler` for each notice on `channel` from now on; resolves once listening. */
  on(channel: string, handler: NoticeHandler): Promise<() => void>;
  /** Whether notices are being received now; when false, nothing kept may be trusted. */
  readonly live: boolean;
  /** Runs `handler` when notices are received again after a gap (all kept must be forgotten). */
  onResume(handler: () => void): () => void;
  close(): Promise<void>;
}

/** A notice's payload meaning "anything on the channel may have changed" (a truncate). */
export const EVERYTHING = '';

/** PostgreSQL's limit on a channel name (NAMEDATALEN - 1 bytes). */
const MAX_CHANNEL_BYTES = 63;
/** How often the listening connection is checked, so a silently dead one is noticed. */
const HEARTBEAT_MS = 10_000;
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/** The handlers of each channel, by its name in the database: `<schema>:<channel>`. */
class Subscribers {
  private readonly byChannel = new Map<string, Set<NoticeHandler>>();
  private readonly resumed = new Set<() => void>();

  constructor(private readonly scope: string) {}

  /** The database's name of a channel; the triggers build it the same way. */
  physical(channel: string): string {
    const name = `${this.scope}:${channel}`;
    if (Buffer.byteLength(name) > MAX_CHANNEL_BYTES)
      throw new Error(`notice channel ${name} is longer than ${MAX_CHANNEL_BYTES} bytes`);
    return name;
  }

  add(channel: string, handler: NoticeHandler): { first: boolean; remove: () => void } {
    const name = this.physical(channel);
    let handlers = this.byChannel.get(name);
    const first = !handlers;
    if (!handlers) this.byChannel.set(name, (handlers = new Set()));
    handlers.add(handler);
    return { first, remove: () => handlers.delete(handler) };
  }

  channels(): string[] {
    return [...this.byChannel.keys()];
  }

  deliver(physical: string, payload: string): void {
    for (const handler of this.byChannel.get(physical) ?? []) handler(payload);
  }

  onResume(handler: () => void): () => void {
    this.resumed.add(handler);
    return () => this.resumed.delete(handler);
  }

  resume(): void {
    for (const handler of this.resumed) handler();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Notices over PostgreSQL: a connection of its own LISTENs, reconnecting when lost. */
export async function postgresNotices(options: {
  connectionString: string;
  /** The schema the server works in: the scope of its channels. */
  scope: string;
  pool: pg.Pool;
  /** Told when the listening connection fails (it is reopened). */
  onError?: (error: Error) => void;
}): Promise<ChangeNotices> {
  const subscribers = new Subscribers(options.scope);
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retryIn = RECONNECT_FIRST_MS;
  let reconnect: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const lost = (failed: pg.Client, error?: Error) => {
    if (client !== failed) return;
    client = undefined;
    live = false;
    clearInterval(heartbeat);
    failed.removeAllListeners('notification');
    failed.end().catch(() => undefined);
    if (error) options.onError?.(error);
    if (closed) return;
    reconnect = setTimeout(() => void connect().catch(() => undefined), retryIn);
    reconnect.unref();
    retryIn = Math.min(retryIn * 2, RECONNECT_MAX_MS);
  };

  const connect = async () => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      application_name: `notices ${options.scope}`.slice(0, MAX_CHANNEL_BYTES),
    });
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next));
    next.on('notification', (message) =>
      subscribers.deliver(message.channel, message.payload ?? EVERYTHING),
    );
    client = next;
    try {
      await next.connect();
      for (const channel of subscribers.channels()) await next.query(`listen ${quoted(channel)}`);
    } catch (error) {
      lost(next, error as Error);
      throw error;
    }
    if (client !== next) return;
    const wasLive = live;
    live = true;
    retryIn = RECONNECT_FIRST_MS;
    heartbeat = setInterval(() => {
      next.query('select 1').catch((error: Error) => lost(next, error));
    }, HEARTBEAT_MS);
    heartbeat.unref();
    // What was kept before the gap may have missed notices: it is forgotten.
    if (!wasLive) subscribers.resume();
  };

  try {
    await connect();
  } catch (error) {
    // The database does not answer at start: the server does not start (no retries behind).
    closed = true;
    clearTimeout(reconnect);
    throw error;
  }
  return {
    get live() {
      return live;
    },
    async notify(channel, payload) {
      const name = subscribers.physical(channel);
      subscribers.deliver(name, payload);
      await options.pool.query('select pg_notify($1, $2)', [name, payload]);
    },
    async on(channel, handler) {
      const { first, remove } = subscribers.add(channel, handler);
      if (first && client && live) {
        try {
          await client.query(`listen ${quoted(subscribers.physical(channel))}`);
        } catch (error) {
          lost(client, error as Error);
        }
      }
      return remove;
    },
    onResume: (handler) => subscribers.onResume(handler),
    async close() {
      closed = true;
      clearTimeout(reconnect);
      clearInterval(heartbeat);
      const open = client;
      client = undefined;
      live = false;
      await open?.end().catch(() => undefined);
    },
  };
}

/** Notices in PGlite: one process, so `notify` tells this process's handlers directly. */
export async function pgliteNotices(client: PGlite): Promise<ChangeNotices> {
  const subscribers = new Subscribers('public');
  const stop = client.onNotification((channel, payload) =>
    subscribers.deliver(channel, payload ?? EVERYTHING),
  );
  return {
    live: true,
    async notify(channel, payload) {
      subscribers.deliver(subscribers.physical(channel), payload);
    },
    async on(channel, handler) {
      const { first, remove } = subscribers.add(channel, handler);
      if (first) await client.exec(`listen ${quoted(subscribers.physical(channel))}`);
      return remove;
    },
    onResume: (handler) => subscribers.onResume(handler),
    async close() {
      stop();
    },
  };
}
