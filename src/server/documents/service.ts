import type { Kysely, Transaction } from 'kysely';
import type {
  DocumentSummary,
  DocumentView,
  HistoryEntry,
  VersionSummary,
} from '../../core/documents/types';
import type { Language } from '../../core/i18n/translate';
import type { RuleProblem } from '../../core/rules/types';
import type { SearchResult } from '../../core/search/protocol';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requireAction } from './access';
import { assignableAccounts } from './assignment';
import { DocumentCommands } from './commands';
import type { EffectEnvironment } from './effect-context';
import type { DocumentOwner } from './on-behalf';
import { DocumentQueries } from './queries';
import type { SearchLimits } from './store/lists';
import type { SystemNote } from './system-notes';
import type { CompiledWorkflow } from './workflows';

/**
 * The documents of one backend (evisa, connectid), by type: what the routes call. It finds the
 * workflow a type names (404 for an unknown one) and hands the request to the command side
 * (commands.ts: creation and actions, one pipeline) or the query side (queries.ts). Who sees
 * what is access.ts's decision; the tables are the store's (store/).
 */
export class DocumentService {
  private readonly commands: DocumentCommands;
  private readonly queries: DocumentQueries;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly workflows: Map<string, CompiledWorkflow>,
    searchLimits: SearchLimits,
    private readonly environment: EffectEnvironment = { publicUrl: '', texts: {} },
  ) {
    this.commands = new DocumentCommands(db, environment, (type) => this.workflows.get(type));
    this.queries = new DocumentQueries(db, searchLimits, environment);
  }

  workflow(type: string): CompiledWorkflow {
    const workflow = this.workflows.get(type);
    if (!workflow) throw new ApiProblem(404, ERROR_CODES.notFound);
    return workflow;
  }

  create(type: string, principal: Principal, body: unknown): Promise<DocumentView> {
    return this.commands.create(this.workflow(type), principal, body);
  }

  /** Fires one action of the machine on a document, with the version the caller read. */
  act(
    type: string,
    principal: Principal,
    id: string,
    action: string,
    body: unknown,
  ): Promise<DocumentView> {
    return this.commands.act(this.workflow(type), principal, id, action, body);
  }

  /** Fires an action on the server's own account inside the caller's transaction. */
  actAsSystem(
    trx: Transaction<Database>,
    type: string,
    id: string,
    action: string,
    actor: Principal,
    notes?: SystemNote,
  ): Promise<DocumentView> {
    return this.commands.actAsSystem(trx, this.workflow(type), id, action, actor, notes);
  }

  /** Creates a document on the server's own account inside the caller's transaction. */
  createAsSystem(
    trx: Transaction<Database>,
    type: string,
    owner: DocumentOwner,
    action: string,
    data: Record<string, unknown>,
    actor: Principal,
  ): Promise<DocumentView> {
    return this.commands.createAsSystem(trx, this.workflow(type), owner, action, data, actor);
  }

  derive(
    type: string,
    principal: Principal,
    body: unknown,
  ): Promise<{ values: Record<string, unknown>; problems: RuleProblem[] }> {
    return this.commands.derive(this.workflow(type), principal, body);
  }

  read(type: string, principal: Principal, id: string): Promise<DocumentView> {
    return this.queries.read(this.workflow(type), principal, id);
  }

  versions(type: string, principal: Principal, id: string): Promise<VersionSummary[]> {
    return this.queries.versions(this.workflow(type), principal, id);
  }

  readVersion(
    type: string,
    principal: Principal,
    id: string,
    version: number,
  ): Promise<DocumentView> {
    return this.queries.readVersion(this.workflow(type), principal, id, version);
  }

  /** The history; the service's own notes in `language` (English unless said). */
  history(
    type: string,
    principal: Principal,
    id: string,
    language?: Language,
  ): Promise<HistoryEntry[]> {
    return this.queries.history(this.workflow(type), principal, id, language);
  }

  search(
    type: string,
    principal: Principal,
    body: unknown,
  ): Promise<SearchResult<DocumentSummary>> {
    return this.queries.search(this.workflow(type), principal, body);
  }

  certificate(
    type: string,
    principal: Principal,
    id: string,
    holder?: string,
  ): Promise<{ filename: string; pdf: Uint8Array }> {
    return this.queries.certificate(this.workflow(type), principal, id, holder);
  }

  /** The language a document's holder is written to in (its notices and PDFs speak it). */
  holderLanguage(
    type: string,
    document: { owner: string; data: Record<string, unknown> },
  ): Promise<Language> {
    return this.queries.holderLanguage(this.workflow(type), document);
  }

  /** The documents a `documentChoices` field of this type's form may name (its options). */
  choices(type: string, document: string) {
    return this.queries.choices(this.workflow(type), document);
  }

  /**
   * The people an action taking an assignee may assign a document to (assignment.ts), for the
   * holders of the action's roles; another action is a 404.
   */
  async assignees(type: string, principal: Principal, action: string) {
    const workflow = this.workflow(type);
    const definition = requireAction(workflow, action, principal);
    if (definition.payload !== 'assignee') throw new ApiProblem(404, ERROR_CODES.notFound);
    return {
      items: await assignableAccounts(this.db, this.environment, workflow.definition, action),
    };
  }
}
