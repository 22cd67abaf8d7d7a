import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { copyDefinitions } from '../support/definitions-dir';
import { CodeFlow } from '../support/identity-client';
import { freePort } from '../support/portal-process';
import {
  startLoadBalancer,
  startServerProcess,
  type LoadBalancer,
  type ServerProcess,
} from '../support/server-processes';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

const VERIFICATION_LIMIT = 6;
const LOCKOUT_ATTEMPTS = 3;
const CODES = 12;

interface Health {
  status: string;
  definitions: { digest: string };
}

/**
 * The portal as a deployment past one machine runs it: two server processes, started together,
 * on one PostgreSQL schema and one definitions folder, behind a load balancer that hands each
 * request to the next process (no sticky sessions), with a real SMTP server. What one process
 * counts, queues, signs or stores, the other sees: the public check's rate limit, an account's
 * lockout, the sign-in itself and its end, the outbox (each message delivered once though both
 * work it), a catalogue entry (in searches at once, in what a process keeps in memory as soon as
 * it is told); and both say which definitions they run, a changed set reaching both when one
 * of them restarts with it.
 *
 * Several processes need a database server (PGlite is one process's embedded database), so
 * this runs with the other PostgreSQL runs of the API tests: when TEST_DATABASE_URL is set, and
 * then it fails if PostgreSQL does not answer (tests/support/databases.ts).
 */
