import { UUID } from '../db/ids';
import { isStoredPositiveInteger } from '../db/integers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  deletedEntries,
  entryHistory,
  setDeleted,
  updateEntry,
  type ChangeOutcome,
} from '../catalog/changes';
import {
  catalogReaderRoles,
  isEnabled,
  roleList,
  type CatalogDefinition,
} from '../../core/definitions/types';
import { requireAnyRole, requireSignedIn } from '../auth/plugin';
import {
  ANY_OBJECT,
  CATALOG_HISTORY_LINE,
  CATALOG_IMPORT_RESULT,
  catalogEntryRecordSchema,
  catalogImportBodySchema,
  CODE_NAME_ITEMS,
  itemsOf,
  NO_CONTENT,
  perDefinition,
  searchRequestSchema,
  searchResultSchema,
} from '../api-contract/common';
import type { CatalogCache } from '../catalog/cache';
import { chooseOptions } from '../catalog/options';
import { checkEntry } from '../catalog/checked-entry';
import {
  insertEntry,
  isOverlapError,
  readEntry,
  searchEntries,
  type CatalogEntry,
} from '../catalog/entries';
import type { Database } from '../db/schema';
import type { ValidatorSet } from '../definitions/validators';
import { ApiProblem, ERROR_CODES, schemaErrorsOf } from '../http/api-error';
import { requestLanguage } from '../http/language';
import { importEntries } from '../catalog/import';
import { invalid } from '../search/compile-search';
import { CATALOG_IMPORT_MAX_ROWS } from '../../core/definitions/catalog-csv';
import { formatCount } from '../../core/format';
import type { Language, TextTree } from '../../core/i18n/translate';
import { toFieldErrors } from '../../core/validation/field-errors';

export interface CatalogPluginOptions {
  db: Kysely<Database>;
  catalogs: CatalogDefinition[];
  validators: ValidatorSet;
  /** Catalogues a form draws a field from: any signed-in user may list their options. */
  formCatalogs?: ReadonlySet<string>;
  searchMaxItems: number;
  /** The catalogues as this process keeps them: options are chosen from it. */
  cache: CatalogCache;
  /** Every language's texts: a dry run's problems are worded in the request's language. */
  texts: Partial<Record<Language, TextTree>>;
  /**
   * Told once an entry was written (created, edited, restored, imported: `entry` undefined),
   * after its commit: documents screening against the catalogue are screened again.
   */
  afterWrite?: (
    catalog: CatalogDefinition,
    entry: CatalogEntry | undefined,
    actor: string,
  ) => Promise<void>;
}

/** CATALOG_IMPORT_MAX_ROWS rows of a few kilobytes each, beyond the API's usual limit. */
const CATALOG_IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

/** At most this many options per answer: the form's select narrows as the person types. */
const OPTIONS_LIMIT = 50;

const ENTRY = catalogEntryRecordSchema(ANY_OBJECT);

type EntryRequest = FastifyRequest<{ Params: { catalogId: string; id: string } }>;

