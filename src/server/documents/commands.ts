import { inTransaction } from '../db/after-commit';
import { UUID } from '../db/ids';
import { isStoredPositiveInteger } from '../db/integers';
import type { Kysely, Transaction } from 'kysely';
import type { ActionRequest, CreateRequest, DocumentView } from '../../core/documents/types';
import { declaredAction, NEW_STATE, type WorkflowAction } from '../../core/documents/workflow';
import { missingRequires } from '../../core/documents/requires';
import { checkPersonDecisions, decidesPersons, settleRefusedPersons } from './person-decisions';
import { catalogFieldsOf } from '../../core/definitions/catalog-fields';
import { resolvePointer, runRules, setAt } from '../../core/rules/registry';
import { applicableData } from '../../core/rules/sections';
import type { RuleProblem } from '../../core/rules/types';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES, problemsOf } from '../http/api-error';
import { asObject, invalid } from '../search/compile-search';
import { isNode as isObject } from '../../core/definitions/json';
import { allowedActions, guardInput, maySee, requireAction } from './access';
import { catalogFieldProblems } from './catalog-fields';
import { documentChoiceProblems } from './document-choices';
import type {
  DocumentDraft,
  EffectCause,
  EffectContext,
  EffectEnvironment,
} from './effect-context';
import { actionPlansOf } from './action-plans';
import { checkFires, fillLinks, linkingOf, previewLinks, type Linking } from './links';
import { checkFileReferences } from './media-references';
import { perObject } from './memo';
import { checkChanged } from './must-change';
import { requireDuties, takenBy } from './duties';
import { findByKey } from './store/lookups';
import { callerAsOwner, checkOwnerGiven, ownerNamed, ownerOf } from './on-behalf';
import type { DocumentOwner } from './on-behalf';
import { runServerRules } from './server-rules';
import { keepingScreeningHits, refuseOnScreeningHit } from './screening';
import { catalogsIn, type CatalogReader } from '../catalog/valid-at';
import { encodeSystemNote, type SystemNote } from './system-notes';
import {
  draftOf,
  findDocument,
  findNumbered,
  insertDocument,
  insertFirstVersion,
  writeVersion,
  type DocumentRow,
} from './store/rows';
import { documentView } from './views';
import { takeRequests, withRequestRound } from './requests';
import { translate } from '../../core/i18n/translate';
import type { CompiledWorkflow } from './workflows';
import { timerEvent } from '../../core/documents/timers';
import { pendingTimers, scheduleTimers } from './timer-rows';
import { renewalFrom, renewalStart, renewedDocument, renewedReference } from './renewals';
import {
  delegateActions,
  delegatedView,
  delegateOf,
  onBehalfOf,
  requireGranted,
  requireHolderOnlyKept,
  type Delegate,
} from './delegations';
import { holderLanguageOf } from './holder-language';
import {
  reconciliationOf,
  recordReconciliation,
  refundExcess,
  settledLines,
  shortfallNote,
  type Reconciliation,
} from '../payments/reconcile';

/** The document an action starts from: one stored, or none yet (creation). */
type Subject = { row: DocumentRow } | { owner: DocumentOwner };

/**
 * The command side: creation and every action run one pipeline in one transaction
 * (docs/architecture.md): 1. action and roles; 2. the document read, locked, visible, at the
 * caller's version (404/409), or a delegate's granted action (403, delegations.ts); 3. the
 * editable sections merged, what only the holder may change kept, linked documents locked;
 * 4. `before` effects; 5. the machine's next status, also of each linked document (409);
 * 6. the payload's checks; 7. the write, `effects`, linked system actions; 8. the answer.
 */
export class DocumentCommands {
  constructor(
    protected readonly db: Kysely<Database>,
    /** The workflows this service serves, by type; a document's `links` may name only these. */
    protected readonly workflows: Map<string, CompiledWorkflow>,
    protected readonly environment: EffectEnvironment,
  ) {}

  /** The workflow a type names (404 for an unknown one). */
  workflow(type: string): CompiledWorkflow {
    const workflow = this.workflows.get(type);
    if (!workflow) throw new ApiProblem(404, ERROR_CODES.notFound);
    return workflow;
  }

