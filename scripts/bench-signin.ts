/**
 * `npm run bench:signin` — does a sign-in's answer tell a known login from an unknown one?
 * Starts the portal in this process on a fresh embedded database with the demo accounts,
 * then posts wrong passwords through the real sign-in page, alternating a known login and an
 * unknown one, and prints each kind's median and spread of response time and their gap.
 * Lockout and address throttling are off for the run (they would answer early, which is what
 * they are for). docs/security.md keeps the figures.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from '../src/server/process';
import { configFromEnv } from '../src/server/config';
import { serverModules } from '../src/modules/server';
import { CodeFlow } from '../tests/support/identity-client';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '60' } } });
const rounds = Number(values.rounds);

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-signin-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const publicUrl = `http://127.0.0.1:${port}`;
const base = configFromEnv({});
const server = await buildServer(
  {
    ...base,
    publicUrl,
    dataDir,
    databaseUrl: undefined,
    demoData: true,
    auth: { ...base.auth, issuer: `${publicUrl}/realms/portal` },
    identity: {
      ...base.identity,
      lockoutAttempts: 0,
      addressThrottle: { ...base.identity.addressThrottle, failures: 0 },
    },
  },
  serverModules,
  { logger: false },
);
await server.listen({ port, host: '127.0.0.1' });

const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
try {
  const flow = new CodeFlow(publicUrl);
  await flow.start();
  // Warm-up: the first hashes and queries of a fresh process are slower for both kinds.
  for (let i = 0; i < 4; i++)
    await flow.submit({ username: i % 2 ? 'applicant' : 'nobody', password: 'Wrong-1234' });
  for (let i = 0; i < rounds * 2; i++) {
    const kind = i % 2 === 0 ? 'known' : 'unknown';
    const username = kind === 'known' ? 'applicant' : `nobody-${i}`;
    const started = performance.now();
    await flow.submit({ username, password: `Wrong-${i}` });
    timings[kind].push(performance.now() - started);
    if (flow.status !== 401) throw new Error(`expected 401, got ${flow.status}`);
  }
} finally {
  await server.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const quartiles = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return [
    sorted[Math.floor(sorted.length / 4)] ?? 0,
    sorted[Math.floor((3 * sorted.length) / 4)] ?? 0,
  ];
};
const known = median(timings.known);
const unknown = median(timings.unknown);
const gap = Math.abs(known - unknown) / Math.max(known, unknown);
const row = (name: string, list: number[]) =>
  `| ${name} | ${list.length} | ${median(list).toFixed(0)} ms | ${quartiles(list)
    .map((q) => `${q.toFixed(0)} ms`)
    .join(' to ')} |`;
process.stdout.write(
  [
    '| login | attempts | median | middle half |',
    '| --- | --- | --- | --- |',
    row('known, wrong password', timings.known),
    row('unknown', timings.unknown),
    '',
    `gap between the medians: ${(gap * 100).toFixed(1)} %`,
    '',
  ].join('\n'),
);
