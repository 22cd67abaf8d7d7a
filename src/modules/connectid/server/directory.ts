import {
  UUID,
  type Database,
  findByKey,
  findLiveByKeys,
  draftOf,
  findDocument,
  writeVersion,
  type VersionAuthor,
  valueAt,
  type AccountDirectory,
  type IdentityAccount,
  type PasswordPolicy,
  type SecurityFlags,
} from '../../../server/module';
import type { Kysely } from 'kysely';
import { COUNTED_RULES } from '../../../core/identity/password-policy';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { setAt } from '../../../core/rules/registry';
import { accountContacts, accountLogin, codes, holds, text } from './account-fields';
import { recordDeclarations, type DeclaredAccount, type RecordDeclarations } from './declarations';

export type { SecurityFlags };

type Row = { id: string; status: string; data: Record<string, unknown> };

/** Parent groups followed at most this deep (a cycle in the data stops here too). */
export const MAX_GROUP_DEPTH = 16;

/** The rules of a password policy the identity server applies (its PasswordPolicy). */
const POLICY_RULES = [
  ...COUNTED_RULES,
  'allowUsernameInPassword',
  'passwordExpiryInDays',
  'passwordWarningInDays',
] as const;

/**
 * The connectid accounts (documents) as the identity server sees them. The workflows declare
 * which fields are what (docs/identity.md): nothing here names a field. Roles come from the
 * access units of the account's group, its parents, and its own; deleted or inactive give none.
 */
export class DocumentAccountDirectory implements AccountDirectory {
  /** What the workflows declare of accounts, groups, policies and units. */
  readonly records: RecordDeclarations;

  constructor(
    private readonly db: Kysely<Database>,
    definitions: { workflows: readonly WorkflowDefinition[] },
  ) {
    this.records = recordDeclarations(definitions.workflows);
  }

  async findByLogin(loginIdentifier: string): Promise<IdentityAccount | undefined> {
    const account = this.records.account;
    const login = loginIdentifier.trim();
    if (!account || !login) return undefined;
    // Deleted accounts keep their login: found, and refused sign-in by their status.
    const row = await findByKey(this.db, account.type, account.key.pointer, login, {
      includeDeleted: true,
    });
    return row ? this.toAccount(account, row) : undefined;
  }

  async findById(id: string): Promise<IdentityAccount | undefined> {
    const row = await this.accountRow(id);
    return row && this.records.account ? this.toAccount(this.records.account, row) : undefined;
  }

  /** The policy of the account's group, or of the nearest parent group naming one, or the default. */
  async policyFor(id: string): Promise<PasswordPolicy | undefined> {
    const row = await this.accountRow(id);
    if (!row || !this.records.account) return undefined;
    return this.policyForGroup(text(row.data, this.records.account.group));
  }

  /** The policy of a group: the first one found walking up its parents, else the default. */
  async policyForGroup(group: string | null): Promise<PasswordPolicy | undefined> {
    const declared = this.records.passwordPolicy;
    if (!declared) return undefined;
    const groups = await this.groupChain(group);
    const named = this.records.userGroup?.passwordPolicy;
    const code =
      (named ? groups.map((g) => text(g, named)).find((c) => c !== null) : undefined) ??
      declared.default;
    const policy = await findByKey(this.db, declared.type, declared.key.pointer, code);
    if (!policy) return undefined;
    const rules = (valueAt(policy.data, declared.rules) ?? {}) as Record<string, unknown>;
    const kept = POLICY_RULES.filter((rule) =>
      rule === 'allowUsernameInPassword'
        ? typeof rules[rule] === 'boolean'
        : Number.isInteger(rules[rule]),
    );
    return { code, ...Object.fromEntries(kept.map((rule) => [rule, rules[rule]])) };
  }

  /**
   * What the account's declared security flags ask the identity server to enforce at the next
   * sign-in (set by the force-password-change and force-two-factor actions).
   */
  async securityFlags(id: string): Promise<SecurityFlags | undefined> {
    const row = await this.accountRow(id);
    const flags = this.records.account?.security;
    if (!row || !flags) return undefined;
    return {
      forcePasswordChange: valueAt(row.data, flags.forcePasswordChange) === true,
      forceTotp: valueAt(row.data, flags.forceTotp) === true,
    };
  }

