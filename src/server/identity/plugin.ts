import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Interaction } from 'oidc-provider';
import { pickLanguage, type Language } from '../../core/i18n/translate';
import type { AuditLog } from '../audit/log';
import type { ServerConfig } from '../config';
import { kyselyAdapter, purgeExpired } from './adapter';
import { ASSETS, COOKIES_STEP1_JS, COOKIES_STEP2_JS, LOGIN_STATUS_JS } from './assets';
import type { CredentialStore } from './credentials';
import type { AccountDirectory } from './directory';
import { signingKeys, spkiBase64 } from './keys';
import { mountOidc } from './oidc';
import {
  errorPage,
  loginPage,
  framePage,
  type FramePage,
  type LoginLinks,
  type PageContext,
  type PageError,
  type Texts,
} from './pages';
import { html, noStore } from './replies';
import {
  mustChangePassword,
  mustUseTotp,
  SECOND_FACTOR_STEPS,
  SIGN_IN_STEPS,
  stepOf,
  type PendingSignIn,
  type StepContext,
} from './sign-in-steps';
import { registerPasswordReset, RESET_MODEL, type InteractionRequest as Request } from './reset';
import type { OneTimeCodes } from './reset-codes';
import { createProvider, PROTOCOL_PATH, realmOf, sameOriginUri, TTL } from './provider';
import type { PasskeyStore } from './passkeys';
import type { RecoveryCodes } from './recovery-codes';
import { RevokedSessions } from './revoked-sessions';
import { methodOf, recordSignIn, recordSignInFailure, type AccountSessions } from './sessions';
import { ServiceCredentials } from './service-clients';
import type { IdentityKysely } from './tables';
import { AttemptThrottle } from './throttle';

/**
 * How long a refused sign-in takes at least: well above the work of either refusal (20 to 30
 * ms, docs/security.md), so the answer's time says nothing of the login.
 */
const FAILED_SIGN_IN_MS = 400;

const PENDING_TTL = 15 * 60;

/** The sign-in page's answer to an address blocked for this many minutes. */
const tooMany = (minutes: number) => ({ key: 'signIn.tooManyAttempts', params: { minutes } });

export interface IdentityPluginOptions {
  db: IdentityKysely;
  directory: AccountDirectory;
  credentials: CredentialStore;
  /** Service accounts' API credentials, for the client-credentials grant (else its own). */
  serviceClients?: ServiceCredentials;
  /** The sessions ended by signing out, whose tokens are refused (else its own). */
  revokedSessions?: RevokedSessions;
  config: Pick<
    ServerConfig,
    'publicUrl' | 'identity' | 'auth' | 'selfRegistration' | 'confirmationChannels'
  >;
  /** The texts the server loaded from translations/ (the pages read namespace "signin"). */
  texts: Texts;
  /** One-time codes (the challenge backend): with them, the sign-in page offers a reset. */
  codes?: OneTimeCodes;
  /** The audit trail: sign-ins (by password, passkey or recovery code), refused ones too. */
  audit?: AuditLog;
  /** The people's sessions as their security page lists them (sessions.ts). */
  sessions?: AccountSessions;
  /** Passkeys: with them, the sign-in offers a passkey (second factor, or without password). */
  passkeys?: PasskeyStore;
  /** Recovery codes, offered at the second-factor step to those who have some left. */
  recoveryCodes?: RecoveryCodes;
}

/**
 * The built-in identity server, Keycloak-compatible: `/realms/{realm}` with its public key, the
 * OpenID Connect endpoints (oidc.ts), the sign-in pages and steps (sign-in-steps.ts), and the
 * iframes keycloak-js uses. Register it on the root instance.
 */
