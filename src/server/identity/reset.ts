import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Adapter, Interaction } from 'oidc-provider';
import type { CredentialStore } from './credentials';
import type { AccountDirectory } from './directory';
import { t, type PageContext, type PageError } from './pages';
import { html } from './replies';
import {
  resetCodePage,
  resetPasswordPage,
  resetRequestPage,
  type ResetChannel,
} from './reset-pages';
import type { OneTimeCodes } from './reset-codes';
import { chooseNewPassword } from './sign-in-steps';

/** Where the state of a password reset is kept (oidc_payload, keyed by the interaction). */
export const RESET_MODEL = 'PasswordReset';

/** Codes one username, and one client address, may ask for within the window. */
const RESET_LIMITS = { perLogin: 3, perAddress: 10, windowMinutes: 15 } as const;

interface ResetState {
  step: 'code' | 'password' | 'done';
  /** The username as typed (shown back, and filled in on the sign-in page at the end). */
  login: string;
  channel: ResetChannel;
  /** Null when the username has no account that can receive a code: every code is wrong. */
  accountId: string | null;
  challengeId: string | null;
  attempts: number;
  [key: string]: unknown;
}

/** A request of a sign-in's pages, the interaction's id in the address. */
export type InteractionRequest = FastifyRequest<{
  Params: { uid: string };
  Querystring: { lang?: string };
  Body: Record<string, string | undefined>;
}>;

interface ResetDeps {
  realmPath: string;
  codes: OneTimeCodes;
  channels: ResetChannel[];
  directory: AccountDirectory;
  credentials: CredentialStore;
  /** Reset states (RESET_MODEL), rate-limit counters and the pending sign-in steps. */
  store: Adapter;
  limits: Adapter;
  pending: Adapter;
  load(request: InteractionRequest, reply: FastifyReply): Promise<Interaction | undefined>;
  expired(request: InteractionRequest, reply: FastifyReply): FastifyReply;
  pageOf(request: InteractionRequest, interaction: Interaction, suffix: string): PageContext;
}

/**
 * "Forgot your password?": the username, a 6-digit code by SMS or e-mail, a new password, then
 * back to the same sign-in. Up to the code, every answer and limit (per username, per address)
 * is the same whether or not the username exists; codes expire and are used once.
 */
