import { resolvePointer } from '../../src/core/rules/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import type { AppOverrides } from '../../src/server/process';
import type { ServerConfig } from '../../src/server/config';
import { startApiServer, type ApiHarness } from './api-server';
import { databaseKinds } from './databases';
import { definitionsWithFixtures } from './definitions-dir';
import {
  expectedTarget,
  isTimerStep,
  pathsToEveryStatus,
  type PathToStatus,
} from './workflow-walk';

/** How long the walk of one workflow's actions may take, on a busy machine too. */
const WALK_TIMEOUT_MS = 300_000;

/** What a workflow's generated test needs to know beyond its definition. */
export interface WalkOptions {
  type: string;
  /** Data variants the walk offers with each event, so guarded branches are all reached. */
  dataVariants: Array<Record<string, unknown>>;
  /** The request body of an action besides `version` (its notes, assignee or data). */
  payloadFor(action: string, data: Record<string, unknown>): Record<string, unknown>;
  /** Reference data the walk needs (fees...), created before it starts. */
  prepare?(api: ApiHarness): Promise<void>;
  /** At least this many (status, action, role) cases must have been checked. */
  minimumCases: number;
  /**
   * Every role against every action (the default), or, for large workflows, each action's own
   * roles, a role of another action and no role at all.
   */
  everyRole?: boolean;
  /** Seed the reference catalogues (default on); off when `prepare` creates all the walk needs. */
  referenceData?: boolean;
  /**
   * Statuses the walk does not reach by itself, each covered by a test of its own: a renewal's
   * (a document started from another, `renewal`), whose path the machine alone cannot tell.
   */
  reachedElsewhere?: string[];
  /**
   * Data for each new document, made when it is created (an invoice's data names applications
   * submitted for it); by default the path's data variant.
   */
  freshData?(api: ApiHarness, owner: string): Promise<Record<string, unknown>>;
  /**
   * How the system actions another document fires on this one (`fires`: an invoice's) are
   * taken: the way they happen, through that document's own actions.
   */
  firedSteps?(
    api: ApiHarness,
    owner: string,
  ): (
    type: string,
    doc: { id: string; version: number; status: string },
    action: string,
  ) => Promise<unknown>;
  /**
   * What the walk's server needs beyond the defaults (an SMTP server the outbox delivers to,
   * the outbox's pace), started before it and closed after it.
   */
  server?(): Promise<{
    config: Partial<ServerConfig>;
    outbox?: AppOverrides['outbox'];
    close(): Promise<void>;
  }>;
  /**
   * How the system actions nothing else takes are taken (an inbox message's delivery, through
   * the outbox), the way they happen; without it, through the payment gateway.
   */
  systemSteps?(
    api: ApiHarness,
  ): (doc: { id: string; version: number; status: string }, action: string) => Promise<unknown>;
}

const OWNER = 'owner-walk';
const SECOND = 'second-walk';

/**
 * Whether the walker (the owner, every persona) takes this step of the path: not when an
 * action it took earlier on the path is one of the step's `notBy` (separation of duties), then
 * the second officer does.
 */
function walkerTakes(
  workflow: WorkflowDefinition,
  path: PathToStatus,
  step: PathToStatus['steps'][number],
): boolean {
  const took = new Set<string>();
  for (const one of path.steps) {
    const barred = workflow.actions[one.action]?.notBy?.some((earlier) => took.has(earlier));
    if (one === step) return !barred;
    if (!barred) took.add(one.action);
  }
  return true;
}

/** The actions the walker itself took along the path (those `walkerTakes`). */
function walkerTook(workflow: WorkflowDefinition, path: PathToStatus): Set<string> {
  return new Set(
    path.steps.filter((step) => walkerTakes(workflow, path, step)).map((step) => step.action),
  );
}

/** A document as the API answers it. */
interface WalkedDocument {
  id: string;
  version: number;
  status: string;
  data: Record<string, unknown>;
}
const CARDS: Record<string, string> = { pay: '4111111111111111', finalise: '4000000000000002' };

/**
 * Generated from the machine, not hand-picked: for every status the workflow can reach, every
 * action and every role, the action succeeds exactly when the machine allows it in that status
 * and the caller holds one of its roles; otherwise it is refused (403 or 409) and nothing
 * changes. System actions (pay, finalise) are refused to every caller; the walk reaches the
 * statuses after them the way payers do, through the sandbox gateway's page.
 */
