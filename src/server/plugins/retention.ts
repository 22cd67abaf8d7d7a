import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { RETENTION_MANAGE_ROLE } from '../../core/retention/plan';
import { requestOrigin } from '../audit/log';
import { RETENTION_ROUTES } from '../api-contract/retention';
import { requireAnyRole } from '../auth/plugin';
import type { Database } from '../db/schema';
import type { RetentionService } from '../retention/runner';
import { invalid } from '../search/compile-search';

const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** An instant the caller gave (a date is its start, UTC), or a 400 naming the field. */
function instantOf(value: string | undefined, field: string, fallback: () => Date): Date {
  if (value === undefined || value === '') return fallback();
  const date = new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value);
  if (!INSTANT.test(value) || Number.isNaN(date.getTime()))
    throw invalid([{ path: `/${field}`, rule: 'format', params: { format: 'date-time' } }]);
  return date;
}

/** `/api/retention`: the dry run, the run of the plan shown, and the runs so far (docs/retention.md). */
export async function retentionPlugin(
  app: FastifyInstance,
  options: { db: Kysely<Database>; retention: RetentionService },
) {
  const { db, retention } = options;
  app.get<{ Querystring: { at?: string } }>('/plan', RETENTION_ROUTES.plan, async (request) => {
    requireAnyRole(request, [RETENTION_MANAGE_ROLE]);
    return retention.plan(instantOf(request.query.at, 'at', () => retention.now()));
  });
  app.post<{ Body: { at: string; digest: string } }>(
    '/run',
    RETENTION_ROUTES.run,
    async (request) => {
      const principal = requireAnyRole(request, [RETENTION_MANAGE_ROLE]);
      const at = instantOf(request.body.at, 'at', () => retention.now());
      return retention.runShown(at, request.body.digest, requestOrigin(request, principal));
    },
  );
  app.get('/runs', RETENTION_ROUTES.runs, async (request) => {
    requireAnyRole(request, [RETENTION_MANAGE_ROLE]);
    const rows = await db
      .selectFrom('retention_run')
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('id')
      .limit(20)
      .execute();
    return {
      items: rows.map((row) => ({
        id: row.id,
        at: new Date(row.at).toISOString(),
        startedAt: new Date(row.started_at).toISOString(),
        finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
        actorName: row.actor_name,
        done: row.done,
        held: row.held,
        skipped: row.skipped,
      })),
    };
  });
}