  async create(type: string, principal: Principal, body: unknown): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const request = asObject(body) as Partial<CreateRequest>;
    const action = typeof request.action === 'string' ? request.action : 'store';
    const definition = this.requireCallable(workflow, action, principal, request.owner);
    const renewal = workflow.definition.renewal;
    const renewing = renewal?.start === action;
    const from = renewing ? renewalFrom(request.from) : undefined;
    const done = inTransaction(this.db, async (trx) => {
      const owner = definition.onBehalf
        ? await ownerNamed(trx, this.environment.accounts, request.owner)
        : callerAsOwner(principal);
      // A renewal starts from what it renews, read as its owner sees it (renewals.ts).
      const start =
        from !== undefined
          ? renewalStart(
              workflow.definition,
              await visibleRow(trx, workflow, principal, from),
              principal,
            )
          : undefined;
      const given = { version: 0, ...request } as ActionRequest;
      if (start) given.data = start.data;
      return this.run(trx, workflow, { owner }, action, definition, principal, given, undefined, {
        seed: start && { [start.link]: start.reference },
      });
    });
    // A screening refusal's hits outlive the rollback (screening.ts).
    return keepingScreeningHits(this.db, done);
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
    if (!isStoredPositiveInteger(request.version))
      throw invalid([{ path: '/version', rule: 'required' }]);
    const definition = this.requireCallable(workflow, action, principal, request.owner);
    const done = inTransaction(this.db, async (trx) => {
      const { accounts } = this.environment;
      const { row, delegate } = await readableRow(trx, workflow, principal, id, accounts, true);
      // A delegate takes the granted actions as the holder would; nothing else (delegations.ts).
      if (delegate) requireGranted(delegate, action);
      else if (definition.owner && row.owner !== principal.subject)
        throw new ApiProblem(403, ERROR_CODES.notOwner);
      if (row.version !== request.version)
        throw new ApiProblem(409, ERROR_CODES.staleVersion, { version: row.version });
      const given = { ...request } as ActionRequest;
      const acting = { delegate };
      const view = await this.run(
        trx,
        workflow,
        { row },
        action,
        definition,
        principal,
        given,
        undefined,
        acting,
      );
      return withRequestRound(trx, workflow, view);
    });
    return keepingScreeningHits(this.db, done);
  }

  /** An action as the server in the caller's transaction: no role check, the machine's only. */
  async actAsSystem(
    trx: Transaction<Database>,
    type: string,
    id: string,
    action: string,
    actor: Principal,
    notes?: SystemNote,
    cause?: EffectCause,
  ): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const definition = systemAction(workflow, action);
    const row = await findDocument(trx, type, id, { forUpdate: true });
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    const request = { version: row.version, notes: notes && encodeSystemNote(notes) };
    return this.run(trx, workflow, { row }, action, definition, actor, request, cause);
  }

  // --- Timers (docs/workflows.md, "Timers"; timers.ts) ---

  /**
   * A due timer fired in the caller's transaction (the timer worker's): the machine's delayed
   * event of the document's status, recorded and run as the timer's system action.
   */
  async fireTimer(
    trx: Transaction<Database>,
    type: string,
    id: string,
    timer: string,
    actor: Principal,
    notes?: SystemNote,
  ): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const declared = workflow.definition.timers?.[timer];
    if (!declared) throw new Error(`Workflow ${type} has no timer ${timer}`);
    const definition = systemAction(workflow, declared.action);
    const row = await findDocument(trx, type, id, { forUpdate: true });
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    const request = { version: row.version, notes: notes && encodeSystemNote(notes) };
    const event = timerEvent(workflow.definition, row.status, timer);
    const { action } = declared;
    return this.run(trx, workflow, { row }, action, definition, actor, request, undefined, {
      event,
    });
  }

  /** What this service's effects are given: the reminders' notices are written with it. */
  get effectEnvironment(): EffectEnvironment {
    return this.environment;
  }

  // --- end of timers ---

  /** Creates a document for `owner` on the server's account in the caller's transaction. */
  async createAsSystem(
    trx: Transaction<Database>,
    type: string,
    owner: DocumentOwner,
    action: string,
    data: Record<string, unknown>,
    actor: Principal,
  ): Promise<DocumentView> {
    const workflow = this.workflow(type);
    const definition = systemAction(workflow, action);
    return this.run(trx, workflow, { owner }, action, definition, actor, { version: 0, data });
  }

  /**
   * The derived values of a form being filled: its deriving effects run on the data sent, nothing
   * stored; answers the values filled and the problems of the watched values.
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
    if (!isObject(request.data))
      throw invalid([{ path: '/data', rule: 'type', params: { type: 'object' } }]);
    const data = structuredClone(request.data);
    return this.db.transaction().execute(async (trx) => {
      const row =
        typeof request.id === 'string'
          ? await visibleRow(trx, workflow, principal, request.id)
          : undefined;
      const now = new Date();
      const draft: DocumentDraft = row
        ? { ...draftOf(row), data }
        : newDraft(type, callerAsOwner(principal), data);
      const links = workflow.definition.links;
      // Why a number the form names cannot be paid, said as it is typed.
      const linkProblems: RuleProblem[] = [];
      if (links) {
        const preview = await previewLinks(trx, links, this.workflowOf, principal, draft.data, {
          stored: row?.data,
          added: addedFires(workflow.definition.actions),
        });
        fillLinks(links, draft.data, preview.linked);
        linkProblems.push(...preview.problems);
      }
      await this.runEffects(trx, workflow, derive.effects, {
        action: 'derive',
        fromStatus: draft.status,
        document: draft,
        request: { version: row?.version ?? 0 },
        principal,
        now,
      });
      const values: Record<string, unknown> = {};
      for (const pointer of derive.fills) values[pointer] = resolvePointer(draft.data, pointer);
      // The server's rules on what the form watches are decided as the person types.
      const watched = (workflow.entity.rules ?? []).filter(
        (use) => use.server && derive.on.includes(use.path),
      );
      const problems = await runServerRules(
        watched,
        { db: trx, document: draft.data, now, catalogs: this.catalogs(trx) },
        workflow.implementations.serverRules,
      );
      return { values, problems: [...linkProblems, ...problems] };
    });
  }

  private readonly workflowOf = (type: string) => this.workflows.get(type);

  /** Step 1 for a caller: the action, their role, never a system action, `owner` only onBehalf. */
  private requireCallable(
    workflow: CompiledWorkflow,
    action: string,
    principal: Principal,
    owner: unknown,
  ): WorkflowAction {
    const definition = requireAction(workflow, action, principal);
    if (definition.system) throw new ApiProblem(403, ERROR_CODES.forbidden);
    checkOwnerGiven(definition.onBehalf, owner);
    return definition;
  }

  /** Steps 3 to 8 of the pipeline (see the class), for a new or a stored document alike. */
  private async run(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    subject: Subject,
    action: string,
    definition: WorkflowAction,
    principal: Principal,
    request: ActionRequest,
    cause?: EffectCause,
    /**
     * The machine's event when it is not the action's name (a timer's delayed event); values
     * the server sets in the data whatever the request says (a renewal's link); the caller's
     * delegation when they act for the holder.
     */
    {
      event = action,
      seed,
      delegate,
    }: { event?: string; seed?: Record<string, string>; delegate?: Delegate } = {},
  ): Promise<DocumentView> {
    const now = new Date();
    const stored = 'row' in subject ? subject.row : undefined;
    const fromStatus = stored?.status ?? NEW_STATE;
    // 3. The data as the action leaves it, and who owns it.
    const draft = stored
      ? draftOf(stored)
      : newDraft(workflow.definition.id, (subject as { owner: DocumentOwner }).owner, {});
    draft.data = mergedData(workflow, definition, stored?.data ?? {}, request.data);
    for (const [pointer, value] of Object.entries(seed ?? {})) setAt(draft.data, pointer, value);
    let previousOwner: EffectContext['previousOwner'];
    if (stored && definition.onBehalf && request.owner !== undefined) {
      Object.assign(draft, await ownerNamed(trx, this.environment.accounts, request.owner));
      if (draft.owner !== stored.owner) previousOwner = ownerOf(stored);
    }
    if (stored) checkChanged(workflow, definition, stored.data, draft.data);
    if (stored && delegate)
      requireHolderOnlyKept(delegate, stored.data, draft.data, {
        entity: workflow.definition.document,
        texts: this.environment.texts,
      });
    const links = workflow.definition.links;
    const linking = links
      ? await linkingOf(
          trx,
          links,
          definition,
          this.workflowOf,
          principal,
          draft.data,
          stored?.data,
        )
      : undefined;
    if (linking) fillLinks(linking.links, draft.data, linking.named);
    // A payment received by transfer is reconciled before anything settles (reconcile.ts): a
    // shortfall takes the declared `short` action instead, with a note saying what is missing.
    // Only where the machine takes the action: elsewhere step 5 refuses it, naming it.
    const states = workflow.definition.machine.states as Record<string, { on?: object }>;
    const reconciling = stored && event in (states[stored.status]?.on ?? {});
    const reconciliation =
      stored && reconciling && definition.reconcile
        ? await reconciliationOf(trx, definition.reconcile, stored.id, draft.data)
        : undefined;
    if (stored && reconciliation && reconciliation.receivedCents < reconciliation.dueCents)
      return this.shortfall(trx, workflow, stored, reconciliation, principal, request);
    // 4. Effects the guards and the validation read (the fees now due) run first.
    const context = {
      action,
      fromStatus,
      document: draft,
      request,
      principal,
      now,
      cause,
      previousOwner,
    };
    await this.runEffects(trx, workflow, definition.before ?? [], context);
    // 5. The machine decides on the document as the action would leave it.
    const target = actionPlansOf(workflow).next(fromStatus, {
      type: event,
      input: guardInput(
        stored
          ? { ...stored, data: draft.data }
          : {
              status: NEW_STATE,
              previous_status: null,
              owner: principal.subject,
              assignee: null,
              number: null,
              data: draft.data,
            },
        principal,
      ),
    });
    if (!target)
      throw new ApiProblem(409, ERROR_CODES.actionNotAllowed, { action, status: fromStatus });
    // Separation of duties: the caller's own earlier actions may bar this one (duties.ts).
    if (stored && definition.notBy)
      requireDuties(action, definition, await takenBy(trx, workflow, stored.id, principal));
    if (linking) checkFires(linking.links, linking.fires, principal);
    // 6. The payload.
    checkNotes(definition, request.notes);
    if ((definition.payload ?? 'none') === 'data' && !isObject(request.data))
      throw invalid([{ path: '/data', rule: 'type', params: { type: 'object' } }]);
    const missing = missingRequires(definition.requires, draft.data);
    if (missing.length) throw invalid(missing.map((path) => ({ path, rule: 'required' })));
    // A decision for every person the document is for (`persons`), checked as `requires` is.
    const decides = decidesPersons(workflow.definition, action);
    if (decides) checkPersonDecisions(workflow.definition, draft.data);
    draft.data = await this.validData(trx, workflow, definition, draft.data);
    // Uploads named must be the owner's (a new document's: the caller's own uploads).
    await checkFileReferences(trx, stored?.owner ?? principal.subject, draft.data, stored?.data);
    // The round of requests for information the action opens or answers (requests.ts).
    const catalogs = this.catalogs(trx);
    await takeRequests({ trx, workflow, action, stored, request, principal, now, catalogs });
    // Screening against the block catalogues: a hit refuses the action (screening.ts).
    const screened = { type: workflow.definition.id, id: stored?.id ?? null, action };
    const actor = principal.subject;
    await refuseOnScreeningHit(trx, workflow.definition, { ...screened, actor }, draft.data, now);
    // 7. The write.
    const author = {
      subject: principal.subject,
      name: principal.name ?? principal.preferredUsername ?? principal.subject,
      email: principal.email ?? null,
      mobile: principal.phoneNumber ?? null,
      onBehalfOf: stored && onBehalfOf(stored, delegate),
    };
    const line = { action, fromStatus, notes: request.notes, author, now };
    const newRow = { ...draft, status: target, ownerMobile: draft.ownerMobile ?? null };
    if (!stored && !definition.effects?.length && !linking?.fires.length) {
      // Nothing runs on the new row before its first version: both are written at once.
      const row = await insertFirstVersion(trx, newRow, line);
      return this.answer(trx, workflow, fromStatus, row, principal, now, delegate);
    }
    if (!stored) {
      const inserted = await insertDocument(trx, newRow, author, now);
      // Keeps what `before` effects set beyond the row (a message's writer as its assignee); the
      // owner columns the insert wrote are not written again.
      Object.assign(draft, { ...draftOf(inserted), data: draft.data, assignee: draft.assignee });
      delete draft.ownerMobile;
    }
    draft.status = target;
    await this.runEffects(trx, workflow, definition.effects ?? [], context);
    if (decides)
      await settleRefusedPersons({
        trx,
        environment: this.environment,
        workflow: workflow.definition,
        entity: workflow.entity,
        ...context,
      });
    // A renewal's action moves the document it renews (its grant extends it), all or nothing.
    await this.fireRenewed(trx, workflow, draft, action, principal);
    let moved: DocumentRow[] = [];
    if (linking?.fires.length) {
      await this.fireLinked(trx, workflow, draft, linking, principal);
      // What the items show of the documents moved (the amount now paid) is read again.
      moved = await findNumbered(
        trx,
        linking.links.types,
        linking.named.map((l) => l.number),
      );
      fillLinks(
        linking.links,
        draft.data,
        linking.named.map((l) => ({ ...l, row: moved.find((r) => r.id === l.row.id) ?? l.row })),
      );
    }
    const version = stored ? stored.version + 1 : 1;
    const row = await writeVersion(trx, draft, {
      version,
      expected: stored ? stored.version : 1,
      ...line,
    });
    // The row was locked and its version checked; should this miss, roll back, never overwrite.
    if (!row) throw new ApiProblem(409, ERROR_CODES.staleVersion, { version: version - 1 });
    if (reconciliation)
      await this.settled(trx, workflow, row, reconciliation, moved, principal, now);
    // 8. The answer.
    return this.answer(trx, workflow, fromStatus, row, principal, now, delegate);
  }

  /**
   * Less was received than is due: the round is recorded, nothing settles, and the declared
   * `short` action is taken instead on the data the officer sent, its notes the difference in
   * the holder's language.
   */
  private async shortfall(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    stored: DocumentRow,
    reconciliation: Reconciliation,
    principal: Principal,
    request: ActionRequest,
  ): Promise<DocumentView> {
    const short = systemAction(workflow, reconciliation.declared.short);
    const { accounts, texts } = this.environment;
    const language = await holderLanguageOf(trx, accounts, workflow.definition, stored);
    const notes = shortfallNote(texts, language, reconciliation);
    await recordReconciliation(trx, reconciliation, stored, principal.subject, [], new Date());
    const subject = { row: stored };
    const { short: action } = reconciliation.declared;
    return this.run(trx, workflow, subject, action, short, principal, { ...request, notes });
  }

  /** The round settled: recorded with the fee lines of the documents moved; an excess refunded. */
  private async settled(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    row: DocumentRow,
    reconciliation: Reconciliation,
    moved: DocumentRow[],
    principal: Principal,
    now: Date,
  ): Promise<void> {
    const feesOf = (type: string) => this.workflows.get(type)?.definition.payment?.fees;
    const lines = settledLines(moved, feesOf);
    await recordReconciliation(trx, reconciliation, row, principal.subject, lines, now);
    const language = await holderLanguageOf(
      trx,
      this.environment.accounts,
      workflow.definition,
      row,
    );
    await refundExcess(trx, reconciliation, row, principal.subject, language, now);
  }

  /** The timers set as the status written asks (timer-rows.ts), then the answer with them. */
  private async answer(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    fromStatus: string,
    row: DocumentRow,
    principal: Principal,
    now: Date,
    delegate?: Delegate,
  ): Promise<DocumentView> {
    await scheduleTimers(trx, workflow.definition, fromStatus, row, now);
    const timers = await pendingTimers(trx, workflow.definition, row);
    if (delegate)
      return delegatedView(
        documentView(row, delegateActions(workflow, row, principal, delegate), timers),
        delegate,
      );
    return documentView(row, await offered(trx, workflow, row, principal), timers);
  }

  /** The system actions fired on linked documents, each through this pipeline, noting the mover. */
  private async fireLinked(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    source: DocumentDraft,
    linking: Linking,
    principal: Principal,
  ): Promise<void> {
    const { links } = linking;
    const number = source.number ?? source.id;
    const note = {
      key: links.note,
      params: { number },
      text: translate(this.environment.texts, 'en', links.note, { number }),
    };
    const actor: Principal = { ...principal, subject: `system:${workflow.definition.id}` };
    const cause: EffectCause = { type: source.type, id: source.id, number: source.number };
    for (const { linked, action } of linking.fires)
      await this.actAsSystem(trx, linked.row.type, linked.row.id, action, actor, note, cause);
  }

  /** The system action `renewal.fires` names for this action, on the document renewed. */
  private async fireRenewed(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    source: DocumentDraft,
    action: string,
    principal: Principal,
  ): Promise<void> {
    const renewal = workflow.definition.renewal;
    const fired = renewal?.fires[action];
    if (!renewal || !fired || !renewedReference(workflow.definition, source.data)) return;
    const renewed = await renewedDocument(trx, workflow.definition, source.data, 'update');
    if (!renewed)
      throw new ApiProblem(409, ERROR_CODES.actionNotAllowed, { action, status: source.status });
    const number = source.number ?? source.id;
    const note = {
      key: renewal.note,
      params: { number },
      text: translate(this.environment.texts, 'en', renewal.note, { number }),
    };
    const actor: Principal = { ...principal, subject: `system:${workflow.definition.id}` };
    const cause: EffectCause = {
      type: source.type,
      id: source.id,
      number: source.number,
      data: source.data,
    };
    const { id, type } = { id: renewed.id, type: workflow.definition.id };
    await this.actAsSystem(trx, type, id, fired, actor, note, cause);
  }

  private async runEffects(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    names: readonly string[],
    context: Omit<EffectContext, 'trx' | 'environment' | 'workflow' | 'entity'>,
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
        ...context,
      });
    }
  }

  /** The catalogues as kept by this process, else read in the transaction. */
  private catalogs(trx: Transaction<Database>): CatalogReader {
    return this.environment.catalogs?.through(trx) ?? catalogsIn(trx);
  }

  /** Validates as a draft, or, for actions that submit, against the full schema and named rules. */
  private async validData(
    trx: Transaction<Database>,
    workflow: CompiledWorkflow,
    action: WorkflowAction,
    given: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    // Sections that no longer apply (their `when`) are neither checked nor kept.
    const data = applicableData(workflow.entity, given);
    const validate = action.validate ? workflow.validateFull : workflow.validateDraft;
    const problems = problemsOf(validate(data) ? [] : (validate.errors ?? []));
    if (action.validate) {
      const uses = workflow.entity.rules ?? [];
      const now = new Date();
      const catalogs = this.catalogs(trx);
      const context = { db: trx, document: data, now, catalogs };
      const decided = [
        ...runRules(uses, data),
        ...(await runServerRules(uses, context, workflow.implementations.serverRules)),
      ];
      problems.push(
        ...decided.map(({ path, message, params }) => ({
          path,
          rule: message.replace(/^validation\./, ''),
          params,
        })),
        ...(await catalogFieldProblems(catalogs, catalogFields(workflow), data, now)),
      );
    }
    // Choices naming other documents are checked on every change: an unknown code is never stored.
    problems.push(...(await documentChoiceProblems(trx, workflow.entity, data)));
    if (problems.length) throw invalid(problems);
    return data;
  }
}

