import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { LANGUAGES, type Language, type TextTree } from '../../src/core/i18n/translate';
import { installAuthentication } from '../../src/server/auth/plugin';
import { createTokenVerifier } from '../../src/server/auth/token-verifier';
import { configFromEnv, PROJECT_ROOT, type ServerConfig } from '../../src/server/config';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import * as notificationsMigration from '../../src/server/db/migrations/0005_notifications';
import type { Database } from '../../src/server/db/schema';
import { installErrorHandler } from '../../src/server/http/error-handler';
import { createTestDatabase, type DatabaseKind } from './databases';
import { createTestIssuer, type TokenClaims } from './tokens';

/** One e-mail as the test SMTP server received it, with the parts tests look at decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  /** File names of attachments, with their decoded content. */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Connections that reached RCPT TO, accepted or refused. */
  attempts: number;
  /** While true, every recipient is refused with 550 (the mail is not taken). */
  refuse: boolean;
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 and a free port: plain, no STARTTLS, no AUTH. */
export async function startSmtpServer(options: { refuse?: boolean } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = {
    refuse: options.refuse ?? false,
    attempts: 0,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      state.attempts++;
      if (state.refuse) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          ...parseMail(raw),
          raw,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    get attempts() {
      return state.attempts;
    },
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): Buffer {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const text = part.body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(text, 'latin1');
  }
  return Buffer.from(part.body, 'utf8');
}

/** Enough MIME for tests: one text part, or multipart/mixed with a text part and attachments. */
function parseMail(raw: string): Omit<ReceivedMail, 'from' | 'to' | 'raw'> {
  const top = splitPart(raw);
  const subject = decodeHeader(top.headers.get('subject') ?? '');
  const type = top.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) {
    return { subject, text: trimEnd(decodeBody(top).toString('utf8')), attachments: [] };
  }
  const parts = top.body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => splitPart(p.replace(/^\r\n/, '')));
  let text = '';
  const attachments: ReceivedMail['attachments'] = [];
  for (const part of parts) {
    const partType = part.headers.get('content-type') ?? 'text/plain';
    const disposition = part.headers.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
    if (filename) {
      attachments.push({
        filename,
        contentType: partType.split(';')[0]!.trim(),
        content: decodeBody({ ...part, body: part.body.replace(/\r\n$/, '') }),
      });
    } else if (partType.startsWith('text/plain')) {
      text = trimEnd(decodeBody(part).toString('utf8'));
    }
  }
  return { subject, text, attachments };
}

function trimEnd(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
}

/**
 * RFC 2047 encoded words (nodemailer uses them for non-ASCII subjects). Adjacent words are one
 * text: the space between them is not part of it, and a character may be split across two
 * words, so their bytes are joined before they are read as UTF-8.
 */
function decodeHeader(value: string): string {
  const word = /=\?utf-8\?([bq])\?([^?]*)\?=/gi;
  const bytes = (kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
              String.fromCharCode(parseInt(hex, 16)),
            ),
          'latin1',
        );
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/(?:=\?utf-8\?[bq]\?[^?]*\?=)+/gi, (run) =>
      Buffer.concat([...run.matchAll(word)].map((m) => bytes(m[1]!, m[2]!))).toString('utf8'),
    );
}

/** One request the test SMS endpoint received. */
export interface ReceivedSms {
  authorization?: string;
  body: { to?: string; text?: string };
}

export interface TestSmsServer {
  url: string;
  received: ReceivedSms[];
  /** Status the endpoint answers with (202 by default). */
  status: number;
  close(): Promise<void>;
}

/** A real HTTP server standing for the SMS provider: takes POST JSON {to, text}. */
export async function startSmsServer(): Promise<TestSmsServer> {
  const received: ReceivedSms[] = [];
  const state = { status: 202 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (state.status < 300) {
        received.push({
          authorization: request.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedSms['body'],
        });
      }
      response.writeHead(state.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ accepted: state.status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    received,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A Fastify instance with only what the notifications and challenge plugins need: a test
 * database (migration 0005 applied even before it is in the migration list), the error handler
 * with the project's translations, and bearer-token authentication trusting a test issuer.
 */
export interface PluginHarness {
  app: FastifyInstance;
  database: DatabaseHandle;
  db: Kysely<Database>;
  config: ServerConfig;
  tokenFor(groups: string[], extra?: Partial<TokenClaims>): Promise<string>;
  call(
    method: 'GET' | 'POST',
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

const HARNESS_ISSUER = 'http://localhost:8080/realms/portal';

export async function startPluginHarness(
  kind: DatabaseKind,
  options: {
    config?: Partial<ServerConfig>;
    /** Mounts the plugins under test (awaited; Fastify's register is thenable). */
    register: (
      app: FastifyInstance,
      context: { db: Kysely<Database>; config: ServerConfig },
    ) => unknown;
  },
): Promise<PluginHarness> {
  const testDatabase = await createTestDatabase(kind);
  const config: ServerConfig = {
    ...configFromEnv({}),
    dataDir: testDatabase.dataDir,
    databaseUrl: testDatabase.databaseUrl,
    databaseSchema: testDatabase.schema,
    definitionsDir: PROJECT_ROOT,
    ...options.config,
  };
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    dataDir: config.dataDir,
  });
  await ensureNotificationTables(database.db);
  const issuer = await createTestIssuer(HARNESS_ISSUER);
  const app = Fastify({ logger: false });
  app.addHook('onClose', async () => database.close());
  installErrorHandler(app, await readTranslations());
  installAuthentication(
    app,
    await createTokenVerifier({ issuer: HARNESS_ISSUER, audience: 'portal' }, issuer.jwks),
  );
  await options.register(app, { db: database.db, config });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    config,
    tokenFor: (groups, extra = {}) =>
      issuer.token({ sub: `user-${groups.join('-') || 'none'}`, ...extra, groups }),
    call: (method, url, callOptions = {}) =>
      app.inject({
        method,
        url,
        headers: {
          ...(callOptions.token ? { authorization: `Bearer ${callOptions.token}` } : {}),
          ...(callOptions.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...callOptions.headers,
        },
        payload: callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body),
      }),
    async close() {
      await app.close();
      await testDatabase.cleanup();
    },
  };
}

/** Runs migration 0005 unless the migration list already did. */
export async function ensureNotificationTables(db: Kysely<Database>): Promise<void> {
  const found = await sql<{
    t: string | null;
  }>`select to_regclass('challenge')::text as t`.execute(db);
  if (!found.rows[0]?.t) await notificationsMigration.up(db as Kysely<unknown>);
}

/** translations/<lang>.json with the challenge namespace, as the definitions loader merges them. */
async function readTranslations(): Promise<Partial<Record<Language, TextTree>>> {
  const texts: Partial<Record<Language, TextTree>> = {};
  for (const language of LANGUAGES) {
    const dir = path.join(PROJECT_ROOT, 'translations');
    const tree = JSON.parse(
      await fs.readFile(path.join(dir, `${language}.json`), 'utf8'),
    ) as TextTree;
    tree.challenge = JSON.parse(
      await fs.readFile(path.join(dir, language, 'challenge.json'), 'utf8'),
    ) as TextTree;
    texts[language] = tree;
  }
  return texts;
}