  /** Clears a flag once done, in a new version of the account with its history line. */
  async clearSecurityFlag(id: string, flag: keyof SecurityFlags): Promise<void> {
    const account = this.records.account;
    if (!account) return;
    const pointer = account.security[flag];
    await this.writeLine(id, flag === 'forceTotp' ? 'two-factor-enrolled' : 'password-changed', {
      change: (data) => {
        if (valueAt(data, pointer) !== true) return false;
        setAt(data, pointer, false);
        return true;
      },
      // The holder did it themselves, at sign-in.
      author: (row) => {
        const { name, email, mobile } = accountContacts(account, row.data);
        return { subject: id, name: name ?? id, email, mobile };
      },
    });
  }

  /**
   * Keeps in the account's history something done to it outside its workflow (its API
   * credentials issued or revoked, `action`), by whom: a new version with the data unchanged
   * and that history line, like any change of the account.
   */
  async recordOnAccount(id: string, action: string, author: VersionAuthor): Promise<void> {
    await this.writeLine(id, action, { change: () => true, author: () => author });
  }

  /** A new version of the account (changed by `change`, which may decline) with its line. */
  private async writeLine(
    id: string,
    action: string,
    how: {
      change: (data: Record<string, unknown>) => boolean;
      author: (row: Row) => VersionAuthor;
    },
  ): Promise<void> {
    const account = this.records.account;
    if (!account || !UUID.test(id)) return;
    await this.db.transaction().execute(async (trx) => {
      const row = await findDocument(trx, account.type, id, { forUpdate: true });
      if (!row) return;
      const draft = draftOf(row);
      draft.data = structuredClone(row.data);
      if (!how.change(draft.data)) return;
      const written = await writeVersion(trx, draft, {
        version: row.version + 1,
        expected: row.version,
        action,
        fromStatus: row.status,
        notes: undefined,
        author: how.author(row),
        now: new Date(),
      });
      if (!written) throw new Error(`account ${id} changed while ${action} was recorded`);
    });
  }

  /** Role codes of an account's data (exported for tests and the seed's report). */
  async rolesOf(data: Record<string, unknown>): Promise<string[]> {
    const { account, userGroup, accessUnit } = this.records;
    if (!account || !accessUnit) return [];
    const groups = await this.groupChain(text(data, account.group));
    const unitCodes = new Set<string>([
      ...(userGroup ? groups.flatMap((g) => codes(g, userGroup.accessUnits)) : []),
      ...codes(data, account.accessUnits),
    ]);
    if (unitCodes.size === 0) return [];
    const units = await findLiveByKeys(this.db, accessUnit.type, accessUnit.key.pointer, [
      ...unitCodes,
    ]);
    return [...new Set(units.flatMap((unit) => codes(unit, accessUnit.roles)))].sort();
  }

  private async toAccount(account: DeclaredAccount, row: Row): Promise<IdentityAccount> {
    const data = row.data;
    const canSignIn =
      holds(data, account.signIn.active) && account.signIn.statuses.includes(row.status);
    const contacts = accountContacts(account, data);
    return {
      id: row.id,
      loginIdentifier: accountLogin(account, data) ?? '',
      name: contacts.name ?? '',
      email: contacts.email,
      phoneNumber: contacts.mobile,
      locale: account.language ? text(data, account.language) : null,
      userType: text(data, account.userType.pointer),
      service: account.service ? holds(data, account.service) : false,
      canSignIn,
      // Someone who may not sign in holds no role, whatever their group says.
      roles: canSignIn ? await this.rolesOf(data) : [],
    };
  }

  /** The group and its parents, nearest first; inactive groups and cycles end the chain. */
  private async groupChain(code: string | null): Promise<Array<Record<string, unknown>>> {
    const declared = this.records.userGroup;
    const chain: Array<Record<string, unknown>> = [];
    if (!declared) return chain;
    const seen = new Set<string>();
    let next = code;
    while (next && !seen.has(next) && chain.length < MAX_GROUP_DEPTH) {
      seen.add(next);
      const group = await findByKey(this.db, declared.type, declared.key.pointer, next);
      if (!group || holds(group.data, declared.inactive)) break;
      chain.push(group.data);
      next = text(group.data, declared.parent);
    }
    return chain;
  }

  /** An account by its id (the token's subject). */
  private async accountRow(id: string): Promise<Row | undefined> {
    const account = this.records.account;
    if (!account || !UUID.test(id)) return undefined;
    return findDocument(this.db, account.type, id);
  }
}