describe.runIf(databaseKinds().includes('postgres'))(
  'two server processes on one PostgreSQL',
  () => {
    let database: TestDatabase;
    let definitions: Awaited<ReturnType<typeof copyDefinitions>>;
    let smtp: TestSmtpServer;
    let a: ServerProcess;
    let b: ServerProcess;
    let balancer: LoadBalancer;
    let sql: pg.Client;

    /** A request through the load balancer, to the named process or (without one) the next. */
    const call = (
      path: string,
      init: { method?: string; body?: unknown; token?: string; to?: 'a' | 'b'; from?: string } = {},
    ) =>
      fetch(`${balancer.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.to ? { 'x-backend': init.to } : {}),
          ...(init.from ? { 'x-forwarded-for': init.from } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    const health = async (server: ServerProcess) =>
      (await (await fetch(`${server.url}/api/health`)).json()) as Health;
    const countryTitle = async (server: ServerProcess) => {
      const bundle = (await (await fetch(`${server.url}/api/definitions`)).json()) as {
        catalogs: Array<{ id: string; labels: { en: { title: string } } }>;
      };
      return bundle.catalogs.find((c) => c.id === 'country')?.labels.en.title;
    };

    beforeAll(async () => {
      [database, definitions, smtp] = await Promise.all([
        createTestDatabase('postgres'),
        copyDefinitions(),
        startSmtpServer(),
      ]);
      const balancerPort = await freePort();
      const env = {
        DATABASE_URL: database.databaseUrl!,
        DATABASE_SCHEMA: database.schema!,
        DEFINITIONS_DIR: definitions.dir,
        // Every process answers at the load balancer's address: one issuer, one set of links.
        PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
        // The load balancer is on this machine: its X-Forwarded-For gives the client's address.
        TRUST_PROXY: 'loopback',
        COOKIE_KEYS: 'a-cookie-key-every-process-of-this-test-shares',
        SMTP_URL: smtp.url,
        CONFIRMATION_EMAIL: 'true',
        VERIFICATION_RATE_LIMIT: String(VERIFICATION_LIMIT),
        LOCKOUT_ATTEMPTS: String(LOCKOUT_ATTEMPTS),
        DEMO_DATA: 'true',
      };
      // Started together, as an orchestrator starts replicas: migrations and seeds meet.
      [a, b] = await Promise.all([startServerProcess('a', env), startServerProcess('b', env)]);
      balancer = await startLoadBalancer(balancerPort, [a, b]);
      sql = new pg.Client({
        connectionString: database.databaseUrl,
        options: `-c search_path="${database.schema}",public`,
      });
      await sql.connect();
    }, 600_000);

    afterAll(async () => {
      await sql?.end();
      await balancer?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await smtp?.close();
      await definitions?.remove();
      await database?.cleanup();
    }, 120_000);

    it('counts the public document check against one limit, whichever process serves it', async () => {
      const client = '203.0.113.10';
      const check = (to: 'a' | 'b') =>
        call('/api/evisa/verification', {
          method: 'POST',
          to,
          from: client,
          body: { number: 'VISA-2026-999999', secondFactor: 'nobody' },
        });
      const served: string[] = [];
      for (let i = 0; i < VERIFICATION_LIMIT; i++) {
        const response = await check(i % 2 === 0 ? 'a' : 'b');
        expect(response.status).toBe(404);
        served.push(response.headers.get('x-served-by') ?? '');
      }
      expect(served).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
      // Each process has seen half the limit; together they have seen all of it.
      for (const to of ['a', 'b'] as const) {
        const limited = await check(to);
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // Another client is not affected.
      const other = await call('/api/evisa/verification', {
        method: 'POST',
        to: 'a',
        from: '203.0.113.11',
        body: { number: 'VISA-2026-999999', secondFactor: 'nobody' },
      });
      expect(other.status).toBe(404);
    });

    it('keeps an account locked on one process after it was locked through the other', async () => {
      const flow = new CodeFlow(balancer.url);
      // The sign-in starts wherever the load balancer sends it: nothing is kept in one process.
      await flow.start();
      const through = (to: 'a' | 'b') => ({ 'x-backend': to, 'x-forwarded-for': '203.0.113.20' });
      const statuses: number[] = [];
      for (let i = 0; i < LOCKOUT_ATTEMPTS; i++) {
        await flow.submit({ username: 'sponsor', password: 'Wrong-Guess-0000' }, through('a'));
        statuses.push(flow.status);
      }
      expect(statuses).toEqual([401, 401, 423]);
      // The right password, through the other process: still locked.
      await flow.submit({ username: 'sponsor', password: 'Coral-Reef-3187' }, through('b'));
      expect(flow.status).toBe(423);
      expect(flow.callback).toBeUndefined();
    });

    it('delivers each queued message once, though both processes work the outbox', async () => {
      const recipients = Array.from({ length: CODES }, (_, i) => `multi-process-${i}@example.test`);
      // Queued through both processes; either may deliver any of them.
      for (const [i, destination] of recipients.entries()) {
        const response = await call('/api/challenge', {
          method: 'POST',
          to: i % 2 === 0 ? 'a' : 'b',
          from: '203.0.113.30',
          body: { channel: 'email', destination, purpose: 'registration' },
        });
        expect(response.status).toBe(201);
      }
      const rows = async () =>
        (
          await sql.query<{ recipient: string; status: string; attempts: number }>(
            'select recipient, status, attempts from outbox where recipient = any($1)',
            [recipients],
          )
        ).rows;
      await expect
        .poll(async () => (await rows()).filter((r) => r.status === 'SENT').length, {
          timeout: 120_000,
          interval: 250,
        })
        .toBe(CODES);
      // Claimed once each (a second claim would have counted a second attempt), received once each.
      expect((await rows()).map((r) => r.attempts)).toEqual(Array(CODES).fill(1));
      const received = recipients.map(
        (to) => smtp.received.filter((m) => m.to.includes(to)).length,
      );
      expect(received).toEqual(Array(CODES).fill(1));
    }, 300_000);

    it('signs in through either process and finds at once through one what was stored through the other', async () => {
      // The sign-in's requests alternate between the processes; the token is accepted by both.
      const { access_token: token } = await new CodeFlow(balancer.url).signIn(
        'catalogue',
        'Ledger-Stone-2976!',
      );
      // What each process offers a form's country field, asked before the entry exists: a
      // process that keeps the catalogue in memory keeps it without the new entry for now.
      const offered = async (to: 'a' | 'b') => {
        const response = await call('/api/catalog/v1/country/options?search=atlantis', {
          to,
          token,
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { items: Array<{ name: string }> }).items.map(
          (o) => o.name,
        );
      };
      expect(await offered('b')).toEqual([]);
      const created = await call('/api/catalog/v1/country', {
        method: 'POST',
        to: 'a',
        token,
        body: { code: 'XQ', name: 'Atlantis', startTime: '2020-01-01T00:00:00Z' },
      });
      expect(created.status).toBe(201);
      const entry = (await created.json()) as { id: string; data: Record<string, unknown> };
      const find = async (to: 'a' | 'b') => {
        const response = await call('/api/catalog/v1/country', {
          method: 'PATCH',
          to,
          token,
          body: { filter: [{ field: 'code', criterion: 'equals', value: 'XQ' }] },
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { items: Array<{ data: { name: string } }> }).items;
      };
      expect((await find('b')).map((item) => item.data.name)).toEqual(['Atlantis']);
      const edited = await call(`/api/catalog/v1/country/${entry.id}`, {
        method: 'PUT',
        to: 'b',
        token,
        body: { version: 1, data: { ...entry.data, name: 'Atlantis Nova' } },
      });
      expect(edited.status).toBe(200);
      expect((await find('a')).map((item) => item.data.name)).toEqual(['Atlantis Nova']);
      // What a process keeps in memory is told of the other's changes (a notice through the
      // database, delivered within moments, not at once: hence the wait with a deadline).
      await expect.poll(() => offered('b'), { timeout: 30_000 }).toEqual(['Atlantis Nova']);
      await expect.poll(() => offered('a'), { timeout: 30_000 }).toEqual(['Atlantis Nova']);
    }, 120_000);

    it('ends a session signed out through one process on the other too', async () => {
      const flow = new CodeFlow(balancer.url);
      const tokens = await flow.signIn('validator', 'Island-Chart-4518!');
      const inbox = () =>
        call('/api/evisa/dashboard/inbox', { to: 'b', token: tokens.access_token });
      expect((await inbox()).status).toBe(200);
      // Signing out as keycloak-js does, every step through process a.
      const onA = { 'x-backend': 'a' };
      const params = new URLSearchParams({
        client_id: 'portal',
        post_logout_redirect_uri: `${balancer.url}/`,
        id_token_hint: tokens.id_token!,
      });
      const page = await flow.browser.fetch(
        `${balancer.url}/realms/portal/protocol/openid-connect/logout?${params}`,
        { headers: onA },
      );
      const html = await page.text();
      const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
      const confirmed = await flow.browser.fetch(new URL(action, balancer.url).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...onA },
        body: new URLSearchParams({ xsrf, logout: 'yes' }),
      });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('x-served-by')).toBe('a');
      // Process b, which has just accepted the token, learns of the sign-out.
      await expect.poll(async () => (await inbox()).status, { timeout: 30_000 }).toBe(401);
    }, 120_000);

    it('reports one definitions digest, and a changed definition on both once one restarts with it', async () => {
      const before = (await health(a)).definitions.digest;
      expect(before).toMatch(/^[0-9a-f]{16}$/);
      expect((await health(b)).definitions.digest).toBe(before);

      const file = 'catalogs/country.json';
      const country = JSON.parse(await fs.readFile(path.join(definitions.dir, file), 'utf8')) as {
        labels: Record<'en' | 'fr', { title: string }>;
      };
      country.labels.en.title = 'Countries and territories';
      country.labels.fr.title = 'Pays et territoires';
      await definitions.write(file, country);

      // The deployment restarts one process with the changed folder: it records the files as
      // the newest set (docs/architecture.md), and the other, hearing it, switches to it too,
      // with no restart of its own.
      await a.restart();
      const changed = (await health(a)).definitions.digest;
      expect(changed).not.toBe(before);
      expect(await countryTitle(a)).toBe('Countries and territories');
      const deadline = Date.now() + 60_000;
      while ((await health(b)).definitions.digest !== changed) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await countryTitle(b)).toBe('Countries and territories');

      // The other's own restart, later, finds the set already recorded: nothing changes.
      await b.restart();
      expect((await health(b)).definitions.digest).toBe(changed);
      expect((await health(a)).definitions.digest).toBe(changed);
    }, 600_000);
  },
);
