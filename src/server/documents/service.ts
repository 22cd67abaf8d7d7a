import { applicableData } from '../../core/rules/sections';
import { decodeSystemNote, encodeSystemNote, isSystemActor, type SystemNote } from './system-notes';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ErrorObject } from 'ajv';
import type {
  ActionRequest,
  CreateRequest,
  DocumentSummary,
  DocumentView,
  HistoryEntry,
  VersionSummary,
} from '../../core/documents/types';
import { NEW_STATE, type WorkflowAction } from '../../core/documents/workflow';
import type { Language } from '../../core/i18n/translate';
import { normalizePage, type SearchResult } from '../../core/search/protocol';
import { resolvePointer, runRules } from '../../core/rules/registry';
import { runServerRules } from './server-rules';
import type { RuleProblem } from '../../core/rules/types';
import { catalogFieldsOf, type CatalogField } from '../../core/definitions/catalog-fields';
import { catalogFieldProblems } from './catalog-fields';
import { documentChoiceOptions, documentChoiceProblems } from './document-choices';
import { holdsAnyRole, type Principal } from '../auth/principal';
import type { Database, DocumentTable } from '../db/schema';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';
import { compileSearch, type SearchField } from '../search/compile-search';
import type { DocumentDraft, EffectEnvironment } from './effects';
import { certificatePdf, holderLanguage } from './certificate';
import { checkFileReferences, recordMediaReferences } from './media-references';
import type { GuardInput } from './guards';
import { nextStatus } from './machine';
import { callerAsOwner, ownerNamed, type DocumentOwner } from './on-behalf';
import { checkChanged } from './must-change';
import type { CompiledWorkflow } from './workflows';

/** A row of the document table as selected. */
type DocumentRow = Selectable<DocumentTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The document service: every document type, driven by its workflow definition. Each action is
 * checked (visibility, roles, ownership, version, machine, payload) and then written (document,
 * version, history, effects) in one transaction; any failure changes nothing.
 */
