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
import { certificatePdf, storedCertificateContent, type CertificateSource } from './certificate';
import { certificateView } from './certificate-view';
import type { CertificateView } from '../../core/documents/certificate-view';
import { personRefused } from '../../core/documents/person-decisions';
import { mayBeBarred, NO_ACTIONS_TAKEN, takenBy } from './duties';
import { holderLanguageOf } from './holder-language';
import { holdersOf, type CertificateHolder } from '../../core/documents/certificate-holders';
import { DocumentCommands, readableRow, visibleRow } from './commands';
import { delegateActions, delegatedView } from './delegations';
import { listScope } from './list-where';
import { flagFilterOf, listShowsFlags, withFlags } from './list-flags';
import { nameSearchOf } from './list-names';
import { FLAG_ACTIONS } from './store/case-work';
import { seesFlagsOf } from './case-work';
import { flagTextKey } from '../../core/documents/case-work';
import { hasScreeningHit } from './screening';
import { documentChoiceOptions } from './document-choices';
import type { EffectEnvironment } from './effect-context';
import { foldedText } from '../db/list-indexes';
import { assignableAccounts } from './assignment';
import { teamWorkload, type Workload } from './workload';
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
import { withRequestRound } from './requests';
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

  /** The database, for reads beside the service's own (screening-hits.ts). */
  get database(): Kysely<Database> {
    return this.db;
  }

  async read(type: string, principal: Principal, id: string): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const { row, delegate } = await this.readable(workflow, principal, id);
    // The history is read only when an action offered here could be barred by it (`notBy`).
    const taken = mayBeBarred(workflow, allowedActions(workflow, row, principal))
      ? await takenBy(this.db, workflow, row.id, principal)
      : NO_ACTIONS_TAKEN;
    // The timers it waits on in its status (a reply due): the screen says by when.
    const timers = await pendingTimers(this.db, workflow.definition, row);
    // A delegate is offered the granted actions only, and told whose document it is.
    const actions = delegate
      ? delegateActions(workflow, row, principal, delegate)
      : allowedActions(workflow, row, principal, taken);
    const view = withAuthors(documentView(row, actions, timers), this.authors(workflow, principal));
    return withRequestRound(this.db, workflow, delegate ? delegatedView(view, delegate) : view);
  }

  async versions(type: string, principal: Principal, id: string): Promise<VersionSummary[]> {
    const workflow = this.workflow(type);
    const {
      row: { id: documentId },
    } = await this.readable(workflow, principal, id);
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
    const { row: current } = await this.readable(workflow, principal, id);
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
    const { row: document } = await this.readable(workflow, principal, id);
    // Flags set and cleared are lines for the officers only (case-work.ts).
    const officer = seesFlagsOf(workflow, principal, document);
    const rows = (await listHistory(this.db, document.id)).filter(
      (row) => officer || !FLAG_ACTIONS.includes(row.action),
    );
    const authors = this.authors(workflow, principal);
    // The line of an assignment says to whom, to those who may know officers' names.
    const assigning = (row: (typeof rows)[number]) =>
      row.assignee !== null &&
      workflow.definition.actions[row.action]?.payload === 'assignee' &&
      (authors.officer || authors.officerNames);
    // Whom each line found the document assigned to: the assignee of the line before it.
    const before = rows.map((_, i) => (i > 0 ? (rows[i - 1]?.assignee ?? null) : null));
    // The assignees' names, those that are accounts (other ids are left out).
    const accountType = this.environment.accounts?.type;
    const assignees = rows.flatMap((row, i) =>
      assigning(row) ? [row.assignee!, ...(before[i] ? [before[i]] : [])] : [],
    );
    const names = accountType
      ? await ownerNames(this.db, accountType, assignees)
      : new Map<string, string>();
    return rows.map((row, i) => {
      const line = historyEntry(authorOfLine(row, authors), (note) =>
        translate(this.environment.texts, language, note.key, note.params),
      );
      // A flag's line names the flag in words, and by its text for the portal.
      const entry =
        FLAG_ACTIONS.includes(row.action) && row.notes
          ? {
              ...line,
              notes: translate(this.environment.texts, language, flagTextKey(type, row.notes)),
              notesKey: flagTextKey(type, row.notes),
            }
          : line;
      if (!assigning(row)) return entry;
      // A reassignment says from whom too (its notes say why: `reassignReason`).
      const from = before[i];
      return {
        ...entry,
        assignedTo: names.get(row.assignee!) ?? row.assignee!,
        ...(from && from !== row.assignee ? { assignedFrom: names.get(from) ?? from } : {}),
      };
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
    // Screening hits, filtered and shown only where the list shows them (its officers' roles).
    const screening = columns.some((c) => c.field === 'screeningHit' && !c.pointer);
    if (screening) fields.screeningHit = { kind: 'boolean', sql: hasScreeningHit(), notNull: true };
    requireListAccess(workflow, principal, list);
    // A filter by flags: officers only, on a list offering those flags (list-flags.ts).
    const flagged = flagFilterOf(workflow, principal, list, request.flags);
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
        } and ${flagged}${
          workflow.definition.inbox
            ? sql` and ${visibleTo(type, visibility(workflow, principal))}`
            : sql``
        })`
      : sql<SqlBool>`(${visibleTo(type, visibility(workflow, principal))} and status <> ${DELETED})`;
    // A name searched on a list offering it: its matches only, the closest first.
    const named = nameSearchOf(list, request.name);
    const key = workflow.definition.key;
    const pointers = summaryPointers(columns, key);
    const { rows, page } = await searchRows(
      this.db,
      request,
      fields,
      named ? sql<SqlBool>`(${scope} and ${named.matches})` : scope,
      this.searchLimits,
      pointers,
      namesAssignee ? { accountType } : undefined,
      screening ? { screening_hit: hasScreeningHit() } : {},
      named?.distance,
    );
    const showsFlags = listShowsFlags(workflow, principal, list);
    return {
      items: rows.map((row) =>
        withFlags(
          documentSummary(row, pointers, columns, key),
          row,
          showsFlags,
          principal,
          workflow,
        ),
      ),
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
    const source = await this.certificateSource(type, principal, id, holderNumber);
    const pdf = await certificatePdf(source);
    const { holder, document } = source;
    return { filename: `${holder?.number ?? document.number ?? document.id}.pdf`, pdf };
  }

  /** The same certificate, to the same people, as text for a web page (certificate-view.ts). */
  async certificateView(
    type: string,
    principal: Principal,
    id: string,
    holderNumber?: string,
  ): Promise<CertificateView> {
    const source = await this.certificateSource(type, principal, id, holderNumber);
    const content = await storedCertificateContent(source);
    return certificateView(content, source.environment.texts, source.language);
  }

  /** What a certificate is made from, once the caller may have it in its status (else refused). */
  private async certificateSource(
    type: string,
    principal: Principal,
    id: string,
    holderNumber?: string,
  ): Promise<CertificateSource> {
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
    } else if (personRefused(workflow.definition.persons, row.data, 0))
      // The main person refused (`persons`): the document's own certificate is nobody's.
      throw new ApiProblem(404, ERROR_CODES.notFound);
    return {
      db: this.db,
      workflow: { ...workflow.definition, certificate },
      entity: workflow.entity,
      document: row,
      environment: this.environment,
      language: await this.holderLanguage(type, row),
      holder,
    };
  }

  /** The documents a `documentChoices` field of this type's form may name (its options). */
  choices(type: string, document: string) {
    return documentChoiceOptions(this.db, this.workflow(type).entity, document);
  }

  /**
   * Whom an action taking an assignee may assign to, for its roles, each with their open documents
   * of the type, fewest first; another action is a 404, a caller who may not take it a 403.
   */
  async assignees(type: string, principal: Principal, action: string) {
    const workflow = this.workflow(type);
    const definition = requireAction(workflow, action, principal);
    if (definition.payload !== 'assignee') throw new ApiProblem(404, ERROR_CODES.notFound);
    return {
      items: await assignableAccounts(this.db, this.environment, workflow.definition, action),
    };
  }

  /**
   * The team view (`workload`): open documents per officer and status, and the unassigned, for
   * those who may take its assigning action (403 otherwise); a type without one is a 404.
   */
  async workload(type: string, principal: Principal): Promise<Workload> {
    const workflow = this.workflow(type);
    const declared = workflow.definition.workload;
    if (!declared) throw new ApiProblem(404, ERROR_CODES.notFound);
    requireAction(workflow, declared.action, principal);
    return teamWorkload(this.db, this.environment, workflow.definition, declared.action);
  }

  /** A document the caller sees or is a delegate of (commands.ts, readableRow). */
  private readable(workflow: CompiledWorkflow, principal: Principal, id: string) {
    return readableRow(this.db, workflow, principal, id, this.environment.accounts);
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
