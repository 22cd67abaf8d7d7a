import type { Kysely } from 'kysely';
import {
  CASE_NOTE_MAX_LENGTH,
  isCaseOfficer,
  maySeeFlags,
  maySetFlag,
  mayUseCaseNotes,
  type CaseNote,
  type DocumentFlags,
} from '../../core/documents/case-work';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { asObject, invalid } from '../search/compile-search';
import { visibleRow } from './commands';
import {
  findCaseNote,
  insertCaseNote,
  listCaseNotes,
  reviseCaseNote,
  writeFlag,
  type CaseNoteEditRow,
  type CaseNoteRow,
} from './store/case-work';
import type { DocumentRow, VersionAuthor } from './store/rows';
import type { CompiledWorkflow } from './workflows';
import { iso } from './views';
import { UUID } from '../db/ids';

/**
 * Officers' own work on a document: its internal case notes and its flags (docs/workflows.md,
 * "Case notes and flags"). Only officers (`seeAll`) holding the declared roles reach them, and
 * never on a document they own: an applicant gets a 403, whatever else they hold.
 */

/** Refusals, said in the caller's language (translations/<lang>/case-work.json). */
const OFFICERS_ONLY = 'case-work.errors.officersOnly';
const NOTE_CHANGED = 'case-work.errors.noteChanged';

const forbidden = () => new ApiProblem(403, ERROR_CODES.forbidden, {}, undefined, OFFICERS_ONLY);

/** Who writes: the caller, by the name their token gives. */
function authorOf(principal: Principal): VersionAuthor {
  return {
    subject: principal.subject,
    name: principal.name ?? principal.preferredUsername ?? principal.subject,
    email: principal.email ?? null,
    mobile: principal.phoneNumber ?? null,
  };
}

/** A note's text from a body: a non-blank string of at most CASE_NOTE_MAX_LENGTH. */
function noteText(body: Record<string, unknown>): string {
  const text = typeof body.text === 'string' ? body.text.trim() : '';
  if (text.length === 0) throw invalid([{ path: '/text', rule: 'required' }]);
  if (text.length > CASE_NOTE_MAX_LENGTH)
    throw invalid([{ path: '/text', rule: 'maxLength', params: { limit: CASE_NOTE_MAX_LENGTH } }]);
  return text;
}

function caseNote(row: CaseNoteRow, edits: readonly CaseNoteEditRow[]): CaseNote {
  return {
    id: row.id,
    version: row.version,
    text: row.text,
    author: { subject: row.author, name: row.author_name },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    updatedBy: { subject: row.updated_by, name: row.updated_by_name },
    edits: edits
      .filter((edit) => edit.note_id === row.id)
      .map((edit) => ({
        version: edit.version,
        text: edit.text,
        by: { subject: edit.written_by, name: edit.written_by_name },
        at: iso(edit.written_at),
      })),
  };
}

/** Whether a reader of this document may see its flags (an officer who does not own it). */
export function seesFlagsOf(
  workflow: CompiledWorkflow,
  principal: Principal,
  row: Pick<DocumentRow, 'owner'>,
): boolean {
  return maySeeFlags(workflow.definition, principal.roles) && row.owner !== principal.subject;
}

/** Whether the caller is an officer of the workflow, who may filter its lists by flags. */
export function filtersByFlags(workflow: CompiledWorkflow, principal: Principal): boolean {
  return maySeeFlags(workflow.definition, principal.roles);
}