export class DocumentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly workflows: Map<string, CompiledWorkflow>,
    private readonly searchMaxItems: number,
    private readonly environment: EffectEnvironment = { publicUrl: '', texts: {} },
  ) {}

  /** The documents a `documentChoices` field of this type's form may name (its options). */
  async choices(type: string, document: string) {
    return documentChoiceOptions(this.db, this.workflow(type).entity, document);
  }

  workflow(type: string): CompiledWorkflow {
    const workflow = this.workflows.get(type);
    if (!workflow) throw new ApiProblem(404, ERROR_CODES.notFound);
    return workflow;
  }

  async create(type: string, principal: Principal, body: unknown): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const request = asObject(body) as Partial<CreateRequest>;
    const action = typeof request.action === 'string' ? request.action : 'store';
    const definition = this.actionOf(workflow, action, principal);
    // Made at the counter for someone else (`onBehalf`): they own it from the start.
    const owner = definition.onBehalf
      ? await ownerNamed(this.db, request.owner)
      : callerAsOwner(principal);
    const merged = this.mergedData(workflow, definition, {}, request.data);
    return this.db.transaction().execute(async (trx) => {
      const now = new Date();
      const actionRequest = { version: 0, ...request } as ActionRequest;
      // Effects a guard depends on (the fee now due decides SUBMITTED or SUBMITTED FOR
      // VERIFICATION for a drop) run first, on the data as the action would leave it.
      const prepared = newDraft(type, owner, merged);
      await this.runEffects(
        trx,
        workflow,
        definition.before ?? [],
        action,
        NEW_STATE,
        prepared,
        actionRequest,
        principal,
        now,
      );
      const input = guardInput(
        {
          status: NEW_STATE,
          previous_status: null,
          owner: principal.subject,
          assignee: null,
          number: null,
          data: prepared.data,
        },
        principal,
      );
      const target = nextStatus(workflow.machine, NEW_STATE, { type: action, input });
      if (!target)
        throw new ApiProblem(409, ERROR_CODES.actionNotAllowed, { action, status: NEW_STATE });
      checkNotes(definition, request.notes);
      requireData(definition, request.data);
      checkRequires(definition, prepared.data);
      const data = await this.validData(trx, workflow, definition, prepared.data);
      await checkFileReferences(trx, principal.subject, data);
      const inserted = await trx
        .insertInto('document')
        .values({
          type,
          status: target,
          version: 1,
          owner: owner.owner,
          owner_name: owner.ownerName,
          owner_email: owner.ownerEmail,
          owner_mobile: owner.ownerMobile,
          // The data is written with the first version, after the effects ran (they may refuse it).
          data: JSON.stringify({}),
          created_by: actorName(principal),
          updated_by: actorName(principal),
          updated_at: now.toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const draft = { ...toDraft(inserted as DocumentRow), data };
      await this.runEffects(
        trx,
        workflow,
        definition.effects ?? [],
        action,
        NEW_STATE,
        draft,
        actionRequest,
        principal,
        now,
      );
      const row = await this.write(
        trx,
        draft,
        1,
        action,
        NEW_STATE,
        principal,
        request.notes,
        now,
        true,
      );
      return this.view(workflow, row, principal);
    });
  }

  async read(type: string, principal: Principal, id: string): Promise<DocumentView> {
    const workflow = this.workflow(type);
    return this.view(workflow, await this.visibleRow(this.db, workflow, principal, id), principal);
  }

  async versions(type: string, principal: Principal, id: string): Promise<VersionSummary[]> {
    const workflow = this.workflow(type);
    await this.visibleRow(this.db, workflow, principal, id);
    const rows = await this.db
      .selectFrom('document_version')
      .select(['version', 'status', 'action', 'at', 'by'])
      .where('document_id', '=', id)
      .orderBy('version', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, at: iso(r.at) }));
  }

  async readVersion(
    type: string,
    principal: Principal,
    id: string,
    version: number,
  ): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const current = await this.visibleRow(this.db, workflow, principal, id);
    const row = await this.db
      .selectFrom('document_version')
      .selectAll()
      .where('document_id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    const view = this.view(
      workflow,
      {
        ...current,
        status: row.status,
        version: row.version,
        data: row.data,
        assignee: row.assignee,
        updated_at: row.at,
        updated_by: row.by,
      },
      principal,
    );
    return { ...view, allowedActions: [] };
  }

  async history(type: string, principal: Principal, id: string): Promise<HistoryEntry[]> {
    const workflow = this.workflow(type);
    await this.visibleRow(this.db, workflow, principal, id);
    const rows = await this.db
      .selectFrom('document_history')
      .selectAll()
      .where('document_id', '=', id)
      .orderBy('id')
      .execute();
    return rows.map((r) => {
      const note = isSystemActor(r.actor) ? decodeSystemNote(r.notes) : undefined;
      return {
        version: r.version,
        action: r.action,
        operation: `${r.from_status} -> ${r.to_status}`,
        at: iso(r.at),
        notes: note ? note.text : r.notes,
        ...(note ? { notesKey: note.key, notesParams: note.params } : {}),
        name: r.actor_name,
        email: r.actor_email,
        mobile: r.actor_mobile,
      };
    });
  }

  /** Fires one action of the machine on a document, with the version the caller read. */
  async act(
    type: string,
    principal: Principal,
    id: string,
    action: string,
    body: unknown,
  ): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const request = asObject(body) as Partial<ActionRequest>;
    if (!Number.isInteger(request.version)) {
      throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
        { path: '/version', rule: 'required' },
      ]);
    }
    const definition = this.actionOf(workflow, action, principal);
    // Only the server fires a system action (a payment confirmed by the gateway).
    if (definition.system) throw new ApiProblem(403, ERROR_CODES.forbidden);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.visibleRow(trx, workflow, principal, id, true);
      if (definition.owner && row.owner !== principal.subject)
        throw new ApiProblem(403, ERROR_CODES.notOwner);
      if (row.version !== request.version) {
        throw new ApiProblem(409, ERROR_CODES.staleVersion, { version: row.version });
      }
      return this.transition(
        trx,
        workflow,
        row,
        action,
        definition,
        request as ActionRequest,
        principal,
      );
    });
  }

  /**
   * Fires an action on the server's own account inside the caller's transaction: the payment
   * service confirming a payment the gateway reported. No role or owner check (the caller has
   * verified the gateway's signature); the machine must still allow the action from the
   * document's status, or nothing changes (409).
   */
  async actAsSystem(
    trx: Transaction<Database>,
    type: string,
    id: string,
    action: string,
    actor: Principal,
    notes?: SystemNote,
  ): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const definition = workflow.definition.actions[action];
    if (!definition) throw new Error(`Workflow ${type} has no action ${action}`);
    const row = (await trx
      .selectFrom('document')
      .selectAll()
      .where('id', '=', id)
      .where('type', '=', type)
      .forUpdate()
      .executeTakeFirst()) as DocumentRow | undefined;
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    return this.transition(
      trx,
      workflow,
      row,
      action,
      definition,
      { version: row.version, notes: notes && encodeSystemNote(notes) },
      actor,
    );
  }

  /** Checks the machine and the payload, runs the effects and writes the next version. */
  private async transition(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    row: DocumentRow,
    action: string,
    definition: WorkflowAction,
    request: ActionRequest,
    principal: Principal,
  ): Promise<DocumentView> {
    const now = new Date();
    const draft = toDraft(row);
    draft.data = this.mergedData(workflow, definition, row.data, request.data);
    // Handed to someone else (`onBehalf` with an owner named): they own it from this version.
    if (definition.onBehalf && request.owner !== undefined) {
      Object.assign(draft, await ownerNamed(trx, request.owner));
    }
    checkChanged(workflow, definition, row.data, draft.data);
    // Effects the machine's guards depend on (the fees now due) run first, on the new data.
    await this.runEffects(
      trx,
      workflow,
      definition.before ?? [],
      action,
      row.status,
      draft,
      request,
      principal,
      now,
    );
    // The machine decides on the document as the action would leave it (a fee now due...).
    const target = nextStatus(workflow.machine, row.status, {
      type: action,
      input: guardInput({ ...row, data: draft.data }, principal),
    });
    if (!target)
      throw new ApiProblem(409, ERROR_CODES.actionNotAllowed, { action, status: row.status });
    checkNotes(definition, request.notes);
    requireData(definition, request.data);
    checkRequires(definition, draft.data);
    draft.data = await this.validData(trx, workflow, definition, draft.data);
    await checkFileReferences(trx, row.owner, draft.data, row.data);
    draft.status = target;
    await this.runEffects(
      trx,
      workflow,
      definition.effects ?? [],
      action,
      row.status,
      draft,
      request,
      principal,
      now,
    );
    const written = await this.write(
      trx,
      draft,
      row.version + 1,
      action,
      row.status,
      principal,
      request.notes,
      now,
      false,
    );
    return this.view(workflow, written, principal);
  }

  /**
   * The issued document as a PDF (`certificate` of the workflow), in the holder's language
   * (the workflow's `holderLanguage`), else in `language`: for its owner
   * and the holders of the certificate's roles, in the statuses it names (else 409).
   */
  async certificate(
    type: string,
    principal: Principal,
    id: string,
    language: Language,
  ): Promise<{ filename: string; pdf: Uint8Array }> {
    const workflow = this.workflow(type);
    const certificate = workflow.definition.certificate;
    if (!certificate) throw new ApiProblem(404, ERROR_CODES.notFound);
    const row = await this.visibleRow(this.db, workflow, principal, id);
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
    const pdf = await certificatePdf({
      db: this.db,
      workflow: { ...workflow.definition, certificate },
      entity: workflow.entity,
      document: row,
      environment: this.environment,
      // The holder's document speaks the holder's language, whoever prints it.
      language: workflow.definition.holderLanguage
        ? holderLanguage(workflow.definition, row.data)
        : language,
    });
    return { filename: `${row.number ?? row.id}.pdf`, pdf };
  }

  /**
   * The workflow's derived values for a form being filled (`derive`): its deriving effects run
   * on the data sent, as of the document's submission when it has one, and nothing is stored.
   * Answers `{ values: { [pointer]: value } }` for the pointers the workflow fills, and the
   * `problems` the server's rules find in the values the form watches.
   */
  async derive(
    type: string,
    principal: Principal,
    body: unknown,
  ): Promise<{ values: Record<string, unknown>; problems: RuleProblem[] }> {
    const workflow = this.workflow(type);
    const derive = workflow.definition.derive;
    if (!derive) throw new ApiProblem(404, ERROR_CODES.notFound);
    const request = asObject(body);
    if (!isObject(request.data)) {
      throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
        { path: '/data', rule: 'type', params: { type: 'object' } },
      ]);
    }
    const data = structuredClone(request.data);
    return this.db.transaction().execute(async (trx) => {
      const row =
        typeof request.id === 'string'
          ? await this.visibleRow(trx, workflow, principal, request.id)
          : undefined;
      const now = new Date();
      const draft: DocumentDraft = row
        ? { ...toDraft(row), data }
        : newDraft(type, callerAsOwner(principal), data);
      await this.runEffects(
        trx,
        workflow,
        derive.effects,
        'derive',
        draft.status,
        draft,
        { version: row?.version ?? 0 },
        principal,
        now,
      );
      const values: Record<string, unknown> = {};
      for (const pointer of derive.fills) values[pointer] = resolvePointer(draft.data, pointer);
      // The server's own rules on what the form watches (a sponsor reference) are decided as
      // the person types, like the browser's rules, not only when they submit.
      const watched = (workflow.entity.rules ?? []).filter(
        (use) => use.server && derive.on.includes(use.path),
      );
      const problems = await runServerRules(
        watched,
        { db: trx, document: draft.data, now },
        workflow.implementations.serverRules,
      );
      return { values, problems };
    });
  }

  async search(
    type: string,
    principal: Principal,
    body: unknown,
  ): Promise<SearchResult<DocumentSummary>> {
    const workflow = this.workflow(type);
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
    const dataColumns = list?.columns.filter((c) => c.pointer) ?? [];
    const fields: Record<string, SearchField> = {
      status: { kind: 'text', sql: sql.ref('status') },
      number: { kind: 'text', sql: sql.ref('number') },
      owner: { kind: 'text', sql: sql.ref('owner') },
      ownerName: { kind: 'text', sql: sql.ref('owner_name') },
      assignee: { kind: 'text', sql: sql.ref('assignee') },
      year: { kind: 'number', sql: sql.ref('year') },
      submittedAt: { kind: 'datetime', sql: sql.ref('submitted_at') },
      createdAt: { kind: 'datetime', sql: sql.ref('created_at') },
      updatedAt: { kind: 'datetime', sql: sql.ref('updated_at') },
    };
    for (const column of dataColumns) {
      const path = column.pointer!.split('/').slice(1);
      fields[column.field] = { kind: 'text', sql: sql`(data #>> ${`{${path.join(',')}}`})` };
    }
    const compiled = compileSearch(request, fields, [{ field: 'updatedAt', direction: 'desc' }]);
    const window = normalizePage(compiled.options, this.searchMaxItems);
    let query = this.db.selectFrom('document').where('type', '=', type).where(compiled.where);
    if (list) {
      if (!holdsAnyRole(principal, workflow.rolesOf({ roles: list.roles })))
        throw new ApiProblem(403, ERROR_CODES.forbidden);
      query = list.status?.length
        ? query.where('status', 'in', list.status)
        : query.where('status', '<>', 'DELETED');
      if (list.assignment === 'me') query = query.where('assignee', '=', principal.subject);
      if (list.assignment === 'unassigned') query = query.where('assignee', 'is', null);
      if (list.assignment === 'assigned') query = query.where('assignee', 'is not', null);
    } else {
      if (!holdsAnyRole(principal, workflow.anyRole))
        throw new ApiProblem(403, ERROR_CODES.forbidden);
      query = query.where('status', '<>', 'DELETED');
      if (!holdsAnyRole(principal, workflow.seeAllRoles))
        query = query.where('owner', '=', principal.subject);
    }
    const { total } = await query
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = (await query
      .selectAll()
      .orderBy(compiled.orderBy)
      .orderBy('id')
      .limit(window.limit)
      .offset(window.offset)
      .execute()) as DocumentRow[];
    const count = Number(total);
    return {
      items: rows.map((row) => ({
        id: row.id,
        type: row.type,
        status: row.status,
        version: row.version,
        owner: row.owner,
        ownerName: row.owner_name,
        assignee: row.assignee,
        number: row.number,
        submittedAt: row.submitted_at ? iso(row.submitted_at) : null,
        updatedAt: iso(row.updated_at),
        fields: Object.fromEntries(
          dataColumns.map((c) => [c.field, resolvePointer(row.data, c.pointer!)]),
        ),
      })),
      total: count,
      page: window.page,
      itemsPerPage: window.itemsPerPage,
      capped: window.itemsPerPage === -1 && count > window.limit,
    };
  }

  // ---- checks ----

  private actionOf(
    workflow: CompiledWorkflow,
    action: string,
    principal: Principal,
  ): WorkflowAction {
    const definition = workflow.definition.actions[action];
    if (!definition) throw new ApiProblem(404, ERROR_CODES.notFound);
    if (!holdsAnyRole(principal, workflow.rolesOf(definition)))
      throw new ApiProblem(403, ERROR_CODES.forbidden);
    return definition;
  }

  /**
   * Reads a document the caller may see: holders of the workflow's see-all roles see every
   * document, owners their own; anything else is a 404, so ids reveal nothing.
   */
  private async visibleRow(
    db: Kysely<Database> | Transaction<Database>,
    workflow: CompiledWorkflow,
    principal: Principal,
    id: string,
    forUpdate = false,
  ): Promise<DocumentRow> {
    if (!UUID.test(id)) throw new ApiProblem(404, ERROR_CODES.notFound);
    let query = db
      .selectFrom('document')
      .selectAll()
      .where('id', '=', id)
      .where('type', '=', workflow.definition.id);
    if (forUpdate) query = query.forUpdate();
    const row = (await query.executeTakeFirst()) as DocumentRow | undefined;
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    const seesAll = holdsAnyRole(principal, workflow.seeAllRoles);
    const owns = row.owner === principal.subject && holdsAnyRole(principal, workflow.anyRole);
    if (!seesAll && !owns) throw new ApiProblem(404, ERROR_CODES.notFound);
    return row;
  }

  /**
   * The data an action leaves: only the sections the action may edit are taken from the
   * request; the rest stays as stored (an applicant cannot write the officer's sections).
   */
  private mergedData(
    workflow: CompiledWorkflow,
    action: WorkflowAction,
    current: Record<string, unknown>,
    incoming: unknown,
  ): Record<string, unknown> {
    // Not an object: nothing to merge; `requireData` refuses it once the machine has spoken.
    if ((action.payload ?? 'none') !== 'data' || !isObject(incoming)) return current;
    const unknown = Object.keys(incoming).filter((key) => !workflow.allSections.includes(key));
    if (unknown.length) {
      throw new ApiProblem(
        400,
        ERROR_CODES.validationFailed,
        {},
        unknown.map((key) => ({
          path: '',
          rule: 'additionalProperties',
          params: { additionalProperty: key },
        })),
      );
    }
    const editable =
      action.editable === 'all'
        ? workflow.allSections
        : (action.editable ?? workflow.applicantSections);
    const data = { ...current };
    for (const section of editable) {
      const value = (incoming as Record<string, unknown>)[section];
      if (value === undefined) delete data[section];
      else data[section] = value;
    }
    return data;
  }

  private readonly catalogFieldCache = new WeakMap<CompiledWorkflow, CatalogField[]>();

  /** The entity's catalogue select fields, found once per workflow. */
  private catalogFields(workflow: CompiledWorkflow): CatalogField[] {
    let fields = this.catalogFieldCache.get(workflow);
    if (!fields) {
      fields = catalogFieldsOf(workflow.entity);
      this.catalogFieldCache.set(workflow, fields);
    }
    return fields;
  }

  /** Validates as a draft, or, for actions that submit, against the full schema and named rules. */
  private async validData(
    db: Kysely<Database> | Transaction<Database>,
    workflow: CompiledWorkflow,
    action: WorkflowAction,
    given: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    // Sections that no longer apply (their `when`) are neither checked nor kept.
    const data = applicableData(workflow.entity, given);
    const validate = action.validate ? workflow.validateFull : workflow.validateDraft;
    const problems: FieldProblem[] = [];
    if (!validate(data)) problems.push(...schemaProblems(validate.errors ?? []));
    if (action.validate) {
      const uses = workflow.entity.rules ?? [];
      const decided = [
        ...runRules(uses, data),
        ...(await runServerRules(
          uses,
          { db: db as Kysely<Database>, document: data, now: new Date() },
          workflow.implementations.serverRules,
        )),
      ];
      for (const problem of decided) {
        problems.push({
          path: problem.path,
          rule: problem.message.replace(/^validation\./, ''),
          params: problem.params,
        });
      }
      problems.push(
        ...(await catalogFieldProblems(db, this.catalogFields(workflow), data, new Date())),
      );
    }
    // Choices naming other documents (an access unit's roles) are checked on every change,
    // drafts and actions that do not validate included: an unknown code is never stored.
    problems.push(...(await documentChoiceProblems(db as Kysely<Database>, workflow.entity, data)));
    if (problems.length) throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, problems);
    return data;
  }

  // ---- writing ----

  private async runEffects(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    names: readonly string[],
    action: string,
    fromStatus: string,
    document: DocumentDraft,
    request: ActionRequest,
    principal: Principal,
    now: Date,
  ): Promise<void> {
    for (const name of names) {
      const effect = workflow.implementations.effects.get(name);
      // The loader refused a workflow naming an unknown effect; this is a programming error.
      if (!effect) throw new Error(`Workflow ${workflow.definition.id}: unknown effect ${name}`);
      await effect({
        trx,
        environment: this.environment,
        workflow: workflow.definition,
        entity: workflow.entity,
        action,
        fromStatus,
        document,
        request,
        principal,
        now,
      });
    }
  }

  private async write(
    trx: Transaction<Database>,
    draft: DocumentDraft,
    version: number,
    action: string,
    fromStatus: string,
    principal: Principal,
    notes: string | undefined,
    now: Date,
    created: boolean,
  ): Promise<DocumentRow> {
    const row = (await trx
      .updateTable('document')
      .set({
        status: draft.status,
        owner: draft.owner,
        owner_name: draft.ownerName,
        owner_email: draft.ownerEmail,
        ...(draft.ownerMobile !== undefined ? { owner_mobile: draft.ownerMobile } : {}),
        previous_status: draft.previousStatus,
        version,
        assignee: draft.assignee,
        number: draft.number,
        year: draft.year,
        serial: draft.serial,
        submitted_at: draft.submittedAt ? draft.submittedAt.toISOString() : null,
        data: JSON.stringify(draft.data),
        updated_at: now.toISOString(),
        updated_by: actorName(principal),
      })
      .where('id', '=', draft.id)
      .where('version', '=', created ? 1 : version - 1)
      .returningAll()
      .executeTakeFirst()) as DocumentRow | undefined;
    // The row was locked (select ... for update) and its version checked, so this cannot miss;
    // if it ever does, the transaction is rolled back rather than overwrite someone's change.
    if (!row) throw new ApiProblem(409, ERROR_CODES.staleVersion, { version: version - 1 });
    await recordMediaReferences(trx, draft.id, draft.data);
    await trx
      .insertInto('document_version')
      .values({
        document_id: draft.id,
        version,
        status: draft.status,
        action,
        data: JSON.stringify(draft.data) as never,
        assignee: draft.assignee,
        by: actorName(principal),
      })
      .execute();
    await trx
      .insertInto('document_history')
      .values({
        document_id: draft.id,
        version,
        action,
        from_status: fromStatus,
        to_status: draft.status,
        notes: notes?.trim() || null,
        actor: principal.subject,
        actor_name: actorName(principal),
        actor_email: principal.email ?? null,
        actor_mobile: principal.phoneNumber ?? null,
      })
      .execute();
    return row;
  }

  private view(workflow: CompiledWorkflow, row: DocumentRow, principal: Principal): DocumentView {
    return {
      id: row.id,
      type: row.type,
      status: row.status,
      version: row.version,
      owner: row.owner,
      ownerName: row.owner_name,
      assignee: row.assignee,
      number: row.number,
      year: row.year,
      submittedAt: row.submitted_at ? iso(row.submitted_at) : null,
      data: row.data,
      createdAt: iso(row.created_at),
      createdBy: row.created_by,
      updatedAt: iso(row.updated_at),
      updatedBy: row.updated_by,
      allowedActions: this.allowedActions(workflow, row, principal),
    };
  }

  /** Actions the caller may take now: the machine allows them here, and role and ownership fit. */
  allowedActions(workflow: CompiledWorkflow, row: DocumentRow, principal: Principal): string[] {
    const input = guardInput(row, principal);
    return Object.entries(workflow.definition.actions)
      .filter(([, action]) => !action.system && holdsAnyRole(principal, workflow.rolesOf(action)))
      .filter(([, action]) => !action.owner || row.owner === principal.subject)
      .filter(
        ([name]) => nextStatus(workflow.machine, row.status, { type: name, input }) !== undefined,
      )
      .map(([name]) => name);
  }
}