/** The entity's catalogue select fields, found once per workflow. */
const catalogFields = perObject((workflow: CompiledWorkflow) => catalogFieldsOf(workflow.entity));

/** What the caller may take next on the row, their own earlier actions counted (duties.ts). */
async function offered(
  trx: Transaction<Database>,
  workflow: CompiledWorkflow,
  row: DocumentRow,
  principal: Principal,
): Promise<string[]> {
  return allowedActions(workflow, row, principal, await takenBy(trx, workflow, row.id, principal));
}

/** A system action the workflow declares (the loader checked every one named). */
function systemAction(workflow: CompiledWorkflow, action: string): WorkflowAction {
  const definition = declaredAction(workflow.definition, action);
  if (!definition) throw new Error(`Workflow ${workflow.definition.id} has no action ${action}`);
  return definition;
}

/** Reads a document the caller may see (else 404, so ids reveal nothing), locked when asked. */
export async function visibleRow(
  db: Kysely<Database> | Transaction<Database>,
  workflow: CompiledWorkflow,
  principal: Principal,
  id: string,
  forUpdate = false,
): Promise<DocumentRow> {
  const row = await findDocument(db, workflow.definition.id, await documentId(db, workflow, id), {
    forUpdate,
  });
  if (!row || !maySee(workflow, principal, row)) throw new ApiProblem(404, ERROR_CODES.notFound);
  return row;
}

