import type { FastifyInstance } from 'fastify';
import { documentChoiceFieldsOf } from '../../core/definitions/document-choices';
import { DEFINITIONS_PUBLISH_ROLE, STUDIO_ROLES } from '../../core/definitions/studio-roles';
import type { DefinitionBundle, WorkflowDefinition } from '../../core/definitions/types';
import { fullRoles } from '../../core/documents/workflow';
import { hasText, translate, type Language } from '../../core/i18n/translate';
import { setAt } from '../../core/rules/registry';
import { arrayOf, objectSchema, PROBLEM_RESPONSES, UUID_STRING } from '../api-contract/common';
import { requireAnyRole } from '../auth/plugin';
import { holdsAnyRole, type Principal } from '../auth/principal';
import type { DatabaseHandle } from '../db/database';
import { UUID } from '../db/ids';
import { roleUses, type RoleOwner, type RoleUse } from '../definitions/check-roles';
import type { DefinitionPreviews } from '../definitions/previews';
import { valueAt } from '../documents/guards';
import type { DocumentService } from '../documents/service';
import { liveDocumentData } from '../documents/store/lookups';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requestLanguage } from '../http/language';

export interface DefinitionRolesOptions {
  database: DatabaseHandle;
  /** The set this app serves: its access-unit workflow reads and changes the units. */
  served: DefinitionBundle;
  /** The drafts checked in the studio: a draft's roles are listed by its digest. */
  previews: DefinitionPreviews;
  /** The document service of a backend (the access units' own). */
  documents(backend: string): DocumentService | undefined;
}

/** How access units are kept: their type, key, name, roles and the action changing the roles. */
interface UnitRecords {
  workflow: WorkflowDefinition;
  codeAt: string;
  nameAt?: string;
  rolesAt: string;
  /** Where roles are kept as records (the units' choice of roles): their type, code, description. */
  roleRecords?: { type: string; codeAt: string; descriptionAt?: string };
  /** The action the identity administrator's "Change roles" screen runs, and who may run it. */
  action: string;
  actionRoles: string[];
}

interface StoredUnit {
  id: string;
  version: number;
  code: string;
  name: string;
  roles: string[];
}

const ROLE_CODE = { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 100 } as const;
const UNIT = objectSchema(['id', 'code', 'name', 'version'], {
  id: UUID_STRING,
  code: { type: 'string' },
  name: { type: 'string', description: "The unit's description, as the administrator wrote it" },
  version: { type: 'integer', minimum: 1, description: 'A grant names it; another answers 409' },
});
const USE = objectSchema(['file', 'pointer', 'part', 'owner', 'title'], {
  file: { type: 'string' },
  pointer: { type: 'string' },
  part: {
    type: 'string',
    enum: [
      'screen',
      'list',
      'action',
      'assignees',
      'seeAll',
      'certificate',
      'catalogSearch',
      'catalogManage',
    ],
  },
  name: { type: 'string', description: "The action's name, the list's id or the screen's path" },
  owner: { type: 'string', description: 'The workflow or catalogue naming the role' },
  title: { type: 'string', description: "That workflow's document or catalogue's title" },
});

const ROUTES = {
  list: {
    schema: {
      tags: ['definitions'],
      summary: 'Every role the definitions use, where, and the access units granting each',
      description:
        'The served definitions, or a draft the studio checked (`draft`: its digest; 404 when ' +
        'this process no longer keeps it). Units are read from the database. For holders of ' +
        'definitions-edit or definitions-publish; `mayGrant` says whether the caller may also ' +
        'grant a role to a unit (definitions-publish and the role changing access units).',
      querystring: objectSchema([], {
        draft: {
          type: 'string',
          pattern: '^[0-9a-f]{16}$',
          description: "A checked draft's digest",
        },
      }),
      response: {
        200: {
          description: 'The roles and the units',
          ...objectSchema(['roles', 'units', 'mayGrant'], {
            mayGrant: { type: 'boolean' },
            grantRoles: {
              ...arrayOf({ type: 'string' }),
              description: 'Besides definitions-publish, one of these lets a person grant',
            },
            units: arrayOf(UNIT),
            roles: arrayOf(
              objectSchema(['code', 'name', 'uses', 'units'], {
                code: { type: 'string' },
                name: {
                  type: 'string',
                  description: "What the role is for, in the reader's language",
                },
                uses: arrayOf(USE),
                units: arrayOf({ type: 'string', description: 'Codes of the units granting it' }),
              }),
            ),
          }),
        },
        ...PROBLEM_RESPONSES,
      },
    },
  },
  grant: {
    schema: {
      tags: ['definitions'],
      summary: 'Grants a role to an access unit, as the identity administrator changes its roles',
      description:
        "Runs the access-unit workflow's role-changing action (its validation: the role must be " +
        'an access role; its history; 409 when the unit changed since `version`). For holders of ' +
        "definitions-publish AND of that action's role (403 otherwise).",
      params: objectSchema(['role'], { role: ROLE_CODE }),
      body: objectSchema(['unit', 'version'], {
        unit: { ...UUID_STRING, description: "The unit's id" },
        version: { type: 'integer', minimum: 1, description: "The unit's version as read" },
      }),
      response: {
        200: { description: 'Granted: the unit as it is now', ...UNIT },
        ...PROBLEM_RESPONSES,
      },
    },
  },
};