export function describeGeneratedWalk(options: WalkOptions): void {
  describe.each(databaseKinds())(
    `generated (status, action, role) test of ${options.type} on %s`,
    (kind) => {
      let api: ApiHarness;
      let removeDefinitions: () => Promise<void>;
      let workflow: WorkflowDefinition;
      let paths: PathToStatus[];
      let driver: string;
      /** Another officer holding every role: takes a step `notBy` bars the walker from. */
      let second: string;
      let fired: Set<string>;
      let firedStep: ReturnType<NonNullable<WalkOptions['firedSteps']>> | undefined;
      let systemStep: ReturnType<NonNullable<WalkOptions['systemSteps']>> | undefined;
      let extra: Awaited<ReturnType<NonNullable<WalkOptions['server']>>> | undefined;
      const tokens = new Map<string, string>();
      const base = `/api/evisa/${options.type}`;

      beforeAll(async () => {
        const definitions = await definitionsWithFixtures();
        removeDefinitions = definitions.remove;
        extra = await options.server?.();
        api = await startApiServer(
          kind,
          {
            definitionsDir: definitions.dir,
            referenceData: options.referenceData ?? true,
            ...extra?.config,
          },
          serverModules,
          extra?.outbox,
        );
        await options.prepare?.(api);
        workflow = api.server.definitions.workflows.find((w) => w.id === options.type)!;
        paths = pathsToEveryStatus(workflow, options.dataVariants).filter(
          (path) => !options.reachedElsewhere?.includes(path.status),
        );
        // System actions other documents fire on this type (an invoice paying it).
        fired = new Set(
          api.server.definitions.workflows
            .filter((w) => w.links?.types.includes(options.type))
            .flatMap((w) => Object.values(w.actions).flatMap((a) => Object.values(a.fires ?? {}))),
        );
        firedStep = options.firedSteps?.(api, OWNER);
        systemStep = options.systemSteps?.(api);
        const suffixes = [...new Set(Object.values(workflow.actions).flatMap((a) => a.roles))];
        driver = await api.issuer.token({
          sub: OWNER,
          name: 'Walker',
          groups: suffixes.map((s) => `${workflow.rolePrefix}${s}`),
        });
        second = await api.issuer.token({
          sub: SECOND,
          name: 'Second walker',
          groups: suffixes.map((s) => `${workflow.rolePrefix}${s}`),
        });
        for (const suffix of suffixes) {
          tokens.set(
            suffix,
            await api.issuer.token({
              sub: OWNER,
              name: `Only ${suffix}`,
              groups: [`${workflow.rolePrefix}${suffix}`],
            }),
          );
        }
        tokens.set(
          '(no role)',
          await api.issuer.token({ sub: OWNER, name: 'No role', groups: ['view-profile'] }),
        );
      });
      afterAll(async () => {
        await api?.close();
        await extra?.close();
        await removeDefinitions?.();
      });

      /** A system step, as it happens: the payer on the gateway's page, the gateway's word. */
      async function throughGateway(id: string, action: string) {
        const purchase = await api.call('POST', `/api/payments/${options.type}/${id}/purchase`, {
          token: driver,
        });
        expect(purchase.statusCode, purchase.body).toBe(200);
        const page = new URL(purchase.json().redirectUrl as string).pathname;
        const form = new URLSearchParams({
          cardNumber: CARDS[action] ?? '',
          cardName: 'Walker',
          expiry: '12/39',
          cvc: '123',
        });
        const paid = await api.app.inject({
          method: 'POST',
          url: page,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: form.toString(),
        });
        expect(paid.statusCode, paid.body).toBe(303);
        return (await api.call('GET', `${base}/${id}`, { token: driver })).json();
      }

      /** Creates a document and walks it along the path, as its owner holding every role. */
      async function documentIn(path: PathToStatus): Promise<WalkedDocument> {
        const [first, ...rest] = path.steps;
        const data = options.freshData ? await options.freshData(api, OWNER) : first!.data;
        // A path whose data renews a document (`renewal.link`) starts as renewals do: from a
        // document walked to a status it may be renewed from (the link is the server's to write).
        const renewal = workflow.renewal;
        const renews = renewal && resolvePointer(first!.data, renewal.link) !== undefined;
        const from = renews
          ? (await documentIn(paths.find((p) => p.status === renewal.statuses[0])!)).id
          : undefined;
        const created = await api.call('POST', base, {
          token: driver,
          body: renews
            ? { action: renewal.start, from, data: {} }
            : { action: first!.action, data },
        });
        expect(created.statusCode, created.body).toBe(201);
        let doc = created.json() as WalkedDocument;
        for (const step of rest) {
          if (isTimerStep(step.action)) {
            // Its time comes: the timers due in a century fire (this one among them).
            await api.server.timers.runOnce(new Date(Date.now() + 100 * 365 * 24 * 3600 * 1000));
            doc = (await api.call('GET', `${base}/${doc.id}`, { token: driver })).json();
            continue;
          }
          if (workflow.actions[step.action]?.system) {
            if (fired.has(step.action)) {
              if (!firedStep) throw new Error(`${options.type}: no firedSteps for ${step.action}`);
              doc = (await firedStep(options.type, doc as never, step.action)) as typeof doc;
            } else if (systemStep) doc = (await systemStep(doc, step.action)) as typeof doc;
            else doc = await throughGateway(doc.id, step.action);
            continue;
          }
          const response = await api.call('POST', `${base}/${doc.id}/actions/${step.action}`, {
            token: walkerTakes(workflow, path, step) ? driver : second,
            body: {
              version: doc.version,
              ...options.payloadFor(step.action, options.freshData ? doc.data : step.data),
            },
          });
          expect(response.statusCode, `${step.action}: ${response.body}`).toBe(200);
          doc = response.json();
        }
        expect(doc.status).toBe(path.status);
        return doc;
      }

      it('reaches every status of the machine', () => {
        expect(paths.map((p) => p.status).sort()).toEqual(
          Object.keys(workflow.machine.states)
            .filter((status) => !options.reachedElsewhere?.includes(status))
            .sort(),
        );
      });

      /** The personas an action is tried with. */
      const personasFor = (roles: readonly string[]): Array<[string, string]> => {
        if (options.everyRole !== false) return [...tokens];
        const other = [...tokens.keys()].find((p) => p !== '(no role)' && !roles.includes(p));
        const names = new Set([...roles, '(no role)', ...(other ? [other] : [])]);
        return [...tokens].filter(([persona]) => names.has(persona));
      };

      // Hundreds of requests in one case (every action, persona and status): 20-35 s on a quiet
      // 2-core machine, three times that beside other suites, so it is given more than the
      // project's 60 s a case.
      it(
        'allows an action exactly when the machine and the roles allow it',
        async () => {
          let checked = 0;
          let barredSeen = 0;
          for (const path of paths) {
            // A refused action changes nothing, so the same document serves until one succeeds.
            let current: WalkedDocument | undefined;
            for (const [action, definition] of Object.entries(workflow.actions)) {
              const target = expectedTarget(workflow, path.document, action);
              const data = path.document.data;
              for (const [persona, token] of personasFor(definition.roles)) {
                // Only the server fires a system action: the API refuses it to every caller.
                const roleFits = definition.roles.includes(persona) && !definition.system;
                if (path.status === 'NEW') {
                  if (action !== 'store' && action !== 'drop' && !options.freshData) continue;
                  if (!expectedTarget(workflow, path.document, action) && roleFits) continue;
                  // Nothing has been filled in yet: a create (or a drop) brings a whole document.
                  const body = {
                    action,
                    // Fresh data only where the creation is to succeed: refusals never read it.
                    data:
                      options.freshData && roleFits && target
                        ? await options.freshData(api, OWNER)
                        : options.dataVariants[0],
                  };
                  const created = await api.call('POST', base, { token, body });
                  expect(created.statusCode, `${persona} ${action} from NEW`).toBe(
                    roleFits && target ? 201 : 403,
                  );
                  checked++;
                  continue;
                }
                const doc = current ?? (await documentIn(path));
                current = doc;
                const response = await api.call('POST', `${base}/${doc.id}/actions/${action}`, {
                  token,
                  body: {
                    version: doc.version,
                    ...options.payloadFor(action, options.freshData ? doc.data : data),
                  },
                });
                const where = `${persona} ${action} in ${path.status}: ${response.body}`;
                // Every persona is the walker: an action its earlier steps bar is refused.
                const barred = definition.notBy?.some((e) => walkerTook(workflow, path).has(e));
                if (roleFits && target && barred) {
                  expect(response.statusCode, where).toBe(403);
                  expect(response.json().error.code, where).toBe('SEPARATION_OF_DUTIES');
                  const after = (
                    await api.call('GET', `${base}/${doc.id}`, { token: driver })
                  ).json();
                  expect(after.version, where).toBe(doc.version);
                  expect(after.allowedActions, where).not.toContain(action);
                  barredSeen++;
                } else if (roleFits && target) {
                  expect(response.statusCode, where).toBe(200);
                  expect(response.json().status, where).toBe(target);
                  current = undefined;
                } else {
                  const refused =
                    definition.system || !definition.roles.includes(persona) ? 403 : 409;
                  expect(response.statusCode, where).toBe(refused);
                  const after = (
                    await api.call('GET', `${base}/${doc.id}`, { token: driver })
                  ).json();
                  expect(after.version, where).toBe(doc.version);
                  expect(after.status, where).toBe(path.status);
                }
                checked++;
              }
            }
          }
          expect(checked).toBeGreaterThanOrEqual(options.minimumCases);
          // A workflow declaring `notBy` had the walker refused somewhere (separation of duties).
          if (Object.values(workflow.actions).some((a) => a.notBy))
            expect(barredSeen).toBeGreaterThan(0);
        },
        WALK_TIMEOUT_MS,
      );
    },
  );
}
