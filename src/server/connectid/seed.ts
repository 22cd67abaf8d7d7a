import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { PROJECT_ROOT, type ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { accountDisplayName } from './account-fields';

/** The business data of the seed: seeds/connectid.json (kept out of src/). */
export const CONNECTID_SEED_FILE = path.join(PROJECT_ROOT, 'seeds', 'connectid.json');

export interface ConnectidSeed {
  roles: Array<{ roleCode: string; roleDescription: string }>;
  units: Array<{ unitCode: string; unitDescription: string; roles: string[] }>;
  policies: Array<{ code: string; name: string; rules: Record<string, number | boolean> }>;
  groups: Array<{
    code: string;
    name: string;
    status: 'active' | 'inactive';
    parentGroup?: string;
    passwordPolicy?: string;
    defaultAccessUnits?: string[];
  }>;
  personas: Array<{
    persona: string;
    password: string;
    status: string;
    data: { identity: { loginIdentifier: string } } & Record<string, unknown>;
  }>;
}

/** A demo account of the seed, with its known password, for the server to print at start. */
export interface DemoAccount {
  persona: string;
  id: string;
  loginIdentifier: string;
  password: string;
  /** Created by this run (its password was set now); false when it already existed. */
  created: boolean;
}

export type SetPassword = (
  accountId: string,
  loginIdentifier: string,
  password: string,
) => Promise<void>;

export interface SeedLog {
  info(message: string): void;
}

const SEED_ACTOR = 'system';

/**
 * Seeds the connectid module: access roles, access units, password policies and user groups
 * always; one demo account per persona when `config.demoData` is on. Idempotent: a record whose
 * key (code, login identifier) exists in any status is left as it is (an administrator's edit or
 * deletion survives restarts), and a persona's password is set only when its account is created.
 * Runs under an advisory lock, so two processes starting together seed once.
 */
export async function seedConnectid(
  db: Kysely<Database>,
  config: Pick<ServerConfig, 'demoData'>,
  log: SeedLog,
  setPassword?: SetPassword,
  file: string = CONNECTID_SEED_FILE,
): Promise<DemoAccount[]> {
  const seed = JSON.parse(await fs.readFile(file, 'utf8')) as ConnectidSeed;
  const { counts, demo } = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('connectid-seed'))`.execute(trx);
    const counts: Record<string, number> = {};
    const add = async (
      type: string,
      pointer: string,
      key: string,
      data: Record<string, unknown>,
      status = 'STORED',
    ): Promise<{ id: string; created: boolean }> => {
      const existing = await findByKey(trx, type, pointer, key);
      if (existing) return { id: existing, created: false };
      counts[type] = (counts[type] ?? 0) + 1;
      return { id: await insertDocument(trx, type, status, data), created: true };
    };
    for (const role of seed.roles) {
      await add('access-role', '{role,roleCode}', role.roleCode, { role });
    }
    for (const { roles, ...unit } of seed.units) {
      await add('access-unit', '{unit,unitCode}', unit.unitCode, { unit, access: { roles } });
    }
    for (const { code, name, rules } of seed.policies) {
      await add('password-policy', '{policy,code}', code, { policy: { code, name }, rules });
    }
    for (const { defaultAccessUnits, passwordPolicy, ...group } of seed.groups) {
      await add('user-group', '{group,code}', group.code, {
        group,
        access: { defaultAccessUnits: defaultAccessUnits ?? [] },
        security: passwordPolicy ? { passwordPolicy } : {},
      });
    }
    const demo: DemoAccount[] = [];
    if (config.demoData) {
      for (const persona of seed.personas) {
        const login = persona.data.identity.loginIdentifier;
        const { id, created } = await add(
          'account',
          '{identity,loginIdentifier}',
          login,
          persona.data,
          persona.status,
        );
        demo.push({
          persona: persona.persona,
          id,
          loginIdentifier: login,
          password: persona.password,
          created,
        });
      }
    }
    return { counts, demo };
  });
  // After the commit: the credential store may use its own connection.
  if (setPassword) {
    for (const account of demo.filter((a) => a.created)) {
      await setPassword(account.id, account.loginIdentifier, account.password);
    }
  }
  const created = Object.entries(counts).map(([type, n]) => `${n} ${type}`);
  log.info(
    created.length
      ? `connectid seed: created ${created.join(', ')}`
      : 'connectid seed: nothing to create',
  );
  return demo;
}

async function findByKey(
  trx: Transaction<Database>,
  type: string,
  path: string,
  key: string,
): Promise<string | undefined> {
  const row = await trx
    .selectFrom('document')
    .select('id')
    .where('type', '=', type)
    .where(sql<string>`lower(data #>> ${sql.lit(path)})`, '=', key.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

/**
 * Writes a record as the document service would on creation: the document, its first version
 * and a history line (`seed`, NEW -> status). An account owns itself (see effect ownAccount);
 * other records are owned by the system.
 */
async function insertDocument(
  trx: Transaction<Database>,
  type: string,
  status: string,
  data: Record<string, unknown>,
): Promise<string> {
  const id = randomUUID();
  const account = type === 'account';
  const text = (section: string, field: string): string | null => {
    const value = (data[section] as Record<string, unknown> | undefined)?.[field];
    return typeof value === 'string' ? value : null;
  };
  const json = JSON.stringify(data);
  await trx
    .insertInto('document')
    .values({
      id,
      type,
      status,
      version: 1,
      owner: account ? id : SEED_ACTOR,
      owner_name: account ? accountDisplayName(data) : null,
      owner_email: account ? text('contact', 'emailAddress') : null,
      owner_mobile: account ? text('contact', 'primaryMobileNo') : null,
      data: json,
      created_by: SEED_ACTOR,
      updated_by: SEED_ACTOR,
    })
    .execute();
  await trx
    .insertInto('document_version')
    .values({
      document_id: id,
      version: 1,
      status,
      action: 'seed',
      data: json as never,
      by: SEED_ACTOR,
      assignee: null,
    })
    .execute();
  await trx
    .insertInto('document_history')
    .values({
      document_id: id,
      version: 1,
      action: 'seed',
      from_status: 'NEW',
      to_status: status,
      actor: SEED_ACTOR,
      actor_name: SEED_ACTOR,
    })
    .execute();
  return id;
}
