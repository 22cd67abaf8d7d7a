import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  DEFINITIONS_EDIT_ROLE,
  DEFINITIONS_PUBLISH_ROLE,
} from '../../core/definitions/studio-roles';
import { IDENTIFIER_PATTERN, isIdentifier } from '../../core/definitions/names';
import type { DefinitionBundle } from '../../core/definitions/types';
import { DEFINITION_SET_ROUTES } from '../api-contract/definition-set-routes';
import { requireAnyRole } from '../auth/plugin';
import type { DatabaseHandle } from '../db/database';
import { rolesGrantedBy } from '../implementations';
import { ungrantedRoles } from '../definitions/check-roles';
import { DefinitionsError, type DefinitionProblem } from '../definitions/load';
import { documentImpact } from '../definitions/document-impact';
import { checkDefinitions } from '../definitions/load';
import type { DefinitionPreviews } from '../definitions/previews';
import { publishDefinitions } from '../definitions/publish';
import { documentPart, portalIndex } from '../definitions/portal-parts';
import {
  newestSet,
  setHistory,
  setOfVersion,
  StaleSetError,
  type DefinitionSet,
  type DefinitionSetSummary,
} from '../definitions/sets';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { ServerModule } from '../module';

export { DEFINITIONS_EDIT_ROLE, DEFINITIONS_PUBLISH_ROLE };

export interface DefinitionSetsOptions {
  database: DatabaseHandle;
  modules: readonly ServerModule[];
  /** The set this app serves: a draft's schemas are compared with its own. */
  served: DefinitionBundle;
  /** The drafts checked here, kept for their previews' validator modules. */
  previews: DefinitionPreviews;
  /** Switches this process to the newest set, resolving once it serves it. */
  follow(): Promise<void>;
}

type Changes = Record<string, string | null>;

const MAX_NOTE = 500;

/**
 * `/api/definitions/sets`: the published sets of definitions, every version (who, when, why),
 * each one's files, and publishing: a new version from the newest one's files and the changes
 * given (a file's new text, or null to remove it), or an earlier version restored as the newest.
 * Publishing answers once this process serves the new version (the others follow within a
 * moment, on the set's notice), with warnings: the roles the new set names that no access unit
 * grants (their records are created by then; an administrator grants them).
 */
