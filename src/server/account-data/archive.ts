import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Kysely } from 'kysely';
import type { DocumentView, HistoryEntry } from '../../core/documents/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { Language } from '../../core/i18n/translate';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import type { DocumentService } from '../documents/service';
import { documentsHeldBy } from '../documents/store/holder-documents';
import { ApiProblem } from '../http/api-error';
import { ARCHIVE_README } from './readme';

/** How the archive finds the workflow and the document service of each document type. */
export interface ArchiveSources {
  db: Kysely<Database>;
  workflowOf(type: string): WorkflowDefinition | undefined;
  documentsOf(type: string): DocumentService | undefined;
}

/** One document as its holder may read it: now, each earlier version, and its history. */
export interface ArchivedDocument {
  document: Omit<DocumentView, 'allowedActions'>;
  versions: Array<{
    version: number;
    status: string;
    action: string;
    at: string;
    by: string;
    data: Record<string, unknown>;
  }>;
  history: HistoryEntry[];
}

/** What went into an archive, for its audit line. */
export interface ArchiveSummary {
  documents: number;
  messages: number;
  uploads: number;
}

/** A name safe as one segment of a path in the archive (no separators, no dot-dot). */
export function safeSegment(value: string): string {
  const cleaned = value.replace(/[^\p{L}\p{N} ._()-]/gu, '_').replace(/^\.+/, '_');
  return cleaned.slice(0, 120) || '_';
}

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Reads one document through the document service as `principal` (its holder) may: the same
 * answers the portal gives them, officer names and case notes withheld as they are there.
 * Undefined when the holder may not read it (a workflow they have no role of any more).
 */
async function archived(
  documents: DocumentService,
  principal: Principal,
  type: string,
  id: string,
  language: Language,
): Promise<ArchivedDocument | undefined> {
  try {
    const { allowedActions: _actions, ...document } = await documents.read(type, principal, id);
    // Oldest first: the archive reads as the document's life did.
    const summaries = (await documents.versions(type, principal, id)).sort(
      (a, b) => a.version - b.version,
    );
    const versions = [];
    for (const summary of summaries) {
      const earlier = await documents.readVersion(type, principal, id, summary.version);
      versions.push({ ...summary, data: earlier.data });
    }
    const history = await documents.history(type, principal, id, language);
    return { document, versions, history };
  } catch (error) {
    if (error instanceof ApiProblem && [403, 404].includes(error.status)) return undefined;
    throw error;
  }
}

/**
 * The person's own data as one ZIP (docs/identity.md, "My data and closing an account"):
 * `account.json`, `documents/<type>/<number or id>.json`, `messages.json`, `uploads/<id>-<name>`
 * and `README.txt`. Only what `principal` holds: another person's documents never come in.
 */
export async function buildArchive(
  sources: ArchiveSources,
  principal: Principal,
  language: Language,
  now: Date,
): Promise<{ zip: Uint8Array; summary: ArchiveSummary }> {
  const files: Zippable = {};
  let account: ArchivedDocument | undefined;
  const messages: ArchivedDocument[] = [];
  let documentCount = 0;
  const usedPaths = new Set<string>();
  for (const { id, type } of await documentsHeldBy(sources.db, principal.subject)) {
    const workflow = sources.workflowOf(type);
    const documents = sources.documentsOf(type);
    if (!workflow || !documents) continue;
    const entry = await archived(documents, principal, type, id, language);
    if (!entry) continue;
    if (workflow.account && id === principal.subject) account = entry;
    else if (workflow.inbox) messages.push(entry);
    else {
      let path = `documents/${safeSegment(type)}/${safeSegment(entry.document.number ?? id)}.json`;
      if (usedPaths.has(path)) path = `documents/${safeSegment(type)}/${id}.json`;
      usedPaths.add(path);
      files[path] = json(entry);
      documentCount += 1;
    }
  }
  const uploads = await sources.db
    .selectFrom('media')
    .select(['id', 'name', 'type', 'size', 'created_at', 'content'])
    .where('owner', '=', principal.subject)
    .orderBy('created_at')
    .execute();
  for (const upload of uploads) {
    // Already compressed (PDF, PNG, JPEG): stored as they are.
    files[`uploads/${upload.id}-${safeSegment(upload.name)}`] = [
      new Uint8Array(upload.content),
      { level: 0 },
    ];
  }
  files['account.json'] = json({
    exportedAt: now.toISOString(),
    subject: principal.subject,
    account: account ?? null,
    uploads: uploads.map(({ content: _content, created_at, ...upload }) => ({
      ...upload,
      uploadedAt: new Date(created_at).toISOString(),
      file: `uploads/${upload.id}-${safeSegment(upload.name)}`,
    })),
  });
  files['messages.json'] = json(messages);
  files['README.txt'] = strToU8(ARCHIVE_README);
  const summary = { documents: documentCount, messages: messages.length, uploads: uploads.length };
  return { zip: zipSync(files, { level: 6, mtime: now }), summary };
}
