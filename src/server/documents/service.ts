import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type {
  DocumentSummary,
  DocumentView,
  HistoryEntry,
  VersionSummary,
} from '../../core/documents/types';
import { translate, type Language } from '../../core/i18n/translate';
import type { SearchResult } from '../../core/search/protocol';
import { fullRoles } from '../../core/documents/workflow';
import { holdsAnyRole, type Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { asObject, invalid, type SearchField } from '../search/compile-search';
import { allowedActions, requireAction, requireListAccess, visibility } from './access';
import { certificatePdf } from './certificate';
import { holderLanguageOf } from './holder-language';
import { holdersOf, type CertificateHolder } from '../../core/documents/certificate-holders';
import { DocumentCommands, visibleRow } from './commands';
import { listScope } from './list-where';
import { documentChoiceOptions } from './document-choices';
import type { EffectEnvironment } from './effect-context';
import { foldedText } from '../db/list-indexes';
import { assignableAccounts } from './assignment';
import { ownerNames } from './store/lookups';
import { authorName, authorOfLine, authorPolicy, type AuthorPolicy } from './public-actors';
import {
  DELETED,
  HEADER_FIELDS,
  assigneeName,
  dataText,
  searchRows,
  visibleTo,
  type SearchLimits,
} from './store/lists';
import { findVersion, listHistory, listVersions } from './store/rows';
import { pendingTimers } from './timer-rows';
import { documentSummary, documentView, historyEntry, iso, summaryPointers } from './views';
import type { CompiledWorkflow } from './workflows';

/** The documents of one backend, by type: the reads; commands.ts has the commands. */
export class DocumentService extends DocumentCommands {
  constructor(
    db: Kysely<Database>,
    workflows: Map<string, CompiledWorkflow>,
    private readonly searchLimits: SearchLimits,
    environment: EffectEnvironment = { publicUrl: '', texts: {} },
  ) {
    super(db, workflows, environment);
  }

  async read(type: string, principal: Principal, id: string): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const row = await visibleRow(this.db, workflow, principal, id);
    // The timers it waits on in its status (a reply due): the screen says by when.
    const timers = await pendingTimers(this.db, workflow.definition, row);
    return withAuthors(
      documentView(row, allowedActions(workflow, row, principal), timers),
      this.authors(workflow, principal),
    );
  }

  async versions(type: string, principal: Principal, id: string): Promise<VersionSummary[]> {
    const workflow = this.workflow(type);
    const { id: documentId } = await visibleRow(this.db, workflow, principal, id);
    const rows = await listVersions(this.db, documentId);
    const authors = this.authors(workflow, principal);
    return rows.map((r) => ({ ...r, at: iso(r.at), by: authorName(r.by, authors) }));
  }

  /** One earlier version as it was written; nothing can be done on it. */
  async readVersion(
    type: string,
    principal: Principal,
    id: string,
    version: number,
  ): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const current = await visibleRow(this.db, workflow, principal, id);
    const row = await findVersion(this.db, current.id, version);
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    const { status, data, assignee } = row;
    const earlier = { ...current, status, version: row.version, data, assignee };
    const view = documentView({ ...earlier, updated_at: row.at, updated_by: row.by }, []);
    return withAuthors(view, this.authors(workflow, principal));
  }

  /** The history; the service's own notes in `language` (English unless said). */
  async history(
    type: string,
    principal: Principal,
    id: string,
    language: Language = 'en',
  ): Promise<HistoryEntry[]> {
    const workflow = this.workflow(type);
    const { id: documentId } = await visibleRow(this.db, workflow, principal, id);
    const rows = await listHistory(this.db, documentId);
    const authors = this.authors(workflow, principal);
    // The line of an assignment says to whom, to those who may know officers' names.
    const assigning = (row: (typeof rows)[number]) =>
      row.assignee !== null &&
      workflow.definition.actions[row.action]?.payload === 'assignee' &&
      (authors.officer || authors.officerNames);
    // The assignees' names, those that are accounts (other ids are left out).
    const accountType = this.environment.accounts?.type;
    const assignees = rows.filter(assigning).map((row) => row.assignee!);
    const names = accountType
      ? await ownerNames(this.db, accountType, assignees)
      : new Map<string, string>();
    return rows.map((row) => {
      const entry = historyEntry(authorOfLine(row, authors), (note) =>
        translate(this.environment.texts, language, note.key, note.params),
      );
      return assigning(row)
        ? { ...entry, assignedTo: names.get(row.assignee!) ?? row.assignee! }
        : entry;
    });
  }

  /** A workflow's finder (no list: what the caller may see) or one of its lists, searched. */
  async search(
    type: string,
    principal: Principal,
    body: unknown,
  ): Promise<SearchResult<DocumentSummary>> {
    const workflow = this.workflow(type);
    const request = asObject(body);
    const listId = request.list;
    const list =
      typeof listId === 'string'
        ? workflow.definition.lists.find((l) => l.id === listId)
        : undefined;
    if (listId !== undefined && !list) throw invalid([{ path: '/list', rule: 'enum' }]);
    const columns = list?.columns ?? [];
    const fields: Record<string, SearchField> = { ...HEADER_FIELDS };
    for (const column of columns) {
      // Sorted and matched on the folded text the list's indexes hold (db/list-indexes.ts).
      if (column.pointer)
        fields[column.field] = {
          kind: 'text',
          sql: dataText(column.pointer),
          folded: foldedText(column.pointer),
        };
    }
    // The assignee's name, when the list shows it (an "Assigned to" column).
    const namesAssignee = columns.some((c) => c.field === 'assigneeName' && !c.pointer);
    const accountType = this.environment.accounts?.type;
    if (namesAssignee) fields.assigneeName = { kind: 'text', sql: assigneeName(accountType) };
    requireListAccess(workflow, principal, list);
    // A list's statuses, roles, assignment and `where`; an inbox's lists show only one's own.
    const scope: RawBuilder<SqlBool> = list
      ? sql<SqlBool>`(${listScope(type, list, workflow.entity.schema)}${
          list.assignment === 'me'
            ? sql` and assignee = ${principal.subject}`
            : list.assignment === 'unassigned'
              ? sql` and assignee is null`
              : list.assignment === 'assigned'
                ? sql` and assignee is not null`
                : sql``
        }${
          workflow.definition.inbox
            ? sql` and ${visibleTo(type, visibility(workflow, principal))}`
            : sql``
        })`
      : sql<SqlBool>`(${visibleTo(type, visibility(workflow, principal))} and status <> ${DELETED})`;
    const key = workflow.definition.key;
    const pointers = summaryPointers(columns, key);
    const { rows, page } = await searchRows(
      this.db,
      request,
      fields,
      scope,
      this.searchLimits,
      pointers,
      namesAssignee ? { accountType } : undefined,
    );
    return {
      items: rows.map((row) => documentSummary(row, pointers, columns, key)),
      ...page,
    };
  }

  /** The language a document's holder is written to in (its notices and PDFs speak it). */
  holderLanguage(
    type: string,
    document: { owner: string; data: Record<string, unknown> },
  ): Promise<Language> {
    const workflow = this.workflow(type);
    return holderLanguageOf(this.db, this.environment.accounts, workflow.definition, document);
  }

  /**
   * The issued document as a PDF in the holder's language, for its owner and the certificate's
   * roles in its statuses (else 409); with `holderNumber`, that person's (else 404).
   */
  async certificate(
    type: string,
    principal: Principal,
    id: string,
    holderNumber?: string,
  ): Promise<{ filename: string; pdf: Uint8Array }> {
    const workflow = this.workflow(type);
    const certificate = workflow.definition.certificate;
    if (!certificate) throw new ApiProblem(404, ERROR_CODES.notFound);
    const row = await visibleRow(this.db, workflow, principal, id);
    const roles = fullRoles(workflow.definition, certificate.roles);
    if (row.owner !== principal.subject && !holdsAnyRole(principal, roles))
      throw new ApiProblem(403, ERROR_CODES.forbidden);
    if (!certificate.statuses.includes(row.status))
      throw new ApiProblem(409, ERROR_CODES.actionNotAllowed, {
        action: 'certificate',
        status: row.status,
      });
    let holder: CertificateHolder | undefined;
    if (holderNumber !== undefined) {
      const wanted = holderNumber.trim().toUpperCase();
      holder = certificate.holders
        ? holdersOf(certificate.holders, row.data).find((one) => one.number === wanted)
        : undefined;
      if (!holder) throw new ApiProblem(404, ERROR_CODES.notFound);
    }
    const pdf = await certificatePdf({
      db: this.db,
      workflow: { ...workflow.definition, certificate },
      entity: workflow.entity,
      document: row,
      environment: this.environment,
      language: await this.holderLanguage(type, row),
      holder,
    });
    return { filename: `${holder?.number ?? row.number ?? row.id}.pdf`, pdf };
  }

  /** The documents a `documentChoices` field of this type's form may name (its options). */
  choices(type: string, document: string) {
    return documentChoiceOptions(this.db, this.workflow(type).entity, document);
  }

  /** Whom an action taking an assignee may assign to, for its roles; another action is a 404. */
  async assignees(type: string, principal: Principal, action: string) {
    const workflow = this.workflow(type);
    const definition = requireAction(workflow, action, principal);
    if (definition.payload !== 'assignee') throw new ApiProblem(404, ERROR_CODES.notFound);
    return {
      items: await assignableAccounts(this.db, this.environment, workflow.definition, action),
    };
  }

  /** What the caller may read of who wrote what (public-actors.ts). */
  private authors(workflow: CompiledWorkflow, principal: Principal): AuthorPolicy {
    return authorPolicy(workflow, principal, this.environment.officerNamesToPublic);
  }
}

/** A document's creator and last editor as the reader may read them. */
function withAuthors(view: DocumentView, authors: AuthorPolicy): DocumentView {
  return {
    ...view,
    createdBy: authorName(view.createdBy, authors),
    updatedBy: authorName(view.updatedBy, authors),
  };
}