export async function definitionSetsPlugin(app: FastifyInstance, options: DefinitionSetsOptions) {
  const { database, modules } = options;
  const readers = [DEFINITIONS_EDIT_ROLE, DEFINITIONS_PUBLISH_ROLE];

  app.get('/', DEFINITION_SET_ROUTES.history, async (request) => {
    requireAnyRole(request, readers);
    return { versions: (await setHistory(database.db)).map(summary) };
  });

  app.get<{ Params: { version: string } }>(
    '/:version',
    DEFINITION_SET_ROUTES.files,
    async (request) => {
      requireAnyRole(request, readers);
      const set = await existingSet(request.params.version);
      return { ...summary(set), files: Object.fromEntries(set.files) };
    },
  );

  app.post('/', DEFINITION_SET_ROUTES.publish, async (request, reply) => {
    const principal = requireAnyRole(request, [DEFINITIONS_PUBLISH_ROLE]);
    const body = publishBody(request.body);
    const files = await changedFiles(body.base, body.changes);
    const { set, warnings } = await publish(files, {
      base: body.base,
      note: body.note,
      by: principal.preferredUsername ?? principal.subject,
      source: 'publish',
    });
    return reply.status(201).send({ ...summary(set), warnings });
  });

  app.post<{ Params: { version: string } }>(
    '/:version/restore',
    DEFINITION_SET_ROUTES.restore,
    async (request, reply) => {
      const principal = requireAnyRole(request, [DEFINITIONS_PUBLISH_ROLE]);
      const earlier = await existingSet(request.params.version);
      const body = restoreBody(request.body);
      const { set, warnings } = await publish(earlier.files, {
        base: body.base,
        note: body.note,
        by: principal.preferredUsername ?? principal.subject,
        source: 'restore',
      });
      return reply.status(201).send({ ...summary(set), warnings });
    },
  );

  // A draft checked as a publish would check it, writing nothing: its problems, or the roles
  // nobody holds, the stored documents its schemas would refuse (when asked), and the preview
  // of the document type asked for (its version names the draft's validator modules, below).
  app.post('/check', DEFINITION_SET_ROUTES.check, async (request) => {
    requireAnyRole(request, readers);
    const body = checkBody(request.body);
    const files = await changedFiles(body.base, body.changes);
    let bundle: DefinitionBundle;
    try {
      bundle = await checkDefinitions(files, modules);
    } catch (error) {
      if (error instanceof DefinitionsError)
        return { valid: false, problems: error.problems, warnings: [] };
      throw error;
    }
    options.previews.add(bundle);
    const granted = await rolesGrantedBy(modules, (g) => g.stored(database.db, bundle));
    const warnings = granted ? ungrantedRoles(bundle.workflows, bundle.catalogs, granted) : [];
    const part = body.document === undefined ? undefined : documentPart(bundle, body.document);
    // Reads every stored document of each changed type: asked for by a check, not by the
    // previews a designer shows after each change.
    const impact = body.impact
      ? await documentImpact(database.db, options.served, bundle)
      : undefined;
    return {
      valid: true,
      problems: [],
      warnings,
      ...(impact && { impact }),
      version: bundle.version,
      ...(part && { document: { ...part, shared: portalIndex(bundle).translations } }),
    };
  });

  // The validator modules of a checked draft, imported by the studio's previews as the portal
  // imports the served set's (public as those are: a module holds schemas, no data; the draft's
  // digest names it). 404 once the draft is no longer kept.
  app.get<{ Params: { version: string; kind: string; file: string } }>(
    '/previews/:version/validators/:kind/:file',
    DEFINITION_SET_ROUTES.previewValidator,
    async (request, reply) => {
      const { version, kind, file } = request.params;
      const id = file.endsWith('.js') ? file.slice(0, -3) : '';
      const previews = options.previews;
      const source =
        kind === 'catalog'
          ? await previews.catalogModule(version, id)
          : kind === 'schema'
            ? await previews.documentModule(version, id)
            : undefined;
      return sendModule(reply, source);
    },
  );

  app.get<{ Params: { version: string; entity: string; file: string } }>(
    '/previews/:version/validators/schema/:entity/:file',
    DEFINITION_SET_ROUTES.previewSectionValidator,
    async (request, reply) => {
      const { version, entity, file } = request.params;
      const section = file.endsWith('.js') ? file.slice(0, -3) : '';
      return sendModule(reply, await options.previews.sectionModule(version, entity, section));
    },
  );

  /** The base's files with the changes applied; 409 when the base is not a version. */
  async function changedFiles(version: number, changes: Changes): Promise<Map<string, string>> {
    const base = await setOfVersion(database.db, version);
    if (!base) throw await stale();
    const files = new Map(base.files);
    for (const [file, text] of Object.entries(changes)) {
      if (text === null) files.delete(file);
      else files.set(file, text);
    }
    return files;
  }

  async function publish(
    files: ReadonlyMap<string, string>,
    request: Parameters<typeof publishDefinitions>[3],
  ): Promise<{ set: DefinitionSet; warnings: DefinitionProblem[] }> {
    try {
      const { set, bundle } = await publishDefinitions(database.db, modules, files, request);
      await options.follow();
      // Said, not refused: a role nobody holds yet (an administrator grants it next).
      const granted = await rolesGrantedBy(modules, (g) => g.stored(database.db, bundle));
      const warnings = granted ? ungrantedRoles(bundle.workflows, bundle.catalogs, granted) : [];
      return { set, warnings };
    } catch (error) {
      if (error instanceof StaleSetError) throw await stale();
      if (error instanceof DefinitionsError)
        throw new ApiProblem(
          422,
          ERROR_CODES.invalidDefinitions,
          { count: error.problems.length },
          undefined,
          undefined,
          { problems: error.problems },
        );
      throw error;
    }
  }

  async function stale(): Promise<ApiProblem> {
    const current = (await newestSet(database.db))?.version ?? 0;
    return new ApiProblem(409, ERROR_CODES.staleDefinitions, { current }, undefined, undefined, {
      current,
    });
  }

  async function existingSet(version: string): Promise<DefinitionSet> {
    const number = /^[1-9][0-9]{0,8}$/.test(version) ? Number(version) : undefined;
    const set = number === undefined ? undefined : await setOfVersion(database.db, number);
    if (!set) throw new ApiProblem(404, ERROR_CODES.notFound);
    return set;
  }
}

