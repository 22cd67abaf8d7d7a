import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFINITIONS_PUBLISH_ROLE, STUDIO_ROLES } from '../../core/definitions/studio-roles';
import { IDENTIFIER_PATTERN } from '../../core/definitions/names';
import type { DefinitionBundle } from '../../core/definitions/types';
import {
  arrayOf,
  DATE_TIME,
  objectSchema,
  PROBLEM_RESPONSES,
  stringParams,
} from '../api-contract/common';
import { requireAnyRole } from '../auth/plugin';
import type { DatabaseHandle } from '../db/database';
import { DefinitionsError } from '../definitions/load';
import type { DefinitionPreviews } from '../definitions/previews';
import { publishDefinitions } from '../definitions/publish';
import { verdict } from '../definitions/verdict';
import { documentPart, portalIndex } from '../definitions/portal-parts';
import {
  newestSet,
  setHistory,
  setOfVersion,
  StaleSetError,
  type DefinitionSetSummary,
  type FolderConflict,
} from '../definitions/sets';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requestLanguage } from '../http/language';
import type { ServerModule } from '../module';
import { moduleName } from './definitions';

export interface DefinitionSetsOptions {
  database: DatabaseHandle;
  modules: readonly ServerModule[];
  /** The set this app serves: a draft's schemas are compared with its own. */
  served: DefinitionBundle;
  /** The drafts checked here, kept for their previews' validator modules. */
  previews: DefinitionPreviews;
  /** Switches this process to the newest set, resolving once it serves it. */
  follow(): Promise<void>;
  /** The definitions folder as this process found it, when it disagrees with a later publish. */
  folderConflict?: FolderConflict;
}

type Changes = Record<string, string | null>;
type PublishBody = { base: number; note: string; changes: Changes };
type CheckBody = { base: number; changes: Changes; document?: string; impact?: boolean };

const SUMMARY_PROPERTIES = {
  version: { type: 'integer', minimum: 1 },
  digest: { type: 'string', description: 'Equal for equal files' },
  source: {
    type: 'string',
    enum: ['folder', 'publish', 'restore'],
    description: "Recorded from the deployment's folder, published, or an earlier one restored",
  },
  note: { type: 'string' },
  publishedBy: { type: 'string' },
  publishedAt: DATE_TIME,
};
const SUMMARY_REQUIRED = Object.keys(SUMMARY_PROPERTIES);
const SUMMARY = objectSchema(SUMMARY_REQUIRED, SUMMARY_PROPERTIES);
/** A problem or warning: where in which file, and what. */
const DEFINITION_PROBLEM = objectSchema([], {
  file: { type: 'string' },
  pointer: { type: 'string' },
  message: { type: 'string', description: "What is wrong, in the request's language" },
  key: { type: 'string', description: 'The text it is worded by, under checker. in translations' },
  params: {
    type: 'object',
    description: 'The values the text names',
    additionalProperties: { type: ['string', 'number'] },
  },
});
/** What a workflow's new dataMoves do (did, once published) to its stored documents. */
const MIGRATIONS = {
  type: 'array',
  description: 'Per workflow bringing new dataMoves: documents read, moved, the first moved',
  items: objectSchema(['workflow', 'checked', 'moved', 'examples'], {
    workflow: { type: 'string' },
    checked: { type: 'integer' },
    moved: { type: 'integer' },
    examples: arrayOf({ type: 'string' }),
  }),
};
/** A new version, with what should be seen but did not refuse it. */
const PUBLISHED = objectSchema(SUMMARY_REQUIRED, {
  ...SUMMARY_PROPERTIES,
  warnings: {
    type: 'array',
    description: 'Roles the set names that no access unit grants: nobody holds them yet',
    items: DEFINITION_PROBLEM,
  },
  migrations: MIGRATIONS,
});
const CHANGES = {
  type: 'object',
  description: "File path -> its new text, or null to remove it; other files are the base's",
  propertyNames: { pattern: '^(?!(.*/)?\\.\\./)[A-Za-z0-9._/-]+\\.json$' },
  additionalProperties: { type: ['string', 'null'] },
};
const BASE_AND_NOTE = {
  base: {
    type: 'integer',
    minimum: 1,
    description: 'The newest version when the changes were made; another answers 409',
  },
  note: {
    type: 'string',
    maxLength: 500,
    pattern: '\\S',
    description: 'Why, for the history (trimmed)',
  },
};

/** A route answering a checked draft's validator module (`/previews/:version/.../:file`). */
function previewModule(summary: string, part: string) {
  const response = { 200: { description: 'An ES module', type: 'string' }, ...PROBLEM_RESPONSES };
  const params = stringParams('version', part, 'file');
  return { schema: { tags: ['definitions'], summary, params, response } };
}

