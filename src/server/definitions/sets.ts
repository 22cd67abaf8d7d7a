import { createHash } from 'node:crypto';
import { DEPLOYMENT_AUTHOR, SET_NOTES } from '../../core/definitions/set-notes';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { DefinitionFiles } from './files';

/** A published set of definitions: what the server serves is the newest. */
export interface DefinitionSet {
  version: number;
  files: DefinitionFiles;
  digest: string;
  source: 'folder' | 'publish' | 'restore';
  note: string;
  publishedBy: string;
  publishedAt: Date;
}

/** A set without its files, as the list of versions shows it. */
export type DefinitionSetSummary = Omit<DefinitionSet, 'files'>;

/** The notice channel every process hears a publish on (db/change-notices.ts). */
export const DEFINITION_SET_CHANNEL = 'definition_set';

/** Who records the folder's files as a set: the deployment, not a person. */
export const DEPLOYMENT = DEPLOYMENT_AUTHOR;

/** A publish based on a version that is no longer the newest: someone published meanwhile. */
export class StaleSetError extends Error {
  constructor(readonly current: number) {
    super(`the definitions were published meanwhile: version ${current} is the newest`);
    this.name = 'StaleSetError';
  }
}

/** The same files give the same digest, whatever order they were read in. */
export function filesDigest(files: DefinitionFiles): string {
  const hash = createHash('sha256');
  for (const path of [...files.keys()].sort()) hash.update(`${path}\0${files.get(path)}\0`);
  return hash.digest('hex').slice(0, 16);
}

type Row = Database['definition_set'];

function summaryOf(row: Omit<Selectable<Row>, 'files'>): DefinitionSetSummary {
  return {
    version: row.version,
    digest: row.digest,
    source: row.source,
    note: row.note,
    publishedBy: row.published_by,
    publishedAt: new Date(row.published_at),
  };
}

function toSet(row: Selectable<Row>): DefinitionSet {
  return { ...summaryOf(row), files: new Map(Object.entries(row.files)) };
}

/** The newest set, or undefined before the first start recorded one. */
export async function newestSet(db: Kysely<Database>): Promise<DefinitionSet | undefined> {
  return setOfVersion(db);
}

/** One version (the newest without one), or undefined when there is none such. */
export async function setOfVersion(
  db: Kysely<Database>,
  version?: number,
): Promise<DefinitionSet | undefined> {
  const sets = db.selectFrom('definition_set').selectAll();
  const row = await (
    version === undefined
      ? sets.orderBy('version', 'desc').limit(1)
      : sets.where('version', '=', version)
  ).executeTakeFirst();
  return row && toSet(row);
}

/** Every version, newest first, without their files. */
export async function setHistory(db: Kysely<Database>): Promise<DefinitionSetSummary[]> {
  const rows = await db
    .selectFrom('definition_set')
    .select(['version', 'digest', 'source', 'note', 'published_by', 'published_at'])
    .orderBy('version', 'desc')
    .execute();
  return rows.map(summaryOf);
}

