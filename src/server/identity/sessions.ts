import type { AccountSession } from '../../core/identity/sessions';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sql, type Kysely } from 'kysely';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { AuditEntry, AuditLog } from '../audit/log';
import { UUID } from '../db/ids';
import { addressClass } from '../http/address-class';
import { sessionSids, type RevokedSessions } from './revoked-sessions';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/**
 * A person's sign-in sessions as their security page shows them (docs/identity.md, "Sessions"):
 * which device, from which network (its class, never the address), when it signed in, how, and
 * when it was last used; and ending one, or all but the current one, so that its tokens stop
 * working at once on every process (RevokedSessions and its change notices).
 *
 * The session itself is oidc-provider's (a `Session` in oidc_payload); this keeps, beside it,
 * what the person needs to recognise it, keyed by the `sid` the portal's tokens carry.
 */

/** How a session was opened: `amr` of the sign-in (RFC 8176), as the page words it. */
export type SignInMethod = 'password' | 'passkey';

/** A passkey's sign-in says `hwk` (hardware key) or `swk` (software key), with `user` or `pin`. */
const PASSKEY_AMR = ['hwk', 'swk', 'pop'];

export function methodOf(amr: readonly string[] | undefined): SignInMethod {
  if (amr?.includes('pwd')) return 'password';
  return amr?.some((value) => PASSKEY_AMR.includes(value)) ? 'passkey' : 'password';
}

/** A browser and a system as words (`unknown` when not recognised), never the whole header. */
export interface Device {
  browser: string;
  os: string;
}