/**
 * `/api/definitions/roles`: the roles the definitions name, who grants them (the access units in
 * the database), and granting one to a unit from the studio. A grant runs the identity
 * administrator's own action, so its validation, history and version rule are theirs.
 */
export async function definitionRolesPlugin(app: FastifyInstance, options: DefinitionRolesOptions) {
  const { database, served } = options;
  const records = unitRecords(served);

  app.get<{ Querystring: { draft?: string } }>('/', ROUTES.list, async (request) => {
    const principal = requireAnyRole(request, STUDIO_ROLES);
    const { draft } = request.query;
    const bundle = draft === undefined ? served : options.previews.bundle(draft);
    if (!bundle) throw new ApiProblem(404, ERROR_CODES.notFound);
    const language = requestLanguage(request);
    const units = records ? await storedUnits(records) : [];
    const described = records ? await roleDescriptions(records) : new Map<string, string>();
    const grantedBy = new Map<string, string[]>();
    for (const unit of units)
      for (const role of unit.roles)
        grantedBy.set(role, [...(grantedBy.get(role) ?? []), unit.code]);
    const roles = [...roleUses(bundle.workflows, bundle.catalogs)]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, uses]) => ({
        code,
        name: roleName(uses, bundle, language, described.get(code)),
        uses: uses.map((use) => describeUse(use, bundle, language)),
        units: grantedBy.get(code) ?? [],
      }));
    return {
      mayGrant: mayGrant(principal),
      grantRoles: records?.actionRoles ?? [],
      units: units.map(({ roles: _roles, ...unit }) => unit),
      roles,
    };
  });

  app.post<{ Params: { role: string }; Body: { unit: string; version: number } }>(
    '/:role/grants',
    ROUTES.grant,
    async (request) => {
      const principal = requireAnyRole(request, [DEFINITIONS_PUBLISH_ROLE]);
      if (!records || !mayGrant(principal)) throw new ApiProblem(403, ERROR_CODES.forbidden);
      const documents = options.documents(records.workflow.backend ?? '');
      if (!documents) throw new ApiProblem(403, ERROR_CODES.forbidden);
      const { role } = request.params;
      const { unit: id, version } = request.body;
      const row = await unitRow(records, id);
      if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
      const unit = asUnit(records, row);
      if (unit.version !== version)
        throw new ApiProblem(409, ERROR_CODES.staleVersion, { version: unit.version });
      if (unit.roles.includes(role)) throw new ApiProblem(409, ERROR_CODES.conflict);
      const stored = row.data;
      const data = structuredClone(
        typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {},
      );
      setAt(data, records.rolesAt, [...unit.roles, role]);
      // The same pipeline as the identity administrator's screen: roles, version, checks, history.
      const { document } = records.workflow;
      return asUnit(
        records,
        await documents.act(document, principal, id, records.action, { version, data }),
      );
    },
  );

  function mayGrant(principal: Principal): boolean {
    return (
      records !== undefined &&
      holdsAnyRole(principal, [DEFINITIONS_PUBLISH_ROLE]) &&
      holdsAnyRole(principal, records.actionRoles)
    );
  }

  /** The live units, by code. */
  async function storedUnits(unitRecords: UnitRecords): Promise<StoredUnit[]> {
    const rows = await liveDocumentData(database.db, unitRecords.workflow.document);
    return rows.map((row) => asUnit(unitRecords, row)).sort((a, b) => a.code.localeCompare(b.code));
  }

  /** One live unit's row, or undefined (an id that is no UUID names none). */
  async function unitRow(unitRecords: UnitRecords, id: string) {
    if (!UUID.test(id)) return undefined;
    const [row] = await liveDocumentData(database.db, unitRecords.workflow.document, id);
    return row;
  }

  /** Every role record's description, by code (live records only). */
  async function roleDescriptions(unitRecords: UnitRecords): Promise<Map<string, string>> {
    const kept = unitRecords.roleRecords;
    if (!kept?.descriptionAt) return new Map();
    const rows = await liveDocumentData(database.db, kept.type);
    const described = new Map<string, string>();
    for (const { data } of rows) {
      const code = valueAt(data, kept.codeAt);
      const description = valueAt(data, kept.descriptionAt);
      if (typeof code === 'string' && typeof description === 'string')
        described.set(code, description);
    }
    return described;
  }
}

