import type { FastifyInstance } from 'fastify';
import { DEFINITIONS_PUBLISH_ROLE, STUDIO_ROLES } from '../../core/definitions/studio-roles';
import { DATE_TIME, objectSchema, PROBLEM_RESPONSES } from '../api-contract/common';
import { requireAnyRole } from '../auth/plugin';
import type { DatabaseHandle } from '../db/database';
import type { DefinitionFiles } from '../definitions/files';
import { keepOverFolder, StaleSetError, type FolderConflict } from '../definitions/sets';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { staleSetProblem, summary } from './definition-sets';

export interface DefinitionFolderOptions {
  database: DatabaseHandle;
  /** The folder this process started on, when a later publish kept it unapplied. */
  conflict?: FolderConflict;
  /** That folder's files, as read at start. */
  files?: DefinitionFiles;
  /** Switches this process to the newest set, resolving once it serves it. */
  follow(): Promise<void>;
}

const CONFLICT_PROPERTIES = {
  folderDigest: { type: 'string', description: "The folder's files' digest" },
  importedVersion: {
    type: 'integer',
    minimum: 1,
    description: 'The version last recorded from the folder',
  },
  servedVersion: { type: 'integer', minimum: 1, description: 'The version served instead' },
};

const ROUTES = {
  folder: {
    schema: {
      tags: ['definitions'],
      summary: "The definitions folder's files this process started on, while they are not served",
      description:
        'Only while the folder disagrees with a version published since its import (404 ' +
        'otherwise): to compare them with the served version and settle. For holders of ' +
        'definitions-edit or definitions-publish.',
      response: {
        200: {
          description: 'The conflict and the folder’s files (path -> text)',
          ...objectSchema(['folderDigest', 'importedVersion', 'servedVersion', 'files'], {
            ...CONFLICT_PROPERTIES,
            files: { type: 'object', additionalProperties: { type: 'string' } },
          }),
        },
        ...PROBLEM_RESPONSES,
      },
    },
  },
  keep: {
    schema: {
      tags: ['definitions'],
      summary: 'Keeps the served version over the folder’s files, ending the conflict',
      description:
        "Records the folder's files as a version of their own, unserved, then the served " +
        'version again on top with the note: the next start finds the folder known. For ' +
        'holders of definitions-publish.',
      body: objectSchema(['base', 'note'], {
        base: {
          type: 'integer',
          minimum: 1,
          description: 'The newest version, the one kept; another answers 409',
        },
        note: { type: 'string', maxLength: 500, pattern: '\\S', description: 'Why (trimmed)' },
      }),
      response: {
        201: {
          description: 'The version now served: the kept one, recorded again',
          ...objectSchema([], {
            version: { type: 'integer' },
            source: { type: 'string' },
            note: { type: 'string' },
            publishedBy: { type: 'string' },
            publishedAt: DATE_TIME,
          }),
        },
        ...PROBLEM_RESPONSES,
      },
    },
  },
};

/**
 * `/api/definitions/sets/folder`: the folder's files a start did not apply because the studio
 * published since, and keeping the published version over them. Taking the files, all or some,
 * is a publish like any other (definition-sets.ts); a publish equal to the folder settles it.
 */
export async function definitionFolderPlugin(
  app: FastifyInstance,
  options: DefinitionFolderOptions,
) {
  const { database } = options;

  /** The conflict and its files, or 404: there is nothing to settle. */
  function unsettled() {
    const { conflict, files } = options;
    if (!conflict || !files) throw new ApiProblem(404, ERROR_CODES.notFound);
    return { conflict, files };
  }

  app.get('/', ROUTES.folder, async (request) => {
    requireAnyRole(request, STUDIO_ROLES);
    const { conflict, files } = unsettled();
    return { ...conflict, files: Object.fromEntries(files) };
  });

  app.post<{ Body: { base: number; note: string } }>(
    '/keep',
    ROUTES.keep,
    async (request, reply) => {
      const principal = requireAnyRole(request, [DEFINITIONS_PUBLISH_ROLE]);
      const { files } = unsettled();
      const by = principal.preferredUsername ?? principal.subject;
      const { base, note } = request.body;
      try {
        const set = await keepOverFolder(database.db, files, { base, note: note.trim(), by });
        await options.follow();
        // The answer's schema keeps the fields it names (version, source, note, by whom, when).
        return reply.status(201).send(summary(set));
      } catch (error) {
        if (!(error instanceof StaleSetError)) throw error;
        throw await staleSetProblem(database);
      }
    },
  );
}
