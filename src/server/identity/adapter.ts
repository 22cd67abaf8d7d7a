import { sql, type Kysely } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { sessionSids } from './revoked-sessions';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/**
 * oidc-provider's storage over Kysely: one table for every model (Session, Interaction, Grant,
 * AuthorizationCode, AccessToken, RefreshToken…), keyed by model and id. Works on PGlite and
 * PostgreSQL alike; a restart keeps sessions and tokens.
 */
export function kyselyAdapter(
  db: IdentityKysely,
  /** Told the sids of a session as it is destroyed (signing out), before it goes. */
  onSessionEnd?: (sids: string[]) => Promise<void>,
): AdapterFactory {
  return (model: string) =>
    new KyselyAdapter(identityDb(db), model, model === 'Session' ? onSessionEnd : undefined);
}

class KyselyAdapter implements Adapter {
  constructor(
    private readonly db: Kysely<IdentityTables>,
    private readonly model: string,
    private readonly onEnd?: (sids: string[]) => Promise<void>,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt =
      typeof expiresIn === 'number' && expiresIn > 0
        ? new Date(Date.now() + expiresIn * 1000).toISOString()
        : null;
    const row = {
      payload: JSON.stringify(payload),
      grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
      user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expires_at: expiresAt,
    };
    await this.db
      .insertInto('oidc_payload')
      .values({ model: this.model, id, ...row, consumed_at: null })
      .onConflict((c) => c.columns(['model', 'id']).doUpdateSet(row))
      .execute();
  }

  find = (id: string) => this.findBy('id', id);
  findByUid = (uid: string) => this.findBy('uid', uid);
  findByUserCode = (userCode: string) => this.findBy('user_code', userCode);

  async consume(id: string): Promise<void> {
    await this.db
      .updateTable('oidc_payload')
      .set({ consumed_at: new Date().toISOString() })
      .where('model', '=', this.model)
      .where('id', '=', id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    if (this.onEnd) {
      const ending = await this.find(id);
      if (ending) await this.onEnd(sessionSids(ending as Record<string, unknown>));
    }
    await this.db
      .deleteFrom('oidc_payload')
      .where('model', '=', this.model)
      .where('id', '=', id)
      .execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_payload').where('grant_id', '=', grantId).execute();
  }

  private async findBy(
    column: 'id' | 'uid' | 'user_code',
    value: string,
  ): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payload')
      .select(['payload', 'consumed_at'])
      .where('model', '=', this.model)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumed_at
      ? { ...payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) }
      : payload;
  }
}

/** Removes expired rows (sessions, codes, tokens past their lifetime). */
export async function purgeExpired(db: IdentityKysely): Promise<number> {
  const result = await identityDb(db)
    .deleteFrom('oidc_payload')
    .where('expires_at', '<', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
