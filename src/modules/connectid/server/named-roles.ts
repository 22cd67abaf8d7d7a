import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { documentChoiceFieldsOf } from '../../../core/definitions/document-choices';
import type { DefinitionBundle } from '../../../core/definitions/types';
import { DEFAULT_LANGUAGE, translate } from '../../../core/i18n/translate';
import { setAt } from '../../../core/rules/registry';
import {
  type Database,
  namedRoles,
  type RoleOwner,
  idsByKey,
  liveDocuments,
  insertSeededDocument,
} from '../../../server/module';
import { codes } from './account-fields';
import { recordDeclarations } from './declarations';

const ACTOR = 'system';

/**
 * Where roles are kept as records: the document type an access unit's roles are chosen from
 * (its `documentChoices` field at the declared `accessUnit.roles` pointer), with the pointers of
 * a role's code and description in it. Undefined when no type declares access units.
 */
function roleRecords(definitions: DefinitionBundle) {
  const declaration = recordDeclarations(definitions.workflows).accessUnit;
  const entity = definitions.schemas.find((schema) => schema.id === declaration?.type);
  if (!declaration || !entity) return undefined;
  const segments = declaration.roles.split('/').slice(1);
  const field = documentChoiceFieldsOf(entity).find(
    (choice) =>
      choice.segments.filter((segment) => segment !== '*').join('/') === segments.join('/'),
  );
  if (!field?.label) return undefined;
  return { unitType: declaration.type, rolesAt: declaration.roles, ...field };
}

/**
 * Creates a record for each role the definitions name that has none (a workflow or catalogue
 * published with a role of its own), described from the texts, for access units to grant.
 * Records already there are left as they are. Returns the codes created.
 */
export async function createNamedRoles(
  db: Kysely<Database>,
  definitions: DefinitionBundle,
): Promise<string[]> {
  const records = roleRecords(definitions);
  if (!records) return [];
  const named = namedRoles(definitions.workflows, definitions.catalogs);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('named-roles'))`.execute(trx);
    const present = await idsByKey(trx, records.document, records.code, [...named.keys()]);
    const created: string[] = [];
    for (const [code, { owner }] of named) {
      if (present.has(code.toLowerCase())) continue;
      const data: Record<string, unknown> = {};
      setAt(data, records.code, code);
      setAt(data, records.label!, describe(owner, definitions));
      await insertSeededDocument(trx, {
        id: randomUUID(),
        type: records.document,
        status: 'STORED',
        data,
        owner: { owner: ACTOR, name: null, email: null, mobile: null },
        actor: ACTOR,
      });
      created.push(code);
    }
    return created;
  });
}

/**
 * Every role some access unit in the database grants (units deleted excluded): what the
 * definitions' roles are checked against when they are published.
 */
export async function grantedRoles(
  db: Kysely<Database>,
  definitions: Pick<DefinitionBundle, 'workflows' | 'schemas'>,
): Promise<Set<string> | undefined> {
  const declaration = recordDeclarations(definitions.workflows).accessUnit;
  if (!declaration) return undefined;
  const rows = await liveDocuments(db, declaration.type);
  return new Set(rows.flatMap(({ data }) => codes(data, declaration.roles)));
}

/** A role's description in the default language, from the texts of what it is for. */
function describe(owner: RoleOwner, definitions: DefinitionBundle): string {
  const texts = definitions.translations;
  if (owner.kind === 'catalog') {
    const catalog = definitions.catalogs.find((candidate) => candidate.id === owner.id);
    const catalogue = catalog?.labels[DEFAULT_LANGUAGE].title ?? owner.id;
    const key = owner.manages ? 'roles.catalogManage' : 'roles.catalogSearch';
    return translate(texts, DEFAULT_LANGUAGE, key, { catalogue }).slice(0, 255);
  }
  return translate(texts, DEFAULT_LANGUAGE, 'roles.workflow', {
    document: translate(texts, DEFAULT_LANGUAGE, `${owner.id}._title`),
    role: owner.suffix,
  }).slice(0, 255);
}
