import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { PROJECT_ROOT, type ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { keyExpression } from '../db/key-indexes';
import { accountContacts, text } from './account-fields';
import type { RecordDeclarations } from './declarations';

/** The business data of the seed: seeds/connectid.json (kept out of src/). */
export const CONNECTID_SEED_FILE = path.join(PROJECT_ROOT, 'seeds', 'connectid.json');

/**
 * The seed file: each type's records as their data is stored, types in the order they are
 * seeded (roles before the units naming them...), and the demo personas' accounts.
 */
export interface ConnectidSeed {
  records: Record<string, Array<Record<string, unknown>>>;
  personas: Array<{
    persona: string;
    password: string;
    status: string;
    data: Record<string, unknown>;
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
 * Seeds the connectid module: its records (access roles, access units, password policies,
 * user groups) always; one demo account per persona when `config.demoData` is on. Idempotent:
 * a record whose key (each type's declared `key`: code, login identifier) exists in any status
 * is left as it is (an administrator's edit or deletion survives restarts), and a persona's
 * password is set only when its account is created. Runs under an advisory lock, so two
 * processes starting together seed once. A type no workflow declares (its module off) is
 * skipped.
 */
export async function seedConnectid(
  db: Kysely<Database>,
  declarations: RecordDeclarations,
  config: Pick<ServerConfig, 'demoData'>,
  log: SeedLog,
  setPassword?: SetPassword,
  file: string = CONNECTID_SEED_FILE,
): Promise<DemoAccount[]> {
  const seed = JSON.parse(await fs.readFile(file, 'utf8')) as ConnectidSeed;
  const { account } = declarations;
  const { counts, demo } = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('connectid-seed'))`.execute(trx);
    const counts: Record<string, number> = {};
    const add = async (
      type: string,
      data: Record<string, unknown>,
      status = 'STORED',
    ): Promise<{ id: string; created: boolean; key: string } | undefined> => {
      const pointer = declarations.keys.get(type)?.pointer;
      if (!pointer) return undefined;
      const key = text(data, pointer);
      if (!key) throw new Error(`seed: a ${type} record has no key at ${pointer}`);
      const existing = await findByKey(trx, type, pointer, key);
      if (existing) return { id: existing, created: false, key };
      counts[type] = (counts[type] ?? 0) + 1;
      const owner = type === account?.type ? accountContacts(account, data) : undefined;
      return { id: await insertDocument(trx, type, status, data, owner), created: true, key };
    };
    for (const [type, records] of Object.entries(seed.records)) {
      for (const data of records) await add(type, data);
    }
    const demo: DemoAccount[] = [];
    if (config.demoData && account) {
      for (const persona of seed.personas) {
        const added = await add(account.type, persona.data, persona.status);
        if (!added) continue;
        demo.push({
          persona: persona.persona,
          id: added.id,
          loginIdentifier: added.key,
          password: persona.password,
          created: added.created,
        });
      }
    }
    return { counts, demo };
  });
  // After the commit: the credential store may use its own connection.
  if (setPassword) {
    for (const created of demo.filter((a) => a.created)) {
      await setPassword(created.id, created.loginIdentifier, created.password);
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

/** The record of a type whose key is `key` (any case, any status). */
async function findByKey(
  trx: Transaction<Database>,
  type: string,
  pointer: string,
  key: string,
): Promise<string | undefined> {
  const row = await trx
    .selectFrom('document')
    .select('id')
    .where('type', '=', type)
    .where(keyExpression(pointer), '=', key.toLowerCase())
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
  account: { name: string | null; email: string | null; mobile: string | null } | undefined,
): Promise<string> {
  const id = randomUUID();
  const json = JSON.stringify(data);
  await trx
    .insertInto('document')
    .values({
      id,
      type,
      status,
      version: 1,
      owner: account ? id : SEED_ACTOR,
      owner_name: account?.name ?? null,
      owner_email: account?.email ?? null,
      owner_mobile: account?.mobile ?? null,
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
