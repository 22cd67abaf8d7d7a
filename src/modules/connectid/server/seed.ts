import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import {
  PROJECT_ROOT,
  type ServerConfig,
  type Database,
  idsByKey,
  insertSeededDocument,
  type DemoAccount,
} from '../../../server/module';
import { accountContacts, codes, text } from './account-fields';
import { recordDeclarations, type RecordDeclarations } from './declarations';
import type { WorkflowDefinition } from '../../../core/documents/workflow';

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

const SEED_ACTOR = 'system';

/**
 * Seeds the connectid records, and the demo personas' accounts with `config.demoData`. A record
 * whose key exists in any status is left as it is (edits survive restarts); one process seeds.
 */
export async function seedConnectid(
  db: Kysely<Database>,
  declarations: RecordDeclarations,
  config: Pick<ServerConfig, 'demoData'>,
  log: { info(message: string): void },
  setPassword?: (accountId: string, loginIdentifier: string, password: string) => Promise<void>,
  file: string = CONNECTID_SEED_FILE,
): Promise<DemoAccount[]> {
  const seed = JSON.parse(await fs.readFile(file, 'utf8')) as ConnectidSeed;
  const { account } = declarations;
  const { counts, demo } = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('connectid-seed'))`.execute(trx);
    const counts: Record<string, number> = {};
    // The records already there, one query per type: type -> key in lower case -> id.
    const present = new Map<string, Map<string, string>>();
    const seeded = Object.entries(seed.records).map(([type, records]) => ({
      type,
      records: records as unknown[],
    }));
    if (config.demoData && account) {
      seeded.push({ type: account.type, records: seed.personas.map((p) => p.data) });
    }
    for (const { type, records } of seeded) {
      const pointer = declarations.keys.get(type)?.pointer;
      if (!pointer || present.has(type)) continue;
      const keys = records.map((data) => text(data as Record<string, unknown>, pointer) ?? '');
      present.set(type, await idsByKey(trx, type, pointer, keys));
    }
    const add = async (
      type: string,
      data: Record<string, unknown>,
      status = 'STORED',
    ): Promise<{ id: string; created: boolean; key: string } | undefined> => {
      const pointer = declarations.keys.get(type)?.pointer;
      if (!pointer) return undefined;
      const key = text(data, pointer);
      if (!key) throw new Error(`seed: a ${type} record has no key at ${pointer}`);
      const ids = present.get(type) ?? new Map<string, string>();
      present.set(type, ids);
      const existing = ids.get(key.toLowerCase());
      if (existing) return { id: existing, created: false, key };
      counts[type] = (counts[type] ?? 0) + 1;
      const owner = type === account?.type ? accountContacts(account, data) : undefined;
      // An account owns itself (see effect ownAccount); other records are the seed's.
      const id = randomUUID();
      ids.set(key.toLowerCase(), id);
      await insertSeededDocument(trx, {
        id,
        type,
        status,
        data,
        owner: owner
          ? { owner: id, ...owner }
          : { owner: SEED_ACTOR, name: null, email: null, mobile: null },
        actor: SEED_ACTOR,
      });
      return { id, created: true, key };
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

/**
 * Every role the seed's access units grant: a role of the definitions nobody would hold is said
 * at start and by `npm run check:definitions`. Undefined without access units or seeded ones.
 */
export async function seededRoleGrants(
  workflows: readonly WorkflowDefinition[],
  file: string = CONNECTID_SEED_FILE,
): Promise<Set<string> | undefined> {
  const { accessUnit } = recordDeclarations(workflows);
  if (!accessUnit) return undefined;
  const seed = JSON.parse(await fs.readFile(file, 'utf8')) as ConnectidSeed;
  const units = seed.records[accessUnit.type];
  return units && new Set(units.flatMap((unit) => codes(unit, accessUnit.roles)));
}