/** Serialises everyone recording a set (processes starting, publishes). */
async function lockSets(trx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('definition-sets'))`.execute(trx);
}

/**
 * The folder's files (`folderDigest`) changed since version `importedVersion` was recorded from
 * them, but `servedVersion` was published or restored since: it stays served, the folder unused.
 */
export type FolderConflict = Record<'importedVersion' | 'servedVersion', number> & {
  folderDigest: string;
};

/**
 * The set to serve at start: the folder's files, recorded as a new version when they differ from
 * the set last recorded from a folder (a deployment); otherwise the newest set. A changed folder
 * never replaces what the studio published after the folder's last import: that set stays
 * served and the disagreement is reported (`conflict`), so a deployment cannot silently undo an
 * analyst's work.
 */
export async function adoptFolder(
  db: Kysely<Database>,
  files: DefinitionFiles,
): Promise<{ set: DefinitionSet; conflict?: FolderConflict }> {
  return db.transaction().execute(async (trx) => {
    await lockSets(trx);
    const digest = filesDigest(files);
    const lastFromFolder = await trx
      .selectFrom('definition_set')
      .select(['digest', 'version'])
      .where('source', '=', 'folder')
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    const newest = await newestSet(trx);
    if (newest && (lastFromFolder?.digest === digest || newest.digest === digest))
      return { set: newest };
    if (newest && lastFromFolder && newest.source !== 'folder') {
      // Files the studio took (published) since the folder's last import settle the question.
      if (await recordedSince(trx, digest, lastFromFolder.version)) return { set: newest };
      const versions = { importedVersion: lastFromFolder.version, servedVersion: newest.version };
      return { set: newest, conflict: { folderDigest: digest, ...versions } };
    }
    const set = await insertSet(trx, (newest?.version ?? 0) + 1, files, {
      source: 'folder',
      note: newest ? SET_NOTES.deploymentChanged : SET_NOTES.firstStart,
      by: DEPLOYMENT,
    });
    return { set };
  });
}

/** Whether a set with `digest` was recorded after version `since`. */
async function recordedSince(
  db: Kysely<Database>,
  digest: string,
  since: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('definition_set')
    .select('version')
    .where('digest', '=', digest)
    .where('version', '>', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The conflict as it stands now: over (undefined) once the folder's files were taken (published
 * as they are) or kept aside (`keepOverFolder`) since their import, else naming the newest set.
 */
export async function folderConflictNow(
  db: Kysely<Database>,
  conflict: FolderConflict,
): Promise<FolderConflict | undefined> {
  if (await recordedSince(db, conflict.folderDigest, conflict.importedVersion)) return undefined;
  const newest = await db
    .selectFrom('definition_set')
    .select('version')
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { ...conflict, servedVersion: newest?.version ?? conflict.servedVersion };
}

/**
 * Keeps the served set over a changed folder, for good: the folder's files are recorded as a
 * version of their own (so the next start knows them and reports no conflict), and the set
 * `base` names, the newest, is recorded again on top, so it stays what every process serves.
 * Two versions, each saying what happened: nothing is hidden from the history.
 */
export async function keepOverFolder(
  db: Kysely<Database>,
  folder: DefinitionFiles,
  meta: { base: number; note: string; by: string },
): Promise<DefinitionSet> {
  return db.transaction().execute(async (trx) => {
    await lockSets(trx);
    const newest = await newestSet(trx);
    if (!newest || meta.base !== newest.version) throw new StaleSetError(newest?.version ?? 0);
    await insertSet(trx, newest.version + 1, folder, {
      source: 'folder',
      note: SET_NOTES.unserved(meta.by, newest.version),
      by: DEPLOYMENT,
    });
    return insertSet(trx, newest.version + 2, newest.files, {
      source: 'restore',
      note: meta.note,
      by: meta.by,
    });
  });
}

/**
 * Records `files` as the version after `base`, within `work` (which may refuse, throwing, and
 * then nothing is recorded): a base that is not the newest is refused with StaleSetError, so
 * of two publishes racing from the same version one wins and the other learns what it missed.
 */
export async function recordSet(
  db: Kysely<Database>,
  files: DefinitionFiles,
  /** `base`: the version the files were made from, the newest or the set is refused as stale. */
  meta: { base: number; note: string; by: string; source: 'publish' | 'restore' },
  /** `version`: the one the set is recorded as, once `work` is done. */
  work: (trx: Transaction<Database>, version: number) => Promise<void>,
): Promise<DefinitionSet> {
  return db.transaction().execute(async (trx) => {
    await lockSets(trx);
    const newest = await newestSet(trx);
    const current = newest?.version ?? 0;
    if (meta.base !== current) throw new StaleSetError(current);
    await work(trx, current + 1);
    return insertSet(trx, current + 1, files, meta);
  });
}

async function insertSet(
  trx: Transaction<Database>,
  version: number,
  files: DefinitionFiles,
  meta: { source: DefinitionSet['source']; note: string; by: string },
): Promise<DefinitionSet> {
  const row = await trx
    .insertInto('definition_set')
    .values({
      version,
      files: JSON.stringify(Object.fromEntries(files)),
      digest: filesDigest(files),
      source: meta.source,
      note: meta.note,
      published_by: meta.by,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSet(row);
}