/**
 * A document the caller sees, or holds a running delegation of (delegations.ts): what they may
 * read and act on. A former delegate is told the delegation ended (403); anyone else, 404.
 */
export async function readableRow(
  db: Kysely<Database> | Transaction<Database>,
  workflow: CompiledWorkflow,
  principal: Principal,
  id: string,
  accounts: EffectEnvironment['accounts'],
  forUpdate = false,
): Promise<{ row: DocumentRow; delegate?: Delegate }> {
  const row = await findDocument(db, workflow.definition.id, await documentId(db, workflow, id), {
    forUpdate,
  });
  if (row && maySee(workflow, principal, row)) return { row };
  const delegate = row && (await delegateOf(db, accounts, workflow, row, principal, new Date()));
  if (!row || !delegate) throw new ApiProblem(404, ERROR_CODES.notFound);
  return { row, delegate };
}

/** The id a request names a document by: its id, or its `key`'s value (an account's login). */
async function documentId(
  db: Kysely<Database> | Transaction<Database>,
  workflow: CompiledWorkflow,
  reference: string,
): Promise<string> {
  if (UUID.test(reference)) return reference;
  const key = workflow.definition.key;
  const named =
    key && reference.length <= 200
      ? await findByKey(db, workflow.definition.id, key.pointer, reference, {
          includeDeleted: key.keptWhenDeleted,
        })
      : undefined;
  if (!named) throw new ApiProblem(404, ERROR_CODES.notFound);
  return named.id;
}