const ROUTES = {
  history: {
    schema: {
      tags: ['definitions'],
      summary: 'Every published version of the definitions, newest first',
      description: 'For holders of definitions-edit or definitions-publish.',
      response: {
        200: {
          description: 'The versions',
          ...objectSchema([], {
            versions: arrayOf(SUMMARY),
            folderConflict: {
              description: 'The folder this process started on, not applied: see docs/studio.md',
              ...objectSchema(['folderDigest', 'importedVersion', 'servedVersion'], {
                folderDigest: { type: 'string' },
                importedVersion: { type: 'integer', minimum: 1 },
                servedVersion: { type: 'integer', minimum: 1 },
              }),
            },
          }),
        },
        ...PROBLEM_RESPONSES,
      },
    },
  },
  files: {
    schema: {
      tags: ['definitions'],
      summary: "One version's files (path -> text), as a folder of definitions holds them",
      params: stringParams('version'),
      response: {
        200: {
          description: 'The version and its files',
          ...objectSchema([], {
            ...SUMMARY_PROPERTIES,
            files: { type: 'object', additionalProperties: { type: 'string' } },
          }),
        },
        ...PROBLEM_RESPONSES,
      },
    },
  },
  publish: {
    schema: {
      tags: ['definitions'],
      summary: 'Publishes the newest version with changes: every process serves it at once',
      description:
        'Decided in its transaction by the verdict a check gives (docs/studio.md, "Safe publish"): ' +
        '422 lists every problem by file and JSON pointer, among them stored documents the set ' +
        'would strand (a removed status not in statusMoves, a removed document type) or make ' +
        "invalid (unless the workflow's dataMoves, made in the same transaction, make them " +
        'valid). For holders of definitions-publish.',
      body: objectSchema(['base', 'note', 'changes'], { ...BASE_AND_NOTE, changes: CHANGES }),
      response: { 201: { description: 'Published', ...PUBLISHED }, ...PROBLEM_RESPONSES },
    },
  },
  check: {
    schema: {
      tags: ['definitions'],
      summary:
        'Checks a draft (the newest version with changes) as a publish would, writing nothing',
      description:
        "Answers the problems found (valid false), or the roles nobody holds, the draft's version " +
        "(naming its preview validator modules) and, for `document`, that type's definition and " +
        'texts for a preview. For holders of definitions-edit or definitions-publish.',
      body: objectSchema(['base', 'changes'], {
        base: BASE_AND_NOTE.base,
        changes: CHANGES,
        document: {
          type: 'string',
          pattern: IDENTIFIER_PATTERN,
          description: 'A document type to preview',
        },
        impact: {
          type: 'boolean',
          description:
            'Also read the stored documents, as a publish does: those the changed schemas would ' +
            'refuse after the dataMoves are problems (reads every stored document of each changed ' +
            "type); without it the verdict is a publish's but for them",
        },
      }),
      response: {
        200: {
          description: 'The draft checked',
          ...objectSchema(['valid', 'problems', 'warnings'], {
            valid: { type: 'boolean' },
            problems: arrayOf(DEFINITION_PROBLEM),
            warnings: arrayOf(DEFINITION_PROBLEM),
            version: {
              type: 'string',
              description: "The draft's digest, naming its preview modules",
            },
            impact: {
              type: 'array',
              description:
                'Stored documents the changed schemas would make invalid, by type (when asked)',
              items: objectSchema([], {
                document: { type: 'string' },
                checked: { type: 'integer' },
                invalid: { type: 'integer' },
                fields: arrayOf(
                  objectSchema([], {
                    pointer: { type: 'string' },
                    keyword: { type: 'string' },
                    count: { type: 'integer' },
                  }),
                ),
                examples: arrayOf({ type: 'string' }),
              }),
            },
            migrations: MIGRATIONS,
            document: {
              type: 'object',
              description: "The previewed type's definition, its texts and the shared texts",
              additionalProperties: true,
            },
          }),
        },
        ...PROBLEM_RESPONSES,
      },
    },
  },
  previewValidator: previewModule(
    "A checked draft's validator module: a catalogue entry's or a whole document's",
    'kind',
  ),
  previewSectionValidator: previewModule(
    "A checked draft's validator module for one section of a document",
    'entity',
  ),
  restore: {
    schema: {
      tags: ['definitions'],
      summary: 'Publishes an earlier version again, as the newest (a roll back)',
      description:
        'The data moves of the versions after it are taken back, then it is decided as a publish ' +
        'is (422 naming every problem). For holders of definitions-publish.',
      params: stringParams('version'),
      body: { type: 'object', required: ['base', 'note'], properties: BASE_AND_NOTE },
      response: { 201: { description: 'Restored', ...PUBLISHED }, ...PROBLEM_RESPONSES },
    },
  },
};

/**
 * `/api/definitions/sets`: every published version, its files, publishing a changed or restored
 * one. Publishing answers once this process serves it (the others follow on the set's notice).
 */
