import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type {
  DocumentSummary,
  DocumentView,
  HistoryEntry,
  VersionSummary,
} from '../../core/documents/types';
import { translate, type Language } from '../../core/i18n/translate';
import type { SearchResult } from '../../core/search/protocol';
import { holdsAnyRole, type Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { SearchField } from '../search/compile-search';
import { allowedActions, requireListAccess, visibility } from './access';
import { certificatePdf } from './certificate';
import { holderLanguageOf } from './holder-language';
import { holdersOf, type CertificateHolder } from '../../core/documents/certificate-holders';
import { asObject, visibleRow } from './commands';
import { listWhere } from './list-where';
import { documentChoiceOptions } from './document-choices';
import type { EffectEnvironment } from './effect-context';
import { foldedText } from '../db/list-indexes';
import { accountNames } from './assignment';
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
import { documentSummary, documentView, historyEntry, iso, summaryPointers } from './views';
import type { CompiledWorkflow } from './workflows';

/**
 * The query side of documents: one document, its versions and history, a workflow's finder
 * and lists, its certificate. Who sees what is the access policy's answer (access.ts), applied
 * by the store.
 */
export class DocumentQueries {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly searchLimits: SearchLimits,
    private readonly environment: EffectEnvironment,
  ) {}

  async read(workflow: CompiledWorkflow, principal: Principal, id: string): Promise<DocumentView> {
    const row = await visibleRow(this.db, workflow, principal, id);
    return withAuthors(
      documentView(row, allowedActions(workflow, row, principal)),
      this.authors(workflow, principal),
    );
  }

  /** What the caller may read of who wrote what (public-actors.ts). */
  private authors(workflow: CompiledWorkflow, principal: Principal): AuthorPolicy {
    return authorPolicy(workflow, principal, this.environment.officerNamesToPublic);
  }

  async versions(
    workflow: CompiledWorkflow,
    principal: Principal,
    id: string,
  ): Promise<VersionSummary[]> {
    const { id: documentId } = await visibleRow(this.db, workflow, principal, id);
    const rows = await listVersions(this.db, documentId);
    const authors = this.authors(workflow, principal);
    return rows.map((r) => ({ ...r, at: iso(r.at), by: authorName(r.by, authors) }));
  }

  /** One earlier version as it was written; nothing can be done on it. */
  async readVersion(
    workflow: CompiledWorkflow,
    principal: Principal,
    id: string,
    version: number,
  ): Promise<DocumentView> {
    const current = await visibleRow(this.db, workflow, principal, id);
    const row = await findVersion(this.db, current.id, version);
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    return withAuthors(
      documentView(
        {
          ...current,
          status: row.status,
          version: row.version,
          data: row.data,
          assignee: row.assignee,
          updated_at: row.at,
          updated_by: row.by,
        },
        [],
      ),
      this.authors(workflow, principal),
    );
  }

  async history(
    workflow: CompiledWorkflow,
    principal: Principal,
    id: string,
    language: Language = 'en',
  ): Promise<HistoryEntry[]> {
    const { id: documentId } = await visibleRow(this.db, workflow, principal, id);
    const rows = await listHistory(this.db, documentId);
    const authors = this.authors(workflow, principal);
    // The line of an assignment says to whom, to those who may know officers' names.
    const assigning = (row: (typeof rows)[number]) =>
      row.assignee !== null &&
      workflow.definition.actions[row.action]?.payload === 'assignee' &&
      (authors.officer || authors.officerNames);
    const names = await accountNames(
      this.db,
      this.environment.accounts?.type,
      rows.filter(assigning).map((row) => row.assignee!),
    );
    return rows.map((row) => {
      const entry = historyEntry(authorOfLine(row, authors), (note) =>
        translate(this.environment.texts, language, note.key, note.params),
      );
      return assigning(row)
        ? { ...entry, assignedTo: names.get(row.assignee!) ?? row.assignee! }
        : entry;
    });
  }

  /**
   * A workflow's finder (no list: the documents the caller may see) or one of its lists (its
   * roles, statuses, assignment and conditions), filtered, sorted and paged by the search body.
   */
  async search(
    workflow: CompiledWorkflow,
    principal: Principal,
    body: unknown,
  ): Promise<SearchResult<DocumentSummary>> {
    const request = asObject(body ?? {});
    const listId = request.list;
    const list =
      typeof listId === 'string'
        ? workflow.definition.lists.find((l) => l.id === listId)
        : undefined;
    if (listId !== undefined && !list) {
      throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
        { path: '/list', rule: 'enum' },
      ]);
    }
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
    const type = workflow.definition.id;
    // A list shows its statuses (every one but deleted by default) to its roles, with its
    // assignment and its `where` conditions on the data; the finder without a list shows what the caller may see.
    const scope: RawBuilder<SqlBool> = list
      ? sql<SqlBool>`(type = ${type} and ${
          list.status?.length
            ? sql`status in (${sql.join(list.status)})`
            : sql`status <> ${DELETED}`
        }${
          list.assignment === 'me'
            ? sql` and assignee = ${principal.subject}`
            : list.assignment === 'unassigned'
              ? sql` and assignee is null`
              : list.assignment === 'assigned'
                ? sql` and assignee is not null`
                : sql``
        } and ${listWhere(list, workflow.entity.schema)}${
          // The inbox's lists show each person their own messages only, whatever the roles.
          workflow.definition.inbox
            ? sql` and ${visibleTo(type, visibility(workflow, principal))}`
            : sql``
        })`
      : sql<SqlBool>`(${visibleTo(type, visibility(workflow, principal))} and status <> ${DELETED})`;
    // Only what the rows show is read: each data column's value and the record's key.
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

  /**
   * The language the document's holder is written to in: what the document says (the workflow's
   * `holderLanguage`), else what their account keeps, else English. Their PDFs speak it.
   */
  holderLanguage(
    workflow: CompiledWorkflow,
    row: { owner: string; data: Record<string, unknown> },
  ): Promise<Language> {
    return holderLanguageOf(this.db, this.environment.accounts, workflow.definition, row);
  }

  /**
   * The issued document as a PDF (`certificate` of the workflow), in the holder's language,
   * whoever prints it (holderLanguageOf: the language the document or the holder's account
   * keeps, else English): for its owner and the holders of the
   * certificate's roles, in the statuses it names (else 409). With `holderNumber`, the
   * certificate of the one of its people (`certificate.holders`) numbered so (else 404): a
   * dependant's e-visa, which the main holder downloads with their own.
   */
  async certificate(
    workflow: CompiledWorkflow,
    principal: Principal,
    id: string,
    holderNumber?: string,
  ): Promise<{ filename: string; pdf: Uint8Array }> {
    const certificate = workflow.definition.certificate;
    if (!certificate) throw new ApiProblem(404, ERROR_CODES.notFound);
    const row = await visibleRow(this.db, workflow, principal, id);
    if (
      row.owner !== principal.subject &&
      !holdsAnyRole(
        principal,
        certificate.roles.map((r) => workflow.definition.rolePrefix + r),
      )
    )
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
      // The holder's document speaks the holder's language, whoever prints it.
      language: await this.holderLanguage(workflow, row),
      holder,
    });
    return { filename: `${holder?.number ?? row.number ?? row.id}.pdf`, pdf };
  }

  /** The documents a `documentChoices` field of this type's form may name (its options). */
  async choices(workflow: CompiledWorkflow, document: string) {
    return documentChoiceOptions(this.db, workflow.entity, document);
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