export function registerPasswordReset(scope: FastifyInstance, deps: ResetDeps): void {
  const { realmPath, codes, channels, directory, store } = deps;
  const path = (uid: string) => `${realmPath}/login-actions/${uid}/reset`;
  const signIn = (uid: string, page: PageContext) =>
    `${realmPath}/login-actions/${uid}?lang=${page.language}`;
  const stateOf = async (uid: string) => (await store.find(uid)) as ResetState | undefined;
  const save = (uid: string, state: ResetState) =>
    store.upsert(uid, state as never, codes.ttlMinutes * 60);
  const limiter = slidingWindow(deps.limits, RESET_LIMITS.windowMinutes * 60);

  const render = async (
    request: InteractionRequest,
    reply: FastifyReply,
    interaction: Interaction,
    state: ResetState | undefined,
    error?: PageError,
    status = 200,
  ) => {
    const page = deps.pageOf(request, interaction, '/reset');
    const action = path(interaction.uid);
    const signInUrl = signIn(interaction.uid, page);
    const { login = '' } = state ?? {};
    if (state?.step === 'code') {
      const { channel } = state;
      const minutes = codes.ttlMinutes;
      const options = { login, channel, minutes, error, signInUrl };
      return html(reply, resetCodePage(page, action, options), status);
    }
    if (state?.step === 'password' && state.accountId) {
      const policy = await directory.policyFor(state.accountId);
      const options = { login, signInUrl, policy, error };
      return html(reply, resetPasswordPage(page, action, options), status);
    }
    const body = request.body ?? {};
    return html(
      reply,
      resetRequestPage(page, action, {
        login: body.username ?? login,
        channels,
        channel: channels.find((c) => c === body.channel),
        error,
        signInUrl,
      }),
      status,
    );
  };

  scope.get(path(':uid'), async (request: InteractionRequest, reply) => {
    const interaction = await deps.load(request, reply);
    if (!interaction) return deps.expired(request, reply);
    const state = await stateOf(interaction.uid);
    return render(request, reply, interaction, state?.step === 'done' ? undefined : state);
  });

  scope.post(path(':uid'), async (request: InteractionRequest, reply) => {
    const interaction = await deps.load(request, reply);
    if (!interaction) return deps.expired(request, reply);
    const uid = interaction.uid;
    const body = request.body ?? {};
    const state = await stateOf(uid);
    const again = () => reply.redirect(`${path(uid)}?lang=${body.lang ?? ''}`, 303);
    const refuse = (shown: ResetState | undefined, error: PageError, status: number) =>
      render(request, reply, interaction, shown, error, status);

    if (body.step === 'restart') {
      await store.destroy(uid);
      return again();
    }

    if (body.step === 'request' || !state || state.step === 'done') {
      const login = (body.username ?? '').trim();
      const channel = channels.find((c) => c === body.channel) ?? channels[0];
      if (!login || !channel) return refuse(undefined, { key: 'reset.missingLogin' }, 400);
      const loginHash = createHash('sha256').update(login.toLowerCase()).digest('hex');
      const allowed =
        (await limiter.hit(`login:${loginHash}`, RESET_LIMITS.perLogin)) &&
        (await limiter.hit(`address:${request.ip}`, RESET_LIMITS.perAddress));
      if (!allowed) {
        const params = { minutes: RESET_LIMITS.windowMinutes };
        return refuse(undefined, { key: 'reset.rateLimited', params }, 429);
      }
      const account = await directory.findByLogin(login);
      const destination = account?.canSignIn
        ? channel === 'mobile'
          ? account.phoneNumber
          : account.email
        : null;
      let challengeId: string | undefined;
      if (account && destination) {
        const page = deps.pageOf(request, interaction, '/reset');
        challengeId = await codes.send({
          channel,
          destination,
          subject: t(page, 'reset.message.subject'),
          text: t(page, 'reset.message.text', { code: '{{code}}', minutes: codes.ttlMinutes }),
        });
      } else {
        await codes.decoy();
      }
      // A sign-in half done (a second factor asked) is abandoned for the reset.
      await deps.pending.destroy(uid);
      await save(uid, {
        step: 'code',
        login,
        channel,
        accountId: challengeId && account ? account.id : null,
        challengeId: challengeId ?? null,
        attempts: 0,
      });
      return again();
    }

    if (state.step === 'code') {
      if (body.step !== 'code') return render(request, reply, interaction, state);
      const code = (body.code ?? '').replace(/\s+/g, '');
      // No code was sent: answer as a real code would, wrong until the tries run out.
      const result = state.challengeId
        ? await codes.verify(state.challengeId, code)
        : await codes
            .decoy()
            .then(() => (state.attempts >= codes.maxAttempts ? 'locked' : 'wrong'));
      if (result === 'wrong') {
        await save(uid, { ...state, attempts: state.attempts + 1 });
        return refuse(state, { key: 'reset.wrongCode' }, 400);
      }
      if (result !== 'ok') {
        await store.destroy(uid);
        const key = result === 'locked' ? 'reset.lockedCode' : 'reset.expiredCode';
        return refuse({ ...state, step: 'done' }, { key }, 400);
      }
      await save(uid, { ...state, step: 'password' });
      return again();
    }

    // step 'password': only reached with a right code for a real account.
    if (body.step !== 'password' || !state.accountId) {
      return render(request, reply, interaction, state);
    }
    const account = await directory.findById(state.accountId);
    if (!account?.canSignIn) {
      await store.destroy(uid);
      return again();
    }
    const error = await chooseNewPassword(deps, account, body);
    if (error) return refuse(state, error, 400);
    await store.upsert(uid, { ...state, step: 'done' } as never, 10 * 60);
    return reply.redirect(signIn(uid, deps.pageOf(request, interaction, '')), 303);
  });
}

/**
 * Counts hits per key over a sliding window, in the database (so every process shares it).
 * A race between two simultaneous hits may let one extra through; the challenge backend's own
 * limit per destination still holds.
 */
function slidingWindow(adapter: Adapter, windowSeconds: number) {
  return {
    async hit(key: string, limit: number): Promise<boolean> {
      const now = Date.now();
      const found = (await adapter.find(key)) as { times?: number[] } | undefined;
      const times = (found?.times ?? []).filter((t) => t > now - windowSeconds * 1000);
      if (times.length >= limit) return false;
      times.push(now);
      await adapter.upsert(key, { times } as never, windowSeconds);
      return true;
    },
  };
}