/** The data an action leaves: the sections it may edit from the request, the rest as stored. */
function mergedData(
  workflow: CompiledWorkflow,
  action: WorkflowAction,
  current: Record<string, unknown>,
  incoming: unknown,
): Record<string, unknown> {
  // Not an object: nothing to merge; step 6 refuses it once the machine has spoken.
  if ((action.payload ?? 'none') !== 'data' || !isObject(incoming)) return current;
  const unknown = Object.keys(incoming).filter((key) => !workflow.allSections.includes(key));
  if (unknown.length) {
    throw invalid(
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
    const value = incoming[section];
    if (value === undefined) delete data[section];
    else data[section] = value;
  }
  return data;
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
    ...owner,
    assignee: null,
    number: null,
    year: null,
    serial: null,
    submittedAt: null,
    data,
  };
}

/** The system actions that take a document into this one's links (`fires.added` of any action). */
function addedFires(actions: Record<string, WorkflowAction>): string[] {
  return [...new Set(Object.values(actions).flatMap((action) => action.fires?.added ?? []))];
}

function checkNotes(action: WorkflowAction, notes: unknown): void {
  if (notes !== undefined && (typeof notes !== 'string' || notes.length > 4000))
    throw invalid([{ path: '/notes', rule: 'maxLength', params: { limit: 4000 } }]);
  if (action.notes === 'required' && (typeof notes !== 'string' || !notes.trim()))
    throw invalid([{ path: '/notes', rule: 'required' }]);
}