function sendModule(reply: FastifyReply, source: string | undefined) {
  if (source === undefined) throw new ApiProblem(404, ERROR_CODES.notFound);
  return reply
    .type('text/javascript; charset=utf-8')
    .header('cache-control', 'private, max-age=3600, immutable')
    .send(source);
}

function summary(set: DefinitionSetSummary) {
  return {
    version: set.version,
    digest: set.digest,
    source: set.source,
    note: set.note,
    publishedBy: set.publishedBy,
    publishedAt: set.publishedAt.toISOString(),
  };
}

/** The body of a publish, or 400 naming the first thing wrong with it. */
function publishBody(body: unknown): { base: number; note: string; changes: Changes } {
  const { base, note } = restoreBody(body);
  const changes = (body as { changes?: unknown }).changes;
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes))
    throw invalid('/changes', 'type', { type: 'object' });
  for (const [file, text] of Object.entries(changes as Record<string, unknown>)) {
    if (!/^[a-z0-9._/-]+\.json$/i.test(file) || file.split('/').includes('..'))
      throw invalid('/changes', 'propertyNames', { propertyName: file });
    if (text !== null && typeof text !== 'string')
      throw invalid(`/changes/${file}`, 'type', { type: 'string' });
  }
  return { base, note, changes: changes as Changes };
}

/** The body of a check: a publish's without the note, and the document type to preview. */
function checkBody(body: unknown): {
  base: number;
  changes: Changes;
  document?: string;
  impact: boolean;
} {
  if (typeof body !== 'object' || body === null) throw invalid('', 'type', { type: 'object' });
  const { base, changes } = publishBody({ ...body, note: 'check' });
  const { document, impact } = body as { document?: unknown; impact?: unknown };
  if (impact !== undefined && typeof impact !== 'boolean')
    throw invalid('/impact', 'type', { type: 'boolean' });
  if (document !== undefined && (typeof document !== 'string' || !isIdentifier(document)))
    throw invalid('/document', 'pattern', { pattern: IDENTIFIER_PATTERN });
  return {
    base,
    changes,
    impact: impact === true,
    ...(typeof document === 'string' && { document }),
  };
}

function restoreBody(body: unknown): { base: number; note: string } {
  if (typeof body !== 'object' || body === null) throw invalid('', 'type', { type: 'object' });
  const { base, note } = body as { base?: unknown; note?: unknown };
  if (typeof base !== 'number' || !Number.isInteger(base) || base < 1)
    throw invalid('/base', 'type', { type: 'integer' });
  if (typeof note !== 'string' || note.trim() === '') throw invalid('/note', 'required', {});
  if (note.length > MAX_NOTE) throw invalid('/note', 'maxLength', { limit: MAX_NOTE });
  return { base, note: note.trim() };
}

function invalid(path: string, rule: string, params: Record<string, unknown>): ApiProblem {
  return new ApiProblem(400, ERROR_CODES.validationFailed, {}, [{ path, rule, params }]);
}