const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  // HeadlessChrome too: a browser driven by a script is still Chrome.
  [/Chrom(e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** The device a User-Agent header names, summarised: what a person recognises, nothing more. */
export function describeDevice(userAgent: string | undefined): Device {
  const header = userAgent ?? '';
  const find = (table: ReadonlyArray<readonly [RegExp, string]>) =>
    table.find(([pattern]) => pattern.test(header))?.[1] ?? 'unknown';
  return { browser: find(BROWSERS), os: find(SYSTEMS) };
}

/** The device in English words, as the API's `device` says it (the page words its own). */
export const deviceWords = ({ browser, os }: Device) =>
  `${browser === 'unknown' ? 'Unknown browser' : browser} on ${os === 'unknown' ? 'an unknown system' : os}`;

/** One session as the API lists it. */
export type SessionItem = AccountSession;

/** Who ends a session, and through which request: the audit line's common part. */
export type EndedBy = Pick<AuditEntry, 'actor' | 'actorName' | 'route' | 'screen' | 'addressClass'>;

/** Last use is written at most this often per session and process. */
const TOUCH_EVERY_MS = 60_000;
/** Past this many sessions remembered, the oldest touches are forgotten. */
const TOUCHES_KEPT = 10_000;

/**
 * The client address of a request forwarded to oidc-provider, as Fastify read it (its
 * `trustProxy`): Koa's own reading trusts any X-Forwarded-For.
 */
const clientAddresses = new WeakMap<IncomingMessage, string>();
export function rememberClientAddress(raw: IncomingMessage, address: string): void {
  clientAddresses.set(raw, address);
}

export class AccountSessions {
  private readonly db: Kysely<IdentityTables>;
  /** When each session's last use was last written by this process (ms). */
  private readonly touched = new Map<string, number>();

  constructor(
    db: IdentityKysely,
    private readonly revokedSessions: RevokedSessions,
    private readonly audit?: AuditLog,
    private readonly now: () => number = Date.now,
  ) {
    this.db = identityDb(db);
  }

  /**
   * Follows oidc-provider: a session authorising the portal is recorded (or its last use
   * updated, for a silent check), and a refreshed token counts as a use.
   */
  follow(provider: Provider, clientId: string): void {
    // The answer (the redirect carrying the code) leaves once the session is written: the
    // page's first call may list it, through whichever process.
    const writes = new WeakMap<KoaContextWithOIDC, Promise<void>>();
    provider.use(async (ctx, next) => {
      await next();
      await writes.get(ctx as KoaContextWithOIDC);
    });
    provider.on('authorization.success', (ctx: KoaContextWithOIDC) => {
      const session = ctx.oidc.session;
      const sid = session?.sidFor(clientId);
      if (!session?.accountId || !sid || ctx.oidc.client?.clientId !== clientId) return;
      const address = clientAddresses.get(ctx.req) ?? ctx.ip;
      writes.set(
        ctx,
        this.started({
          sid,
          sessionUid: session.uid,
          accountId: session.accountId,
          device: describeDevice(ctx.get('user-agent')),
          addressClass: addressClass(address),
          method: methodOf(session.amr as string[] | undefined),
          signedInAt: new Date((session.loginTs ?? Math.floor(this.now() / 1000)) * 1000),
        }).catch((error: unknown) => {
          ctx.app.emit('error', error, ctx);
        }),
      );
    });
    provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
      const { RefreshToken, AuthorizationCode } = ctx.oidc.entities;
      const sid = (RefreshToken ?? AuthorizationCode)?.sid;
      if (typeof sid === 'string') this.touch(sid);
    });
  }

  /** Records a session of the portal (again, after a silent check: its last use). */
  async started(session: {
    sid: string;
    sessionUid: string;
    accountId: string;
    device: Device;
    addressClass: string;
    method: SignInMethod;
    signedInAt: Date;
  }): Promise<void> {
    const now = new Date(this.now()).toISOString();
    // The device and network stay those of the sign-in: a later silent check (a copied
    // cookie's, say) does not rename the session the person recognises.
    const changing = {
      session_uid: session.sessionUid,
      account_id: session.accountId,
      method: session.method,
      last_used_at: now,
    };
    await this.db
      .insertInto('account_session')
      .values({
        id: randomUUID(),
        sid: session.sid,
        signed_in_at: session.signedInAt.toISOString(),
        browser: session.device.browser,
        os: session.device.os,
        address_class: session.addressClass,
        ...changing,
      })
      .onConflict((c) => c.column('sid').doUpdateSet(changing))
      .execute();
    this.touched.set(session.sid, this.now());
  }

  /** A use of the session (a request with its token, a refresh): written once a minute at most. */
  touch(sid: string): void {
    const now = this.now();
    const last = this.touched.get(sid);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    if (this.touched.size >= TOUCHES_KEPT) this.touched.clear();
    this.touched.set(sid, now);
    void this.db
      .updateTable('account_session')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('sid', '=', sid)
      .execute()
      .catch(() => this.touched.delete(sid));
  }

  /** The account's live sessions, the current one (by its `sid`) first, then by last use. */
  async list(accountId: string, currentSid: string | undefined): Promise<SessionItem[]> {
    const rows = await this.live(accountId);
    return rows
      .map((row) => ({
        id: row.id,
        device: deviceWords(row),
        browser: row.browser,
        os: row.os,
        addressClass: row.address_class,
        signedInAt: new Date(row.signed_in_at).toISOString(),
        lastUsedAt: new Date(row.last_used_at).toISOString(),
        method: row.method,
        current: row.sid === currentSid,
      }))
      .sort(
        (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
      );
  }

  /** Ends one of the account's sessions; false when it has none of that id. */
  async end(accountId: string, id: string, by: EndedBy): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const rows = (await this.live(accountId)).filter((row) => row.id === id);
    await this.endRows(rows, by, 'one');
    return rows.length > 0;
  }

  /** Ends every session of the account but the current one; how many it ended. */
  async endOthers(accountId: string, currentSid: string | undefined, by: EndedBy) {
    const rows = (await this.live(accountId)).filter((row) => row.sid !== currentSid);
    await this.endRows(rows, by, 'others');
    return rows.length;
  }

  /** Rows of sessions that have ended without this knowing (signed out, expired). */
  async purge(): Promise<void> {
    await this.db
      .deleteFrom('account_session')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('oidc_payload')
              .select('oidc_payload.id')
              .where('oidc_payload.model', '=', 'Session')
              .whereRef('oidc_payload.uid', '=', 'account_session.session_uid'),
          ),
        ),
      )
      .execute();
  }

  /** The account's sessions whose oidc session lives and whose tokens were not revoked. */
  private async live(accountId: string) {
    return this.db
      .selectFrom('account_session as s')
      .innerJoin('oidc_payload as o', (join) =>
        join.on('o.model', '=', 'Session').onRef('o.uid', '=', 's.session_uid'),
      )
      .selectAll('s')
      .select('o.payload')
      .where('s.account_id', '=', accountId)
      .where((eb) =>
        eb.or([eb('o.expires_at', 'is', null), eb('o.expires_at', '>', sql<Date>`now()`)]),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('revoked_session as r').select('r.sid').whereRef('r.sid', '=', 's.sid'),
          ),
        ),
      )
      .execute();
  }

  /**
   * Ends sessions as signing out does, and more surely: their sids are revoked first (every
   * process refuses their access tokens from the change notice on), then the session, its
   * grants and every token of those grants (refresh tokens included) are removed.
   */
  private async endRows(
    rows: ReadonlyArray<Awaited<ReturnType<AccountSessions['live']>>[number]>,
    by: EndedBy,
    scope: 'one' | 'others',
  ): Promise<void> {
    if (rows.length === 0) return;
    const sids = new Set<string>();
    const grants = new Set<string>();
    for (const row of rows) {
      sids.add(row.sid);
      const payload = row.payload;
      for (const sid of sessionSids(payload)) sids.add(sid);
      const authorizations = (payload.authorizations ?? {}) as Record<
        string,
        { grantId?: unknown } | null
      >;
      for (const entry of Object.values(authorizations))
        if (typeof entry?.grantId === 'string') grants.add(entry.grantId);
    }
    await this.revokedSessions.revoke([...sids]);
    const uids = rows.map((row) => row.session_uid);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('oidc_payload')
        .where('model', '=', 'Session')
        .where('uid', 'in', uids)
        .execute();
      if (grants.size > 0) {
        await trx
          .deleteFrom('oidc_payload')
          .where('grant_id', 'in', [...grants])
          .execute();
        await trx
          .deleteFrom('oidc_payload')
          .where('model', '=', 'Grant')
          .where('id', 'in', [...grants])
          .execute();
      }
      await trx
        .deleteFrom('account_session')
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
    });
    await this.audit?.recordNow(
      rows.map((row) => ({
        ...by,
        kind: 'session' as const,
        action: 'session.end',
        target: row.account_id,
        detail: { session: row.id, device: deviceWords(row), scope },
      })),
    );
  }
}

