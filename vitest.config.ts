import os from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/support/longest-first.ts';

/**
 * Four projects, all run by `npm test`: unit (pure functions), component (React in jsdom), api (the real server on PGlite,
 * and on PostgreSQL when TEST_DATABASE_URL is set), e2e (the built portal in Debian's Chromium).
 * `npm test` runs the unit project in its first stage, beside lint, typecheck and the build
 * (scripts/checks), and the other three together once that stage has passed.
 */
export default defineConfig({
  test: {
    // One test file per core at a time. Vitest's default keeps a core for itself (one worker on
    // a 2-core machine), and then runs every file of every project one after another: the API
    // files, which keep one core busy each, never ran beside the end-to-end ones.
    maxWorkers: os.availableParallelism(),
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // The longest file first, so that it runs beside the others rather than alone at the end.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // As for the api project: the definitions' modules are loaded once per worker, not per
          // file; the unit tests mock nothing and keep no state between files.
          isolate: false,
          // Loading every definition takes seconds when the API and e2e projects load both cores.
          testTimeout: 60_000,
          // So do the hooks that load them (validator-cache.test.ts), on a busy machine.
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // A worker runs its files one after another in one module graph: the server's modules
          // (Fastify, ajv, oidc-provider, PGlite's WebAssembly) are loaded and compiled once per
          // worker rather than once per file. Each suite still builds its own server and
          // database; the suites mock nothing and change no shared module state.
          isolate: false,
          // One migrated PGlite folder per run, copied by each suite's server.
          globalSetup: ['./tests/support/pglite-global-setup.ts'],
          testTimeout: 60_000,
          // A suite's setup (a portal, its migrations and seeds) has passed two minutes when the
          // e2e project loads both cores.
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 300_000,
          // Two files at a time, beside the other projects' files: an end-to-end file mostly
          // waits on its browser and portal, so two of them keep the cores busier than one.
          // The files that can share a portal share one, started once for the run
          // (tests/support/shared-portal.ts); the others start their own.
          globalSetup: [
            './tests/support/pglite-global-setup.ts',
            './tests/support/shared-portal-setup.ts',
          ],
          // The persona walk's personas (its `it.concurrent` tests) three at a time: a walk
          // mostly waits on its pages, and more would crowd the cores the other files need.
          maxConcurrency: 3,
          // expect.poll waits for the browser the way Playwright's locators do (1 s by default,
          // too short while API tests load both cores).
          expect: { poll: { timeout: 30_000 } },
        },
      },
      {
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['./tests/component/setup.ts'],
          globalSetup: ['./tests/component/global-setup.ts'],
          // @rjsf/mantine imports dayjs plugins without extensions: let Vite resolve them.
          server: { deps: { inline: [/@rjsf\/mantine/, /@mantine\/dates/] } },
          testTimeout: 30_000,
        },
      },
    ],
  },
});