export class CaseWorkService {
  constructor(
    private readonly db: Kysely<Database>,
    /** The workflow a type names (404 for an unknown one): the documents service's. */
    private readonly workflowOf: (type: string) => CompiledWorkflow,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The document, if the caller may use its case notes (403), sees it (404) and is no owner (403). */
  private async notesDocument(type: string, principal: Principal, id: string, forUpdate = false) {
    const workflow = this.workflowOf(type);
    if (!workflow.definition.caseNotes) throw new ApiProblem(404, ERROR_CODES.notFound);
    if (!mayUseCaseNotes(workflow.definition, principal.roles)) throw forbidden();
    const row = await visibleRow(this.db, workflow, principal, id, forUpdate);
    if (row.owner === principal.subject) throw forbidden();
    return row;
  }

  async notes(type: string, principal: Principal, id: string): Promise<{ items: CaseNote[] }> {
    const row = await this.notesDocument(type, principal, id);
    const { notes, edits } = await listCaseNotes(this.db, row.id);
    return { items: notes.map((note) => caseNote(note, edits)) };
  }

  async addNote(type: string, principal: Principal, id: string, body: unknown): Promise<CaseNote> {
    const text = noteText(asObject(body));
    const row = await this.notesDocument(type, principal, id);
    return caseNote(
      await insertCaseNote(this.db, row.id, text, authorOf(principal), this.clock()),
      [],
    );
  }

  /** A note's new text, if the caller read its current version (else 409: no edit is lost). */
  async editNote(
    type: string,
    principal: Principal,
    id: string,
    noteId: string,
    body: unknown,
  ): Promise<CaseNote> {
    const request = asObject(body);
    const text = noteText(request);
    const version = request.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
      throw invalid([{ path: '/version', rule: 'required' }]);
    const row = await this.notesDocument(type, principal, id);
    if (!UUID.test(noteId)) throw new ApiProblem(404, ERROR_CODES.notFound);
    return this.db.transaction().execute(async (trx) => {
      const note = await findCaseNote(trx, row.id, noteId);
      if (!note) throw new ApiProblem(404, ERROR_CODES.notFound);
      if (note.version !== version)
        throw new ApiProblem(
          409,
          ERROR_CODES.staleVersion,
          { version: note.version },
          undefined,
          NOTE_CHANGED,
        );
      const revised = await reviseCaseNote(trx, note, text, authorOf(principal), this.clock());
      const { edits } = await listCaseNotes(trx, row.id);
      return caseNote(revised, edits);
    });
  }

  /** The flags set on the document, for an officer who does not own it. */
  async flags(type: string, principal: Principal, id: string): Promise<DocumentFlags> {
    const workflow = this.workflowOf(type);
    if (!workflow.definition.flags) throw new ApiProblem(404, ERROR_CODES.notFound);
    if (!isCaseOfficer(workflow.definition, principal.roles)) throw forbidden();
    const row = await visibleRow(this.db, workflow, principal, id);
    if (!seesFlagsOf(workflow, principal, row)) throw forbidden();
    return { flags: declaredFlags(workflow, row.flags) };
  }

  /** Sets (`set`) or clears a declared flag; each change is a line of the document's history. */
  async setFlag(
    type: string,
    principal: Principal,
    id: string,
    flag: string,
    set: boolean,
  ): Promise<DocumentFlags> {
    const workflow = this.workflowOf(type);
    const declared = workflow.definition.flags;
    if (!declared || !Object.hasOwn(declared, flag))
      throw new ApiProblem(404, ERROR_CODES.notFound);
    if (!maySetFlag(workflow.definition, principal.roles, flag)) throw forbidden();
    return this.db.transaction().execute(async (trx) => {
      const row = await visibleRow(trx, workflow, principal, id, true);
      if (row.owner === principal.subject) throw forbidden();
      await writeFlag(trx, row, flag, set, authorOf(principal));
      const flags = new Set(row.flags);
      if (set) flags.add(flag);
      else flags.delete(flag);
      return { flags: declaredFlags(workflow, [...flags]) };
    });
  }
}

/** The flags a row holds that the workflow still declares, in its order. */
export function declaredFlags(workflow: CompiledWorkflow, stored: readonly string[]): string[] {
  return Object.keys(workflow.definition.flags ?? {}).filter((flag) => stored.includes(flag));
}