function guardInput(
  row: Pick<DocumentRow, 'status' | 'previous_status' | 'owner' | 'assignee' | 'number' | 'data'>,
  principal: Principal,
): GuardInput {
  return {
    document: {
      status: row.status,
      previousStatus: row.previous_status,
      owner: row.owner,
      assignee: row.assignee,
      number: row.number,
      data: row.data,
    },
    principal,
  };
}

/** A document not written yet (the pseudo-status NEW), for effects to run on before it is. */
function newDraft(
  type: string,
  owner: DocumentOwner,
  data: Record<string, unknown>,
): DocumentDraft {
  return {
    id: '',
    type,
    status: NEW_STATE,
    previousStatus: null,
    owner: owner.owner,
    ownerName: owner.ownerName,
    ownerEmail: owner.ownerEmail,
    assignee: null,
    number: null,
    year: null,
    serial: null,
    submittedAt: null,
    data,
  };
}

function toDraft(row: DocumentRow): DocumentDraft {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    previousStatus: row.previous_status,
    owner: row.owner,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
    assignee: row.assignee,
    number: row.number,
    year: row.year,
    serial: row.serial,
    submittedAt: row.submitted_at,
    data: row.data,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireData(action: WorkflowAction, data: unknown): void {
  if ((action.payload ?? 'none') === 'data' && !isObject(data)) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/data', rule: 'type', params: { type: 'object' } },
    ]);
  }
}

