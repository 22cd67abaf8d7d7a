import fs from 'node:fs';
import { inject } from 'vitest';
import type { PortalProcess } from './portal-process';

/**
 * The portals the end-to-end files of one run share, each started once by the e2e project's
 * global setup (tests/support/shared-portal-setup.ts) instead of once per file:
 * - `demo`: the project's definitions and demo data, as `startPortal()` starts it;
 * - `fixtures`: the definitions with tests/fixtures/definitions laid over them.
 * A file may share one when it changes nothing another file reads: it works with accounts and
 * documents of its own (or only reads the demo data), never restarts the portal nor reads its
 * logs, and asks for no configuration of its own. Files run two at a time, so a shared portal
 * serves two files at once.
 */
export const SHARED_PORTAL_KINDS = ['demo', 'fixtures'] as const;
export type SharedPortalKind = (typeof SHARED_PORTAL_KINDS)[number];

/** A shared portal as the global setup hands it to the files. */
export interface SharedPortalAddress {
  url: string;
  /** Written by the global setup when the portal failed to start: the reason and its logs. */
  failureFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedPortals: Partial<Record<SharedPortalKind, SharedPortalAddress>>;
  }
}

/**
 * The run's shared portal of that kind, once it answers. It starts in the background while the
 * run's first files work, so the first file to ask may wait for it. Stopping it is the global
 * setup's business: `stop()` does nothing, `restart()` and `logs()` refuse (a file that needs
 * them starts a portal of its own).
 */
export async function sharedPortal(kind: SharedPortalKind): Promise<PortalProcess> {
  const address = inject('sharedPortals')[kind];
  if (!address)
    throw new Error(
      `No shared '${kind}' portal: the e2e global setup starts one for the files that call sharedPortal('${kind}')`,
    );
  await serving(address);
  const refuse = (what: string) => () => {
    throw new Error(`A shared portal cannot ${what}: start a portal of the file's own`);
  };
  return {
    url: address.url,
    // Made by the portal's process in the global setup; no file that shares a portal reads it.
    dataDir: '',
    restart: async () => refuse('restart')(),
    stop: async () => undefined,
    logs: refuse('show its logs'),
  };
}

/** Waits until the portal answers its health check, or its start is known to have failed. */
async function serving(address: SharedPortalAddress): Promise<void> {
  // As waitForHealth: a start on a loaded 2-core machine has taken over a minute.
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (fs.existsSync(address.failureFile))
      throw new Error(fs.readFileSync(address.failureFile, 'utf8'));
    const healthy = await fetch(`${address.url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The shared portal at ${address.url} did not become healthy within 240 s`);
}