/** The `catalog` backend: one set of routes serving every catalogue from its definition. */
export async function catalogPlugin(app: FastifyInstance, options: CatalogPluginOptions) {
  const byId = new Map(options.catalogs.filter(isEnabled).map((c) => [c.id, c]));
  const catalogOf = (id: string): CatalogDefinition => {
    const catalog = byId.get(id);
    if (!catalog) throw new ApiProblem(404, ERROR_CODES.notFound);
    return catalog;
  };
  /** The catalogue and entry id of a route on one entry, once the caller may `read` or manage. */
  const entryOf = (request: EntryRequest, read: boolean) => {
    const catalog = catalogOf(request.params.catalogId);
    const actor = read
      ? (requireAnyRole(request, catalogReaderRoles(catalog)), '')
      : managerOf(request, catalog);
    if (!UUID.test(request.params.id)) throw new ApiProblem(404, ERROR_CODES.notFound);
    return { catalog, actor, id: request.params.id };
  };

  app.patch<{ Params: { catalogId: string } }>(
    '/:catalogId',
    perDefinition(['catalogId'], searchResultSchema(ENTRY), {
      body: searchRequestSchema(undefined),
    }),
    async (request) => {
      const catalog = catalogOf(request.params.catalogId);
      requireAnyRole(request, catalogReaderRoles(catalog));
      const language = requestLanguage(request);
      return searchEntries(options.db, catalog, request.body, options.searchMaxItems, language);
    },
  );

  app.get<{ Params: { catalogId: string }; Querystring: Record<string, unknown> }>(
    '/:catalogId/options',
    perDefinition(['catalogId'], CODE_NAME_ITEMS, {
      querystring: { type: 'object', properties: { search: { type: 'string' } } },
    }),
    async (request) => {
      requireSignedIn(request);
      const catalog = catalogOf(request.params.catalogId);
      if (!options.formCatalogs?.has(catalog.id)) throw new ApiProblem(403, ERROR_CODES.forbidden);
      const { search: typed, ...fields } = request.query;
      const search = String(typed ?? '')
        .trim()
        .toLowerCase()
        .slice(0, 100);
      // Any other parameter narrows to entries with that field equal to it, or 400 if unknown.
      const properties = catalog.schema.properties;
      const known = typeof properties === 'object' && properties !== null ? properties : {};
      for (const field of Object.keys(fields)) {
        if (!Object.hasOwn(known, field))
          throw new ApiProblem(400, ERROR_CODES.unknownField, { field });
      }
      const offered = await options.cache.offered(catalog.id, requestLanguage(request));
      return {
        items: chooseOptions(offered, { at: new Date(), search, fields, limit: OPTIONS_LIMIT }),
      };
    },
  );

  app.get<{ Params: { catalogId: string; id: string } }>(
    '/:catalogId/:id',
    perDefinition(['catalogId', 'id'], ENTRY),
    async (request) => {
      const { catalog, id } = entryOf(request, true);
      const entry = await readEntry(options.db, catalog, id);
      if (!entry) throw new ApiProblem(404, ERROR_CODES.notFound);
      return entry;
    },
  );

  app.post<{ Params: { catalogId: string } }>(
    '/:catalogId',
    perDefinition(['catalogId'], ENTRY, { body: ANY_OBJECT, status: 201 }),
    async (request, reply) => {
      const catalog = catalogOf(request.params.catalogId);
      const actor = managerOf(request, catalog);
      const entry = await checkedEntry(options, catalog, request.body);
      const created = await overlapRefused(() => insertEntry(options.db, catalog, entry, actor));
      options.cache.changed(catalog.id);
      await options.afterWrite?.(catalog, created, actor);
      return reply.status(201).send(created);
    },
  );
  /** The version the caller read, from the body (edit) or the query string (deletion). */
  const versionOf = (value: unknown): number => {
    const version = typeof value === 'string' ? Number(value) : value;
    if (!isStoredPositiveInteger(version)) throw invalid([{ path: '/version', rule: 'required' }]);
    return version;
  };
  /** A change to an entry at the version read: 404 or 409 when it cannot be made. */
  const changed = async <T extends ChangeOutcome>(
    catalog: CatalogDefinition,
    write: () => Promise<T>,
  ) => {
    const outcome = await overlapRefused(write);
    if (outcome.kind === 'missing') throw new ApiProblem(404, ERROR_CODES.notFound);
    if (outcome.kind !== 'done') throw new ApiProblem(409, ERROR_CODES.staleVersion);
    options.cache.changed(catalog.id);
    return outcome.entry;
  };

  // Edit Entry: the new data and period, with the version read.
  app.put<{ Params: { catalogId: string; id: string } }>(
    '/:catalogId/:id',
    perDefinition(['catalogId', 'id'], ENTRY, {
      body: { type: 'object', properties: { version: { type: 'integer' }, data: ANY_OBJECT } },
    }),
    async (request) => {
      const { catalog, actor, id } = entryOf(request, false);
      const body = (request.body ?? {}) as { version?: unknown; data?: unknown };
      const version = versionOf(body.version);
      const entry = await checkedEntry(options, catalog, body.data);
      const updated = await changed(catalog, () =>
        updateEntry(options.db, catalog, id, version, entry, actor),
      );
      await options.afterWrite?.(catalog, updated, actor);
      return updated;
    },
  );

  // Import: whole entries to create or update, all or none; a dry run says what it would do.
  app.post<{ Params: { catalogId: string } }>(
    '/:catalogId/import',
    {
      // No `maxItems`: too many rows is a 413 saying the limit, in the request's language.
      ...perDefinition(['catalogId'], CATALOG_IMPORT_RESULT, {
        // A row that is no entry is a problem of its row, reported with the others.
        body: catalogImportBodySchema({}),
      }),
      bodyLimit: Math.max(CATALOG_IMPORT_BODY_LIMIT, app.initialConfig.bodyLimit ?? 0),
      // A body beyond the API's usual limit is read for a manager only.
      preParsing: async (request: FastifyRequest<{ Params: { catalogId: string } }>) => {
        const length = request.headers['content-length'];
        if (length === undefined || Number(length) > (app.initialConfig.bodyLimit ?? 0))
          requireAnyRole(request, roleList(catalogOf(request.params.catalogId).managerRoles));
      },
    },
    async (request) => {
      const catalog = catalogOf(request.params.catalogId);
      const actor = managerOf(request, catalog);
      const language = requestLanguage(request);
      const { entries, dryRun } = importRequest(request.body, language);
      const { db, validators, texts } = options;
      const outcome = await importEntries(db, validators, catalog, entries, actor, dryRun);
      if (!dryRun && outcome.problems.length > 0)
        throw new ApiProblem(
          400,
          ERROR_CODES.validationFailed,
          {},
          outcome.problems,
          'catalog.import.refused',
        );
      if (!dryRun && outcome.created + outcome.updated > 0) {
        options.cache.changed(catalog.id);
        await options.afterWrite?.(catalog, undefined, actor);
      }
      const problems = toFieldErrors(schemaErrorsOf(outcome.problems), texts, language);
      return { dryRun, ...outcome, problems };
    },
  );

  // Delete: ?version= the version read.
  app.delete<{ Params: { catalogId: string; id: string }; Querystring: { version?: string } }>(
    '/:catalogId/:id',
    perDefinition(['catalogId', 'id'], NO_CONTENT, {
      querystring: { type: 'object', properties: { version: { type: 'string' } } },
      status: 204,
    }),
    async (request, reply) => {
      const { catalog, actor, id } = entryOf(request, false);
      const version = versionOf(request.query.version);
      await changed(catalog, () => setDeleted(options.db, catalog, id, version, actor, true));
      return reply.status(204).send();
    },
  );

  // Restore: a deleted entry back, with the version read from the deleted entries.
  app.post<{ Params: { catalogId: string; id: string } }>(
    '/:catalogId/:id/restore',
    perDefinition(['catalogId', 'id'], ENTRY, {
      body: { type: 'object', properties: { version: { type: 'integer' } } },
    }),
    async (request) => {
      const { catalog, actor, id } = entryOf(request, false);
      const version = versionOf((request.body as { version?: unknown } | undefined)?.version);
      const restored = await changed(catalog, () =>
        setDeleted(options.db, catalog, id, version, actor, false),
      );
      await options.afterWrite?.(catalog, restored, actor);
      return restored;
    },
  );

  // History: who changed the entry when, and what, oldest first (a deleted entry's too).
  app.get<{ Params: { catalogId: string; id: string } }>(
    '/:catalogId/:id/history',
    perDefinition(['catalogId', 'id'], itemsOf(CATALOG_HISTORY_LINE)),
    async (request) => {
      const { catalog, id } = entryOf(request, true);
      const items = await entryHistory(options.db, catalog, id);
      if (!items) throw new ApiProblem(404, ERROR_CODES.notFound);
      return { items };
    },
  );

  // The deleted entries, for a manager to restore.
  app.get<{ Params: { catalogId: string } }>(
    '/:catalogId/deleted',
    perDefinition(['catalogId'], itemsOf(ENTRY)),
    async (request) => {
      const catalog = catalogOf(request.params.catalogId);
      requireAnyRole(request, roleList(catalog.managerRoles));
      return { items: await deletedEntries(options.db, catalog, options.searchMaxItems) };
    },
  );
}

