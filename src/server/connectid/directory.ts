import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { valueAt } from '../documents/guards';
import type {
  AccountDirectory,
  IdentityAccount,
  PasswordPolicy,
  SecurityFlags,
} from '../identity/directory';
import { accountDisplayName } from './account-fields';

/** Statuses in which an account holder may sign in (with the active flag): see canSignIn. */
export const SIGN_IN_STATUSES: readonly string[] = ['ACCEPTED', 'MODIFIED', 'RETURNED'];

export type { SecurityFlags };

type Row = { id: string; status: string; data: Record<string, unknown> };

/** Parent groups followed at most this deep (a cycle in the data stops here too). */
const MAX_GROUP_DEPTH = 16;

/** The password policy used when an account's groups name none (seeds/connectid.json). */
export const DEFAULT_POLICY_CODE = 'DEFAULT';

const POLICY_RULES = [
  'minimumLength',
  'maximumLength',
  'minimumDigits',
  'minimumLowercase',
  'minimumUppercase',
  'minimumSpecial',
  'allowUsernameInPassword',
  'passwordExpiryInDays',
  'passwordWarningInDays',
] as const;

function text(data: unknown, pointer: string): string | null {
  const value = valueAt(data, pointer);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function codes(data: unknown, pointer: string): string[] {
  const value = valueAt(data, pointer);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The accounts of the connectid module, kept as documents (type `account`), as the identity
 * server sees them. Roles are the roles of the access units of the account's group and its
 * parent groups (their default access units) and of the account's own access units; deleted or
 * inactive groups and deleted units give nothing.
 */
export class DocumentAccountDirectory implements AccountDirectory {
  constructor(private readonly db: Kysely<Database>) {}

  async findByLogin(loginIdentifier: string): Promise<IdentityAccount | undefined> {
    const login = loginIdentifier.trim().toLowerCase();
    if (!login) return undefined;
    const row = await this.db
      .selectFrom('document')
      .select(['id', 'status', 'data'])
      .where('type', '=', 'account')
      .where(sql<string>`lower(data #>> '{identity,loginIdentifier}')`, '=', login)
      .executeTakeFirst();
    return row ? this.toAccount(row as Row) : undefined;
  }

  async findById(id: string): Promise<IdentityAccount | undefined> {
    const row = await this.accountRow(id);
    return row ? this.toAccount(row) : undefined;
  }

  /** The policy of the account's group, or of the nearest parent group naming one, or DEFAULT. */
  async policyFor(id: string): Promise<PasswordPolicy | undefined> {
    const row = await this.accountRow(id);
    if (!row) return undefined;
    return this.policyForGroup(text(row.data, '/access/userGroup'));
  }

  /** The policy of a group: the first one found walking up its parents, else DEFAULT. */
  async policyForGroup(group: string | null): Promise<PasswordPolicy | undefined> {
    const groups = await this.groupChain(group);
    const code =
      groups.map((g) => text(g, '/security/passwordPolicy')).find((c) => c !== null) ??
      DEFAULT_POLICY_CODE;
    const policy = await this.byKey('password-policy', '/policy/code', code);
    if (!policy) return undefined;
    const rules = (valueAt(policy, '/rules') ?? {}) as Record<string, unknown>;
    const result: PasswordPolicy = { code };
    for (const rule of POLICY_RULES) {
      const value = rules[rule];
      if (rule === 'allowUsernameInPassword') {
        if (typeof value === 'boolean') result.allowUsernameInPassword = value;
      } else if (typeof value === 'number' && Number.isInteger(value)) {
        result[rule] = value;
      }
    }
    return result;
  }

  /**
   * What the account's security section asks the identity server to enforce at the next
   * sign-in (set by the force-password-change and force-two-factor actions).
   */
  async securityFlags(id: string): Promise<SecurityFlags | undefined> {
    const row = await this.accountRow(id);
    if (!row) return undefined;
    return {
      forcePasswordChange: valueAt(row.data, '/security/forcePasswordChange') === true,
      forceTotp: valueAt(row.data, '/security/forceTotp') === true,
    };
  }

  /**
   * The identity server calls it once the person has changed their password or enrolled a
   * second factor. The flag is cleared in a new version of the account,
   * with a history line, like any change.
   */
  async clearSecurityFlag(id: string, flag: keyof SecurityFlags): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('document')
        .select(['id', 'status', 'version', 'data'])
        .where('id', '=', id)
        .where('type', '=', 'account')
        .forUpdate()
        .executeTakeFirst();
      if (!row || valueAt(row.data, `/security/${flag}`) !== true) return;
      const security = { ...((row.data.security ?? {}) as Record<string, unknown>), [flag]: false };
      const data = { ...row.data, security };
      const version = row.version + 1;
      const action = flag === 'forceTotp' ? 'two-factor-enrolled' : 'password-changed';
      const actor = accountDisplayName(row.data) ?? id;
      await trx
        .updateTable('document')
        .set({
          version,
          data: JSON.stringify(data),
          updated_at: new Date().toISOString(),
          updated_by: actor,
        })
        .where('id', '=', id)
        .execute();
      await trx
        .insertInto('document_version')
        .values({
          document_id: id,
          version,
          status: row.status,
          action,
          data: JSON.stringify(data) as never,
          assignee: null,
          by: actor,
        })
        .execute();
      await trx
        .insertInto('document_history')
        .values({
          document_id: id,
          version,
          action,
          from_status: row.status,
          to_status: row.status,
          notes: null,
          actor: id,
          actor_name: actor,
          actor_email: text(row.data, '/contact/emailAddress'),
          actor_mobile: text(row.data, '/contact/primaryMobileNo'),
        })
        .execute();
    });
  }

  /** Role codes of an account's data (exported for tests and the seed's report). */
  async rolesOf(data: Record<string, unknown>): Promise<string[]> {
    const groups = await this.groupChain(text(data, '/access/userGroup'));
    const unitCodes = new Set<string>([
      ...groups.flatMap((g) => codes(g, '/access/defaultAccessUnits')),
      ...codes(data, '/access/accessUnits'),
    ]);
    if (unitCodes.size === 0) return [];
    const units = await this.db
      .selectFrom('document')
      .select('data')
      .where('type', '=', 'access-unit')
      .where('status', '<>', 'DELETED')
      .where(sql<string>`data #>> '{unit,unitCode}'`, 'in', [...unitCodes])
      .execute();
    return [...new Set(units.flatMap((u) => codes(u.data, '/access/roles')))].sort();
  }

  private async toAccount(row: Row): Promise<IdentityAccount> {
    const data = row.data;
    const active = text(data, '/access/activationStatus') === 'active';
    const canSignIn = active && SIGN_IN_STATUSES.includes(row.status);
    return {
      id: row.id,
      loginIdentifier: text(data, '/identity/loginIdentifier') ?? '',
      name: accountDisplayName(data) ?? '',
      email: text(data, '/contact/emailAddress'),
      phoneNumber: text(data, '/contact/primaryMobileNo'),
      locale: text(data, '/preferences/language'),
      userType: text(data, '/organisation/userType'),
      canSignIn,
      // Someone who may not sign in holds no role, whatever their group says.
      roles: canSignIn ? await this.rolesOf(data) : [],
    };
  }

  private async accountRow(id: string): Promise<Row | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      return undefined;
    return (await this.db
      .selectFrom('document')
      .select(['id', 'status', 'data'])
      .where('type', '=', 'account')
      .where('id', '=', id)
      .executeTakeFirst()) as Row | undefined;
  }

  /** A live record of a type by its key field. */
  private async byKey(
    type: string,
    pointer: string,
    key: string,
  ): Promise<Record<string, unknown> | undefined> {
    const path = `{${pointer.split('/').slice(1).join(',')}}`;
    const row = await this.db
      .selectFrom('document')
      .select('data')
      .where('type', '=', type)
      .where('status', '<>', 'DELETED')
      .where(sql<string>`data #>> ${sql.lit(path)}`, '=', key)
      .executeTakeFirst();
    return row?.data;
  }

  /** The group and its parents, nearest first; inactive groups and cycles end the chain. */
  private async groupChain(code: string | null): Promise<Array<Record<string, unknown>>> {
    const chain: Array<Record<string, unknown>> = [];
    const seen = new Set<string>();
    let next = code;
    while (next && !seen.has(next) && chain.length < MAX_GROUP_DEPTH) {
      seen.add(next);
      const group = await this.byKey('user-group', '/group/code', next);
      if (!group || text(group, '/group/status') === 'inactive') break;
      chain.push(group);
      next = text(group, '/group/parentGroup');
    }
    return chain;
  }
}