/** A unit as answered, from its stored row or the action's answer. */
function asUnit(
  records: UnitRecords,
  row: { id: string; version: number; data: unknown },
): StoredUnit {
  const text = (pointer: string | undefined) => {
    const value = pointer === undefined ? undefined : valueAt(row.data, pointer);
    return typeof value === 'string' ? value : undefined;
  };
  const code = text(records.codeAt) ?? row.id;
  const value = valueAt(row.data, records.rolesAt);
  const roles = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return { id: row.id, version: row.version, code, name: text(records.nameAt) ?? code, roles };
}

/**
 * Where the served definitions keep access units: the workflow declaring `accessUnit`, its key,
 * the name shown with the code (as a `documentChoices` field of units, or its list shows it),
 * and the action that changes only the roles' section (else any action taking data).
 */
function unitRecords(definitions: DefinitionBundle): UnitRecords | undefined {
  const workflow = definitions.workflows.find((w) => w.accessUnit !== undefined);
  if (!workflow?.accessUnit || !workflow.key) return undefined;
  const rolesAt = workflow.accessUnit.roles;
  const section = rolesAt.split('/')[1];
  const key = workflow.key.pointer;
  const unitEntity = definitions.schemas.find((entity) => entity.id === workflow.document);
  const roleChoice =
    unitEntity &&
    documentChoiceFieldsOf(unitEntity).find(
      (field) => `/${field.segments.filter((segment) => segment !== '*').join('/')}` === rolesAt,
    );
  // Named as a choice of units shows it, else by the first column of its list beside the code.
  const nameAt =
    definitions.schemas
      .flatMap((entity) => documentChoiceFieldsOf(entity))
      .find((field) => field.document === workflow.document && field.label)?.label ??
    workflow.lists[0]?.columns.find((column) => column.pointer !== key)?.pointer;
  const changers = Object.entries(workflow.actions).filter(
    ([, action]) =>
      action.payload === 'data' &&
      (action.editable === 'all' || (section !== undefined && action.editable?.includes(section))),
  );
  const [action, definition] =
    changers.find(([, candidate]) => candidate.editable !== 'all') ?? changers[0] ?? [];
  if (!action || !definition) return undefined;
  return {
    workflow,
    codeAt: key,
    ...(nameAt && { nameAt }),
    rolesAt,
    ...(roleChoice && {
      roleRecords: {
        type: roleChoice.document,
        codeAt: roleChoice.code,
        ...(roleChoice.label && { descriptionAt: roleChoice.label }),
      },
    }),
    action,
    actionRoles: fullRoles(workflow, definition.roles),
  };
}

/**
 * A role's name: what it is for, in the reader's language, from the texts of the one workflow
 * or catalogue naming it; a role several name (a catalogue role shared by many) is named by its
 * record's description, as the identity administrator reads it, when there is one.
 */
function roleName(
  uses: readonly RoleUse[],
  definitions: DefinitionBundle,
  language: Language,
  description: string | undefined,
): string {
  const owner = uses[0]!.owner;
  const shared = uses.some((use) => use.owner.id !== owner.id);
  if (shared && description) return description;
  const texts = definitions.translations;
  if (owner.kind === 'catalog') {
    const key = owner.manages ? 'roles.catalogManage' : 'roles.catalogSearch';
    return translate(texts, language, key, { catalogue: ownerTitle(owner, definitions, language) });
  }
  // A role named after the action it allows ("create") reads as that action's button.
  const action = `actions.${owner.suffix}`;
  return translate(texts, language, 'roles.workflow', {
    document: ownerTitle(owner, definitions, language),
    role: hasText(texts, language, action) ? translate(texts, language, action) : owner.suffix,
  });
}

/** The title of the workflow's document or of the catalogue naming a role. */
function ownerTitle(owner: RoleOwner, definitions: DefinitionBundle, language: Language): string {
  if (owner.kind !== 'catalog')
    return translate(definitions.translations, language, `${owner.id}._title`);
  const catalog = definitions.catalogs.find((candidate) => candidate.id === owner.id);
  return catalog?.labels[language]?.title ?? catalog?.labels.en.title ?? owner.id;
}

function describeUse(use: RoleUse, definitions: DefinitionBundle, language: Language) {
  return {
    file: use.file,
    pointer: use.pointer,
    part: use.part,
    ...(use.name !== undefined && { name: use.name }),
    owner: use.owner.id,
    title: ownerTitle(use.owner, definitions, language),
  };
}