/** A sign-in as the audit trail keeps it: who, how, from which network. */
export interface SignInRecord {
  accountId: string;
  name: string;
  method: SignInMethod | 'recovery-code';
  /** The client's address: only its class is kept. */
  address: string;
  detail?: Record<string, unknown>;
}

/** Records a finished sign-in (`sign-in.password`, `sign-in.passkey`...), kind `sign-in`. */
export async function recordSignIn(audit: AuditLog | undefined, entry: SignInRecord) {
  await audit?.recordNow([
    {
      actor: entry.accountId,
      actorName: entry.name,
      kind: 'sign-in',
      action: `sign-in.${entry.method}`,
      target: entry.accountId,
      addressClass: addressClass(entry.address),
      ...(entry.detail ? { detail: entry.detail } : {}),
    },
  ]);
}

/**
 * Records a refused sign-in (`sign-in.failed`). An unknown login is not kept (it may be a
 * password typed in the wrong field): the line says only that the login was unknown.
 */
export async function recordSignInFailure(
  audit: AuditLog | undefined,
  entry: { account?: { id: string; name: string }; address: string; reason: string },
) {
  await audit?.recordNow([
    {
      actor: entry.account?.id ?? 'unknown',
      actorName: entry.account?.name ?? 'unknown',
      kind: 'sign-in',
      action: 'sign-in.failed',
      ...(entry.account ? { target: entry.account.id } : {}),
      addressClass: addressClass(entry.address),
      detail: { reason: entry.reason },
    },
  ]);
}
