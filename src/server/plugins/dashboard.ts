import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { requireSignedIn } from '../auth/plugin';
import { DASHBOARD_ROUTES } from '../api-contract/fixed-routes';
import { latestMessages } from '../dashboard/inbox';
import { searchLibrary } from '../dashboard/library';
import { dashboardCaller } from '../dashboard/rows';
import { workflowStatistics } from '../dashboard/statistics';
import { searchTasks } from '../dashboard/tasks';
import { DocumentVerifier } from '../dashboard/verification';
import type { Database } from '../db/schema';
import type { SearchLimits } from '../documents/store/lists';
import type { CompiledWorkflow } from '../documents/workflows';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { SharedRateLimit } from '../http/shared-rate-limit';

export interface DashboardPluginOptions {
  db: Kysely<Database>;
  /** The workflows of the backend the routes are mounted on (evisa). */
  workflows: ReadonlyMap<string, CompiledWorkflow>;
  /** How much a search may return and how far it counts. */
  searchLimits: SearchLimits;
  /** Verification requests per client address and minute; 0: no limit. */
  verificationRateLimit: number;
}

/**
 * Workflow ids the routes below would hide: the document routes `/:type` (POST) and
 * `/:type/:id` (GET) of the same backend lose to these fixed paths.
 */
const RESERVED_IDS = ['statistics', 'verification'];

/**
 * The dashboard and home page of the evisa backend: My Library and My Tasks (searches across
 * every workflow), a workflow's statistics, and the public check of an electronic document.
 * Mounted beside the document routes, under the same prefix.
 */
export async function dashboardPlugin(app: FastifyInstance, options: DashboardPluginOptions) {
  const { db, workflows, searchLimits } = options;
  const hidden = RESERVED_IDS.filter((id) => workflows.has(id));
  if (hidden.length)
    throw new Error(`Workflow id(s) ${hidden.join(', ')} clash with routes of the dashboard`);
  const verifier = new DocumentVerifier(db, workflows.values());
  // Messages are the inbox's, not documents of a library or tasks of anyone's.
  const inbox = [...workflows.values()].find((w) => w.definition.inbox);
  const documents = new Map([...workflows].filter(([, w]) => w !== inbox));

  app.patch('/dashboard/library', DASHBOARD_ROUTES.library, async (request) =>
    searchLibrary(db, documents, dashboardCaller(request), request.body, searchLimits),
  );
  app.patch('/dashboard/tasks', DASHBOARD_ROUTES.tasks, async (request) =>
    searchTasks(db, documents, dashboardCaller(request), request.body, searchLimits),
  );
  app.get<{ Querystring: { limit?: number } }>(
    '/dashboard/inbox',
    DASHBOARD_ROUTES.inbox,
    async (request, reply) => {
      const principal = requireSignedIn(request);
      if (!inbox) return { unread: 0, workflow: null, items: [] };
      const answer = await latestMessages(db, inbox, principal, request.query.limit ?? 5);
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
  app.get<{ Params: { workflowId: string } }>(
    '/statistics/:workflowId',
    DASHBOARD_ROUTES.statistics,
    async (request) =>
      workflowStatistics(db, workflows.get(request.params.workflowId), requireSignedIn(request)),
  );

  // The check is public and answers yes or no about a secret (the second factor): limiting
  // each client address is what keeps it from being guessed. Counted before the body is read,
  // so malformed requests count too; counted in the database, so every process of the portal
  // counts the same client's checks together.
  const limit = options.verificationRateLimit;
  if (limit > 0) {
    const counts = new SharedRateLimit(db);
    const purge = setInterval(
      () =>
        void counts
          .purge()
          .catch((error: unknown) => app.log.warn({ err: error }, 'rate limit purge failed')),
      10 * 60_000,
    );
    purge.unref();
    app.addHook('onClose', async () => clearInterval(purge));
    await app.register(rateLimit, {
      global: false,
      store: counts.storeClass(),
      errorResponseBuilder: (_request, context) =>
        new ApiProblem(
          429,
          ERROR_CODES.tooManyRequests,
          { seconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
          undefined,
          'dashboard.errors.tooManyChecks',
        ),
    });
  }
  app.post(
    '/verification',
    {
      ...DASHBOARD_ROUTES.verification,
      config: limit > 0 ? { rateLimit: { max: limit, timeWindow: 60_000 } } : {},
    },
    async (request) => verifier.verify(request.body),
  );
}