export async function definitionSetsPlugin(app: FastifyInstance, options: DefinitionSetsOptions) {
  const { database, modules } = options;

  app.get('/', ROUTES.history, async (request) => {
    requireAnyRole(request, STUDIO_ROLES);
    const { folderConflict } = options;
    return { versions: (await setHistory(database.db)).map(summary), folderConflict };
  });

  app.get<{ Params: { version: string } }>('/:version', ROUTES.files, async (request) => {
    requireAnyRole(request, STUDIO_ROLES);
    const set = await existingSet(request.params.version);
    return { ...summary(set), files: Object.fromEntries(set.files) };
  });

  app.post<{ Body: PublishBody }>('/', ROUTES.publish, async (request, reply) => {
    requireAnyRole(request, [DEFINITIONS_PUBLISH_ROLE]);
    const files = await changedFiles(request.body.base, request.body.changes);
    return reply.status(201).send(await publish(request, files, 'publish'));
  });

  app.post<{ Params: { version: string }; Body: Omit<PublishBody, 'changes'> }>(
    '/:version/restore',
    ROUTES.restore,
    async (request, reply) => {
      requireAnyRole(request, [DEFINITIONS_PUBLISH_ROLE]);
      const earlier = await existingSet(request.params.version);
      const restored = await publish(request, earlier.files, 'restore', earlier.version);
      return reply.status(201).send(restored);
    },
  );

  app.post<{ Body: CheckBody }>('/check', ROUTES.check, async (request) => {
    requireAnyRole(request, STUDIO_ROLES);
    const { body } = request;
    const files = await changedFiles(body.base, body.changes);
    // The stored documents are read only when asked (the Check button): a publish always does.
    const decided = await verdict(database.db, files, {
      modules,
      served: options.served,
      documents: body.impact === true,
      language: requestLanguage(request),
    });
    const { bundle, problems, warnings, impact, migrations } = decided;
    if (!bundle) return { valid: false, problems, warnings };
    options.previews.add(bundle);
    const part = body.document === undefined ? undefined : documentPart(bundle, body.document);
    return {
      valid: problems.length === 0,
      problems,
      warnings,
      ...(impact && { impact }),
      ...(migrations && { migrations }),
      version: bundle.version,
      ...(part && { document: { ...part, shared: portalIndex(bundle).translations } }),
    };
  });

  // A checked draft's validator modules: public as the served set's (schemas, no data).
  app.get<{ Params: { version: string; kind: string; file: string } }>(
    '/previews/:version/validators/:kind/:file',
    ROUTES.previewValidator,
    async (request, reply) => {
      const { version, kind, file } = request.params;
      const id = moduleName(file);
      const { previews } = options;
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
    ROUTES.previewSectionValidator,
    async (request, reply) => {
      const { version, entity, file } = request.params;
      const source = await options.previews.sectionModule(version, entity, moduleName(file));
      return sendModule(reply, source);
    },
  );

  /** The base's files with the changes applied; 409 when the base is not a version. */
  async function changedFiles(version: number, changes: Changes): Promise<Map<string, string>> {
    const base = await setOfVersion(database.db, version);
    if (!base) throw await staleSetProblem(database);
    const files = new Map(base.files);
    for (const [file, text] of Object.entries(changes)) {
      if (text === null) files.delete(file);
      else files.set(file, text);
    }
    return files;
  }

  async function publish(
    request: FastifyRequest<{ Body: Omit<PublishBody, 'changes'> }>,
    files: ReadonlyMap<string, string>,
    source: 'publish' | 'restore',
    restores?: number,
  ) {
    const principal = requireAnyRole(request, [DEFINITIONS_PUBLISH_ROLE]);
    const { base, note } = request.body;
    const by = principal.preferredUsername ?? principal.subject;
    try {
      const published = { base, note: note.trim(), by, source, restores };
      const { set, verdict: decided } = await publishDefinitions(database.db, files, published, {
        modules,
        served: options.served,
        language: requestLanguage(request),
      });
      await options.follow();
      const { warnings, migrations } = decided;
      return { ...summary(set), warnings, ...(migrations && { migrations }) };
    } catch (error) {
      if (error instanceof StaleSetError) throw await staleSetProblem(database);
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

  async function existingSet(version: string) {
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

/** 409: the changes were made on a version that is no longer the newest, which it names. */
export async function staleSetProblem(database: DatabaseHandle): Promise<ApiProblem> {
  const current = (await newestSet(database.db))?.version ?? 0;
  return new ApiProblem(409, ERROR_CODES.staleDefinitions, { current }, undefined, undefined, {
    current,
  });
}

/** A set as answered: its files left out (a route adds them as an object). */
export function summary({ publishedAt, ...set }: DefinitionSetSummary & { files?: unknown }) {
  return { ...set, files: undefined, publishedAt: publishedAt.toISOString() };
}