export async function identityPlugin(
  app: FastifyInstance,
  options: IdentityPluginOptions,
): Promise<void> {
  const { db, directory, credentials, texts, codes, passkeys, recoveryCodes, audit } = options;
  const { cookieKeys, lockoutMinutes, lockoutAttempts } = options.config.identity;
  const realm = realmOf(options.config);
  const { publicUrl, realmPath, issuer, clientId } = realm;
  if (options.config.auth.issuer !== issuer) {
    app.log.warn(
      { issuer, configured: options.config.auth.issuer },
      'the API trusts another issuer than the built-in identity server',
    );
  }
  const revokedSessions = options.revokedSessions ?? new RevokedSessions(db, TTL.AccessToken);
  // One address trying many accounts is slowed down across them (each account's own lockout
  // is the credential store's).
  const addressThrottle = new AttemptThrottle(
    db,
    options.config.identity.addressThrottle,
    'sign-in',
  );
  const keys = await signingKeys(db);
  const provider = await createProvider({
    ...realm,
    db,
    directory,
    texts,
    cookieKeys,
    keys,
    serviceClients:
      options.serviceClients ?? new ServiceCredentials(db, directory, revokedSessions),
    revokedSessions,
  });
  options.sessions?.follow(provider, clientId);
  provider.on('server_error', (_ctx, error) =>
    app.log.error({ err: error }, 'identity server error'),
  );
  const adapter = kyselyAdapter(db);
  const pending = adapter('SignInStep');
  const signingKey = keys[0];
  if (!signingKey) throw new Error('no signing key');

  const purgeAll = () =>
    Promise.all([
      purgeExpired(db).catch(() => 0),
      revokedSessions.purge().catch(() => 0),
      addressThrottle.purge().catch(() => 0),
      options.sessions?.purge().catch(() => 0),
    ]);
  await purgeAll();
  const purge = setInterval(() => void purgeAll(), 60 * 60 * 1000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));

  app.get(realmPath, async (_request, reply) => {
    noStore(reply);
    return {
      realm: realm.realm,
      public_key: spkiBase64(signingKey),
      'token-service': `${issuer}${PROTOCOL_PATH}`,
      'account-service': `${issuer}/account`,
      'tokens-not-before': 0,
    };
  });

  app.get<{ Params: { name: string } }>(`${realmPath}/assets/:name`, async (request, reply) => {
    const asset = ASSETS[request.params.name];
    if (!asset) return reply.callNotFound();
    return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
  });
  const frame = (
    path: string,
    page: FramePage | ((request: FastifyRequest, reply: FastifyReply) => Promise<FramePage>),
  ) =>
    app.get(`${realmPath}${PROTOCOL_PATH}/${path}`, async (request, reply) => {
      const { html: body, contentSecurityPolicy } =
        typeof page === 'function' ? await page(request, reply) : page;
      return html(reply.header('content-security-policy', contentSecurityPolicy), body);
    });
  frame('3p-cookies/step1.html', framePage('3p-cookies', COOKIES_STEP1_JS));
  frame('3p-cookies/step2.html', framePage('3p-cookies', COOKIES_STEP2_JS));

  /** The current session's id for the portal's client (the `sid` its tokens carry), or null. */
  const currentSid = async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = provider.createContext(request.raw, reply.raw);
    const session = await provider.Session.get(ctx as never);
    return session.accountId ? (session.authorizations?.[clientId]?.sid ?? null) : null;
  };
  // The frame carries the session's id as served, for keycloak-js' first check (made as it
  // loads) not to wait for one more request (`/init`), which each later check makes.
  frame('login-status-iframe.html', async (request, reply) =>
    framePage('login-status', LOGIN_STATUS_JS, {
      'data-client': clientId,
      'data-origin': new URL(publicUrl).origin,
      'data-sid': (await currentSid(request, reply)) ?? '',
    }),
  );
  app.get<{ Querystring: { client_id?: string; origin?: string } }>(
    `${realmPath}${PROTOCOL_PATH}/login-status-iframe.html/init`,
    async (request, reply) => {
      noStore(reply);
      const { client_id: client, origin } = request.query;
      if (client !== clientId || !origin || !sameOriginUri(publicUrl, `${origin}/`)) {
        return reply.status(403).send({ error: 'origin not allowed' });
      }
      return { sid: await currentSid(request, reply) };
    },
  );

  await mountOidc(app, { ...realm, provider, directory, revokedSessions, keys, signingKey });

  // The sign-in pages (oidc-provider's interactions), their steps in sign-in-steps.ts.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    /** A page in the language picked on it, else the portal's, else the browser's. */
    const pageFor = (request: Request, interaction?: Interaction, suffix = ''): PageContext => {
      const params = interaction?.params ?? {};
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const language = pickLanguage(
        text(request.body?.lang),
        request.query.lang,
        text(params.ui_locales),
        text(params.kc_locale),
        request.headers['accept-language'],
      );
      const selfUrl = `${actionOf(request.params.uid)}${suffix}`;
      return { texts, language, realmPath, selfUrl, portalUrl: `${publicUrl}/` };
    };
    const resetChannels = (['mobile', 'email'] as const).filter(
      (c) => codes && options.config.confirmationChannels[c],
    );
    const actionOf = (uid: string) => `${realmPath}/login-actions/${uid}`;
    /** Where the sign-in page leads besides signing in. */
    const linksFor = (uid: string, language: Language): LoginLinks => ({
      forgot: resetChannels.length > 0 ? `${actionOf(uid)}/reset?lang=${language}` : undefined,
      register: options.config.selfRegistration ? `${publicUrl}/#/register` : undefined,
      portal: `${publicUrl}/`,
    });
    const resets = adapter(RESET_MODEL);

    /** Loads the interaction of the browser's cookie, if it is the one the address names. */
    const load = async (request: Request, reply: FastifyReply) => {
      const interaction = await provider
        .interactionDetails(request.raw, reply.raw)
        .catch(() => undefined);
      return interaction?.uid === request.params.uid ? interaction : undefined;
    };
    const expired = (request: Request, reply: FastifyReply) =>
      html(reply, errorPage(pageFor(request), `${publicUrl}/`, 'expired'), 400);

    const pendingOf = async (uid: string) =>
      (await pending.find(uid)) as unknown as PendingSignIn | undefined;
    const savePending = (uid: string, state: PendingSignIn) =>
      pending.upsert(uid, state as never, PENDING_TTL);
    /** What a step of this interaction is given (sign-in-steps.ts). */
    const stepContext = (request: Request, interaction: Interaction): StepContext => ({
      directory,
      credentials,
      page: pageFor(request, interaction),
      action: actionOf(interaction.uid),
      save: (state) => savePending(interaction.uid, state),
      lockoutAttempts,
      interaction: interaction.uid,
      passkeys,
      recoveryCodes,
      recordRecoveryCode: (account) =>
        recordSignIn(audit, {
          accountId: account.id,
          name: account.name || account.loginIdentifier,
          method: 'recovery-code',
          address: request.ip,
        }),
    });

    /** Shows the page of the current step. */
    const show = async (
      request: Request,
      reply: FastifyReply,
      interaction: Interaction,
      state: PendingSignIn | undefined,
      error?: PageError,
      status = 200,
    ) => {
      const step = stepOf(state?.steps[0]);
      if (!state || !step) {
        // A finished password reset brings the person back here, told so, their login filled in.
        const reset = (await resets.find(interaction.uid)) as
          { step?: string; login?: string } | undefined;
        if (reset?.step === 'done') await resets.destroy(interaction.uid);
        const done = reset?.step === 'done' && !error;
        const username =
          request.body?.username ??
          (done ? reset.login : undefined) ??
          (typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : '');
        const page = pageFor(request, interaction);
        return html(
          reply,
          loginPage(page, actionOf(interaction.uid), {
            username,
            error,
            notice: done ? 'signIn.passwordReset' : undefined,
            links: linksFor(interaction.uid, page.language),
            passkey: !!passkeys,
          }),
          status,
        );
      }
      return html(reply, await step.page(stepContext(request, interaction), state, error), status);
    };

    /** On to the next step, or, with none left, back to oidc-provider and on to the portal. */
    const advance = async (
      request: Request,
      reply: FastifyReply,
      interaction: Interaction,
      state: PendingSignIn,
    ) => {
      if (state.steps.length > 0) {
        await savePending(interaction.uid, state);
        return reply.redirect(actionOf(interaction.uid), 303);
      }
      await pending.destroy(interaction.uid);
      const account = await directory.findById(state.accountId);
      // One line per sign-in: how it was proved (a passkey alone, or a password) and its factors.
      await recordSignIn(audit, {
        accountId: state.accountId,
        name: account?.name ?? state.accountId,
        method: methodOf(state.amr),
        address: request.ip,
        detail: { factors: state.amr },
      });
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { login: { accountId: state.accountId, amr: state.amr, remember: true } },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    };

    scope.get(`${realmPath}/login-actions/:uid`, async (request: Request, reply) => {
      const interaction = await load(request, reply);
      if (!interaction) return expired(request, reply);
      if (interaction.prompt.name !== 'login') {
        // Only the login prompt is ours (consent is granted by loadExistingGrant).
        const returnTo = await provider.interactionResult(request.raw, reply.raw, {});
        return reply.redirect(returnTo, 303);
      }
      return show(request, reply, interaction, await pendingOf(interaction.uid));
    });

    scope.post(`${realmPath}/login-actions/:uid`, async (request: Request, reply) => {
      const interaction = await load(request, reply);
      if (!interaction) return expired(request, reply);
      const body = request.body ?? {};
      const state = await pendingOf(interaction.uid);
      const answer = (shown: PendingSignIn | undefined, error?: PageError, status?: number) =>
        show(request, reply, interaction, shown, error, status);

      // An address blocked for trying too many accounts is told how long to wait, whatever
      // it sends; a failure counts against it, and the one that reaches the limit says so.
      const blockedFor = await addressThrottle.waitFor(request.ip);
      if (blockedFor > 0) return answer(state, tooMany(blockedFor), 429);
      const started = Date.now();
      const failed = async (
        message: PageError,
        status: number,
        kept?: PendingSignIn,
        account?: { id: string; name: string },
      ) => {
        const blocked = await addressThrottle.fail(request.ip);
        await recordSignInFailure(audit, {
          account,
          address: request.ip,
          reason: status === 423 ? 'locked' : account ? 'refused' : 'unknown-login',
        });
        // Every refusal takes the same time, whatever the work behind it: an unknown login
        // answers no sooner than a known one with a wrong password (npm run bench:signin).
        const wait = started + FAILED_SIGN_IN_MS - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        return blocked > 0 ? answer(kept, tooMany(blocked), 429) : answer(kept, message, status);
      };
      const invalidCredentials = { key: 'signIn.invalidCredentials' };

      if (body.step === 'passkey-login' && passkeys) {
        // Without a password: the passkey says whose it is (a discoverable credential).
        let answer: unknown;
        try {
          answer = JSON.parse(body.credential ?? '');
        } catch {
          answer = undefined;
        }
        const proved =
          answer && typeof answer === 'object'
            ? await passkeys.authenticate('passwordless', answer as never, {
                interaction: interaction.uid,
              })
            : null;
        const account = proved && (await directory.findById(proved.accountId));
        const refused = { key: 'passkey.invalid' };
        if (!account || !account.canSignIn) return failed(refused, 401);
        const status = await credentials.status(account.id);
        if (status.lockedUntil) {
          const minutes = Math.max(
            1,
            Math.ceil((status.lockedUntil.getTime() - Date.now()) / 60_000),
          );
          return failed({ key: 'signIn.locked', params: { minutes } }, 423);
        }
        const policy = await directory.policyFor(account.id);
        const expiredPassword = await credentials.passwordExpired(account.id, policy);
        const facts = { status, flags: await directory.securityFlags(account.id), expiredPassword };
        if (mustUseTotp(facts)) {
          // A passkey is the second factor the administrator asked for: the flag is done.
          await credentials.forceTotp(account.id, false);
          await directory.clearSecurityFlag(account.id, 'forceTotp');
        }
        // The passkey (user verified) is both factors: what is left is what the administrator
        // asked of the password.
        return advance(request, reply, interaction, {
          accountId: account.id,
          steps: SIGN_IN_STEPS.filter(
            (s) => !SECOND_FACTOR_STEPS.includes(s.id) && s.applies(facts),
          ).map((s) => s.id),
          passwordReason: mustChangePassword(facts) ? 'required' : 'expired',
          forcedTotp: false,
          amr: ['hwk', 'mfa'],
          failures: 0,
        });
      }

      if (body.step === 'login' || !state) {
        const username = (body.username ?? '').trim();
        const password = body.password ?? '';
        if (!username || !password) return answer(undefined, { key: 'signIn.missing' }, 400);
        const account = await directory.findByLogin(username);
        if (!account) {
          await credentials.verifyDecoy(password);
          return failed(invalidCredentials, 401);
        }
        const outcome = await credentials.verify(account.id, password);
        if (outcome === 'locked') {
          const { lockedUntil } = await credentials.status(account.id);
          const minutes = lockedUntil
            ? Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 60_000))
            : lockoutMinutes;
          return failed({ key: 'signIn.locked', params: { minutes } }, 423, undefined, account);
        }
        if (outcome === 'wrong' || !account.canSignIn)
          return failed(invalidCredentials, 401, undefined, account);
        const status = await credentials.status(account.id);
        const policy = await directory.policyFor(account.id);
        const expiredPassword = await credentials.passwordExpired(account.id, policy);
        // The administrator's flags live on the account (its security section), the temporary
        // password's in the credential: either asks the same of the person.
        const facts = {
          status,
          flags: await directory.securityFlags(account.id),
          expiredPassword,
          passkeys: (await passkeys?.count(account.id)) ?? 0,
        };
        return advance(request, reply, interaction, {
          accountId: account.id,
          steps: SIGN_IN_STEPS.filter((s) => s.applies(facts)).map((s) => s.id),
          passwordReason: mustChangePassword(facts) ? 'required' : 'expired',
          forcedTotp: mustUseTotp(facts),
          amr: ['pwd'],
          failures: 0,
        });
      }

      const step = stepOf(state.steps[0]);
      if (!step || body.step !== step.id) return answer(state);
      const account = await directory.findById(state.accountId);
      if (!account?.canSignIn) {
        await pending.destroy(interaction.uid);
        return answer(undefined, invalidCredentials, 401);
      }
      const outcome = await step.process(stepContext(request, interaction), state, account, body);
      if ('done' in outcome) {
        const steps = state.steps.slice(1);
        return advance(request, reply, interaction, { ...state, steps, failures: 0 });
      }
      const { error, status } = outcome;
      if (outcome.restarts) await pending.destroy(interaction.uid);
      if (outcome.counts)
        return failed(error, status, outcome.restarts ? undefined : state, account);
      return answer(state, error, status);
    });

    // The options a passkey form's script asks for (assets.ts, PASSKEY_JS): for this sign-in
    // only, and for the step it is at (a second factor once the password is right).
    scope.post(
      `${realmPath}/login-actions/:uid/passkey-options`,
      async (request: Request, reply) => {
        noStore(reply);
        const interaction = passkeys && (await load(request, reply));
        if (!passkeys || !interaction) return reply.status(400).send({ error: 'expired' });
        if ((await addressThrottle.waitFor(request.ip)) > 0)
          return reply.status(429).send({ error: 'too many attempts' });
        const purpose = request.body?.purpose;
        const binding = { interaction: interaction.uid };
        if (purpose === 'passwordless')
          return passkeys.authenticationOptions('passwordless', binding);
        const state = await pendingOf(interaction.uid);
        const account = state && (await directory.findById(state.accountId));
        if (purpose === 'second-factor' && account && state.steps[0] === 'passkey')
          return passkeys.authenticationOptions('second-factor', {
            ...binding,
            accountId: account.id,
          });
        if (purpose === 'register' && account && state.steps[0] === 'enrol')
          return passkeys.registrationOptions(account, binding);
        return reply.status(400).send({ error: 'no passkey is asked for at this step' });
      },
    );

    if (codes && resetChannels.length > 0) {
      registerPasswordReset(scope, {
        realmPath,
        codes,
        channels: resetChannels,
        directory,
        credentials,
        store: resets,
        limits: adapter('PasswordResetLimit'),
        pending,
        load,
        expired,
        pageOf: pageFor,
      });
    }
  });
}
