import { sql, type Kysely, type SqlBool } from 'kysely';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import {
  UUID,
  type Database,
  type RoleHolder,
  type RoleHolders,
  pointerPath,
  liveDocuments,
} from '../../../server/module';
import { accountDisplayName, accountLogin, codes, holds, text } from './account-fields';
import { recordDeclarations, type RecordDeclarations } from './declarations';
import { DocumentAccountDirectory, MAX_GROUP_DEPTH } from './directory';

/** Most people a list of role holders names: a role meant for a team, not for the public. */
const MAX_HOLDERS = 500;

type Data = Record<string, unknown>;

/**
 * Who holds which roles, as the account directory grants them (docs/identity.md). Read through
 * the caller's transaction: PGlite has one connection, a query beside it would wait forever.
 */
export class DirectoryRoleHolders implements RoleHolders {
  private readonly records: RecordDeclarations;

  constructor(private readonly definitions: { workflows: readonly WorkflowDefinition[] }) {
    this.records = recordDeclarations(definitions.workflows);
  }

  async find(
    db: Kysely<Database>,
    named: string,
  ): Promise<(RoleHolder & { roles: string[] }) | undefined> {
    const directory = new DocumentAccountDirectory(db, this.definitions);
    const account =
      (UUID.test(named) ? await directory.findById(named) : undefined) ??
      (await directory.findByLogin(named));
    if (!account) return undefined;
    return {
      id: account.id,
      login: account.loginIdentifier,
      name: account.name || account.loginIdentifier,
      // A service (API credentials) does no casework; someone who may not sign in holds nothing.
      roles: account.canSignIn && !account.service ? account.roles : [],
    };
  }

  async holding(db: Kysely<Database>, roles: readonly string[]): Promise<RoleHolder[]> {
    const { account, userGroup, accessUnit } = this.records;
    if (!account || !accessUnit || roles.length === 0) return [];
    const units = await this.unitsGranting(db, roles);
    if (units.size === 0) return [];
    const groups = userGroup ? await this.groupsGiving(db, units) : new Set<string>();
    const groupCode = sql<string>`lower(data #>> ${pointerPath(account.group)})`;
    const ownUnits = sql`(case when jsonb_typeof(data #> ${pointerPath(account.accessUnits)}) = 'array'
      then data #> ${pointerPath(account.accessUnits)} else '[]'::jsonb end)`;
    const rows = await liveDocuments(
      db,
      account.type,
      sql<SqlBool>`status in (${sql.join(account.signIn.statuses)})
        and (${groups.size ? sql`${groupCode} in (${sql.join([...groups])})` : sql`false`}
          or exists (select 1 from jsonb_array_elements_text(${ownUnits}) unit
                     where lower(unit) in (${sql.join([...units])})))`,
      MAX_HOLDERS,
    );
    return rows
      .filter(
        ({ data }) =>
          holds(data, account.signIn.active) && !(account.service && holds(data, account.service)),
      )
      .map(({ id, data }) => {
        const login = accountLogin(account, data) ?? id;
        return { id, login, name: accountDisplayName(account, data) ?? login };
      })
      .sort((a, b) => a.name.localeCompare(b.name) || a.login.localeCompare(b.login));
  }

  /** The codes (in lower case) of the live access units granting any of the roles. */
  private async unitsGranting(db: Kysely<Database>, roles: readonly string[]) {
    const unit = this.records.accessUnit!;
    const rows = await liveDocuments(
      db,
      unit.type,
      sql<SqlBool>`(data #> ${pointerPath(unit.roles)}) ?| array[${sql.join([...roles])}]::text[]`,
    );
    return new Set(rows.flatMap(({ data }) => text(data, unit.key.pointer)?.toLowerCase() ?? []));
  }

  /**
   * The codes (in lower case) of the groups whose members hold one of `units` by their group:
   * a group gives its default units and its parents', up the chain until an inactive or
   * missing group, as the directory walks it.
   */
  private async groupsGiving(db: Kysely<Database>, units: ReadonlySet<string>) {
    const declared = this.records.userGroup!;
    const rows = await liveDocuments(db, declared.type);
    const byCode = new Map<string, Data>();
    for (const { data } of rows) {
      const code = text(data, declared.key.pointer);
      if (code) byCode.set(code.toLowerCase(), data);
    }
    const gives = (start: string): boolean => {
      const seen = new Set<string>();
      let next: string | null = start;
      while (next && !seen.has(next) && seen.size < MAX_GROUP_DEPTH) {
        seen.add(next);
        const group = byCode.get(next);
        if (!group || holds(group, declared.inactive)) return false;
        if (codes(group, declared.accessUnits).some((u) => units.has(u.toLowerCase()))) return true;
        next = text(group, declared.parent)?.toLowerCase() ?? null;
      }
      return false;
    };
    return new Set([...byCode.keys()].filter(gives));
  }
}
