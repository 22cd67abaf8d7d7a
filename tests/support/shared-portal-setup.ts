import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { definitionsWithFixtures } from './definitions-dir';
import { freePort, startPortal, type PortalProcess } from './portal-process';
import {
  SHARED_PORTAL_KINDS,
  type SharedPortalAddress,
  type SharedPortalKind,
} from './shared-portal';

/** The configuration each kind of shared portal starts with, and what to remove after it. */
async function configuration(
  kind: SharedPortalKind,
): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  if (kind === 'demo') return { env: {}, remove: async () => undefined };
  const definitions = await definitionsWithFixtures();
  return { env: { DEFINITIONS_DIR: definitions.dir }, remove: definitions.remove };
}

/**
 * The e2e project's global setup, after the PGlite template's: starts each shared portal that a
 * file of this run asks for (by `sharedPortal('<kind>')` in its source), in the background so
 * the run's first files start at once, and stops them when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kinds = await kindsAskedFor(project);
  const template = project.getProvidedContext().pgliteTemplate;
  const portals: Array<Promise<PortalProcess | undefined>> = [];
  const removals: Array<() => Promise<void>> = [];
  const addresses: Partial<Record<SharedPortalKind, SharedPortalAddress>> = {};
  for (const kind of kinds) {
    const { env, remove } = await configuration(kind);
    removals.push(remove);
    const port = await freePort();
    const failureFile = path.join(os.tmpdir(), `portal-shared-${kind}-${port}.failed`);
    const started = startPortal(env, { port, pgliteTemplate: template });
    portals.push(
      started.catch((error: unknown) => {
        fs.writeFileSync(
          failureFile,
          `The shared '${kind}' portal did not start: ${String(error)}`,
        );
        return undefined;
      }),
    );
    addresses[kind] = { url: `http://localhost:${port}`, failureFile };
  }
  project.provide('sharedPortals', addresses);
  return async () => {
    for (const portal of await Promise.all(portals)) await portal?.stop();
    for (const remove of removals) await remove();
    for (const address of Object.values(addresses)) fs.rmSync(address.failureFile, { force: true });
  };
}

/** The kinds of shared portal the test files of this run name. */
async function kindsAskedFor(project: TestProject): Promise<SharedPortalKind[]> {
  // The files given on the command line, or all of the project's.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters ?? []);
  const sources = testFiles.map((file) => fs.readFileSync(file, 'utf8'));
  return SHARED_PORTAL_KINDS.filter((kind) =>
    sources.some((source) => source.includes(`sharedPortal('${kind}')`)),
  );
}