/** The rows of an import: at most CATALOG_IMPORT_MAX_ROWS, or a 413 saying the limit. */
function importRequest(body: unknown, language: Language): { entries: unknown[]; dryRun: boolean } {
  const { entries, dryRun } = body as { entries: unknown[]; dryRun: boolean };
  if (entries.length <= CATALOG_IMPORT_MAX_ROWS) return { entries, dryRun };
  const max = formatCount(CATALOG_IMPORT_MAX_ROWS, language);
  const limits = { max, count: formatCount(entries.length, language) };
  throw new ApiProblem(413, ERROR_CODES.tooLarge, limits, undefined, 'catalog.import.tooManyRows');
}

/** The manager making a change, as the entry and its history name them; others are refused. */
function managerOf(request: FastifyRequest, catalog: CatalogDefinition): string {
  const principal = requireAnyRole(request, roleList(catalog.managerRoles));
  return principal.preferredUsername ?? principal.subject;
}

/** A write whose period overlaps another live entry of the same key: a 409 naming the start. */
async function overlapRefused<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isOverlapError(error)) throw error;
    throw new ApiProblem(409, ERROR_CODES.overlappingPeriod, {}, [
      { path: '/startTime', rule: 'overlappingPeriod' },
    ]);
  }
}

/** The entry if it may be stored (`checkEntry`); otherwise a 400 naming each field. */
async function checkedEntry(
  options: CatalogPluginOptions,
  catalog: CatalogDefinition,
  body: unknown,
): Promise<Record<string, unknown>> {
  const check = await checkEntry(options.db, options.validators, catalog, body);
  if (check.problems) throw invalid(check.problems);
  return check.entry;
}