/** The action's required data (`requires`), on the data as the action leaves it. */
function checkRequires(action: WorkflowAction, data: Record<string, unknown>): void {
  const missing = (action.requires ?? []).filter((pointer) => {
    const value = resolvePointer(data, pointer);
    return value === undefined || value === null || value === '';
  });
  if (missing.length) {
    throw new ApiProblem(
      400,
      ERROR_CODES.validationFailed,
      {},
      missing.map((path) => ({ path, rule: 'required' })),
    );
  }
}

function checkNotes(action: WorkflowAction, notes: unknown): void {
  if (notes !== undefined && (typeof notes !== 'string' || notes.length > 4000)) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/notes', rule: 'maxLength', params: { limit: 4000 } },
    ]);
  }
  if (action.notes === 'required' && (typeof notes !== 'string' || !notes.trim())) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/notes', rule: 'required' },
    ]);
  }
}

function schemaProblems(errors: ErrorObject[]): FieldProblem[] {
  return errors.map((e) => ({
    path: e.instancePath,
    rule: e.keyword,
    params: e.params as Record<string, unknown>,
  }));
}

function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/', rule: 'type', params: { type: 'object' } },
    ]);
  }
  return body as Record<string, unknown>;
}

function actorName(principal: Principal): string {
  return principal.name ?? principal.preferredUsername ?? principal.subject;
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
