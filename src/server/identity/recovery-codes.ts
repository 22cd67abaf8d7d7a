import { createHmac, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/** How many codes a person is given at once. */
export const RECOVERY_CODE_COUNT = 10;

/** Letters and digits nobody confuses (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Two groups of five: 50 bits, out of reach of guessing within the sign-in's limits. */
const GROUP = 5;

const normalise = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

/**
 * Recovery codes: ten single-use codes a person keeps on paper, for when their passkey or
 * authenticator app is not at hand. Shown once when made (making new ones replaces them all);
 * kept only as an HMAC under a key of the database (recovery_code_key): random codes of 50 bits
 * need no slow hash, and a copy of the table alone tells none of them.
 */
export class RecoveryCodes {
  private readonly db: Kysely<IdentityTables>;
  private key: Promise<string> | undefined;

  constructor(db: IdentityKysely) {
    this.db = identityDb(db);
  }

  /** Makes the account's ten codes, replacing any it had; the codes, shown this once. */
  async generate(accountId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => draw());
    const hashes = await Promise.all(codes.map((code) => this.hash(accountId, code)));
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_code').where('account_id', '=', accountId).execute();
      await trx
        .insertInto('recovery_code')
        .values(hashes.map((code_hash) => ({ account_id: accountId, code_hash })))
        .execute();
    });
    return codes;
  }

  /** How many codes are left, and when they were made (null: never). */
  async status(accountId: string): Promise<{ remaining: number; createdAt: string | null }> {
    const rows = await this.db
      .selectFrom('recovery_code')
      .select(['created_at', 'used_at'])
      .where('account_id', '=', accountId)
      .execute();
    const first = rows[0];
    return {
      remaining: rows.filter((row) => !row.used_at).length,
      createdAt: first ? new Date(first.created_at).toISOString() : null,
    };
  }

  /** Uses a code of the account: true once; the same code again, or any other, false. */
  async use(accountId: string, code: string): Promise<boolean> {
    const plain = normalise(code);
    if (plain.length !== GROUP * 2 || [...plain].some((c) => !ALPHABET.includes(c))) return false;
    // One statement: two sign-ins sending the same code at once cannot both use it.
    const result = await this.db
      .updateTable('recovery_code')
      .set({ used_at: new Date().toISOString() })
      .where('account_id', '=', accountId)
      .where('code_hash', '=', await this.hash(accountId, plain))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private async hash(accountId: string, code: string): Promise<string> {
    this.key ??= this.db
      .selectFrom('recovery_code_key')
      .select('secret')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow()
      .then((row) => row.secret);
    const key = await this.key.catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', key)
      .update(`${accountId}:${normalise(code)}`)
      .digest('hex');
  }
}

/** One code, "xxxxx-xxxxx". */
function draw(): string {
  const group = () =>
    Array.from({ length: GROUP }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${group()}-${group()}`;
}
