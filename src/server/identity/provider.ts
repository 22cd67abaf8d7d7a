import type { JWK } from 'jose';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { pickLanguage } from '../../core/i18n/translate';
import type { ServerConfig } from '../config';
import type { AccountDirectory, IdentityAccount } from './directory';
import { kyselyAdapter } from './adapter';
import type { RevokedSessions } from './revoked-sessions';
import { compareSecret, type ServiceCredentials } from './service-clients';
import { errorPage, loggedOutPage, logoutPage, type PageContext, type Texts } from './pages';
import type { IdentityKysely } from './tables';

/** Where oidc-provider's endpoints live below the realm, as Keycloak names them. */
export const PROTOCOL_PATH = '/protocol/openid-connect';

/** The realm's addresses, its portal client and its tokens' audience, from the configuration. */
export function realmOf(config: Pick<ServerConfig, 'publicUrl' | 'identity' | 'auth'>) {
  const { realm, clientId } = config.identity;
  const publicUrl = config.publicUrl.replace(/\/$/, '');
  const realmPath = `/realms/${encodeURIComponent(realm)}`;
  const issuer = `${publicUrl}${realmPath}`;
  return { publicUrl, realm, realmPath, issuer, clientId, audience: config.auth.audience };
}

export type Realm = ReturnType<typeof realmOf>;

export interface ProviderSettings extends Realm {
  db: IdentityKysely;
  directory: AccountDirectory;
  texts: Texts;
  cookieKeys: string[];
  /** The private signing keys (keys.ts), the current one first. */
  keys: JWK[];
  /** Service accounts' API credentials: the clients of the client-credentials grant. */
  serviceClients: ServiceCredentials;
  /** Where the sessions ended by signing out are kept, for the API to refuse their tokens. */
  revokedSessions: RevokedSessions;
}

/** Lifetimes in seconds (Keycloak's defaults where it has one). */
export const TTL = {
  AccessToken: 300,
  // A service's token lives as long as a person's, so ending its credentials' session (kept
  // one access token's lifetime) covers every token they were traded for.
  ClientCredentials: 300,
  IdToken: 300,
  AuthorizationCode: 60,
  Interaction: 3600,
  Session: 10 * 3600,
  Grant: 10 * 3600,
  RefreshToken: 30 * 60,
};

/** The claims tokens, ID tokens and userinfo carry for an account. */
export function profileClaims(account: IdentityAccount): Record<string, unknown> {
  const claims: Record<string, unknown> = {
    sub: account.id,
    groups: account.roles,
    name: account.name,
    preferred_username: account.loginIdentifier,
  };
  if (account.locale) claims.locale = account.locale;
  if (account.userType) claims.user_type = account.userType;
  if (account.email) claims.email = account.email;
  if (account.phoneNumber) claims.phone_number = account.phoneNumber;
  return claims;
}

/** Accepts only addresses on the portal's own origin (keycloak-js sends the current page). */
export function sameOriginUri(publicUrl: string, value: string): boolean {
  const url = URL.parse(value);
  return (
    url?.origin === new URL(publicUrl).origin &&
    url.username === '' &&
    url.password === '' &&
    url.hash === ''
  );
}

export async function createProvider(settings: ProviderSettings): Promise<Provider> {
  const { publicUrl, realmPath, issuer } = settings;
  // The resource indicator of the portal API; tokens for it carry audience `settings.audience`.
  const resource = `${publicUrl}/api`;

  // An account read once per request: a token exchange asks for the same account twice (the ID
  // token's claims, then the access token's), each read three queries (the account, its group,
  // its units), about a third of the exchange's time on the embedded database.
  const readsByRequest = new WeakMap<object, Map<string, Promise<IdentityAccount | undefined>>>();
  const account = (ctx: object | undefined, id: string | undefined) => {
    if (!id) return Promise.resolve(undefined);
    const read = () =>
      settings.directory.findById(id).then((found) => (found?.canSignIn ? found : undefined));
    if (typeof ctx !== 'object' || ctx === null) return read();
    let reads = readsByRequest.get(ctx);
    if (!reads) readsByRequest.set(ctx, (reads = new Map()));
    let reading = reads.get(id);
    if (!reading) reads.set(id, (reading = read()));
    return reading;
  };
  /**
   * The page's language: the one picked on the page (`lang`), else the portal's (`ui_locales`),
   * else the browser's. `switchable`: the page offers EN / FR, as the sign-in page does.
   */
  const pageContext = (ctx: KoaContextWithOIDC, switchable = false): PageContext => ({
    texts: settings.texts,
    language: pickLanguage(
      typeof ctx.query.lang === 'string' ? ctx.query.lang : undefined,
      typeof ctx.oidc?.params?.ui_locales === 'string' ? ctx.oidc.params.ui_locales : undefined,
      ctx.get('accept-language'),
    ),
    realmPath,
    portalUrl: `${publicUrl}/`,
    // oidc-provider sees the address below the realm path (plugin.ts forwards it so).
    ...(switchable && ctx.method === 'GET' ? { selfUrl: `${realmPath}${ctx.originalUrl}` } : {}),
  });

  const configuration: Configuration = {
    // Clients other than the portal are service accounts' API credentials, read from their
    // own table; every other model is kept in oidc_payload.
    adapter: (model: string) =>
      model === 'Client'
        ? settings.serviceClients.adapter()
        : kyselyAdapter(settings.db, (sids) => settings.revokedSessions.revoke(sids))(model),
    clients: [
      {
        client_id: settings.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${publicUrl}/`],
        post_logout_redirect_uris: [`${publicUrl}/`],
        id_token_signed_response_alg: 'RS256',
      },
    ],
    jwks: { keys: settings.keys as never },
    cookies: {
      keys: settings.cookieKeys,
      names: { session: 'KC_SESSION', interaction: 'KC_INTERACTION', resume: 'KC_RESUME' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    // Every profile claim travels with the openid scope (keycloak-js asks for nothing more).
    claims: {
      openid: [
        'sub',
        'groups',
        'locale',
        'user_type',
        'name',
        'preferred_username',
        'email',
        'phone_number',
      ],
      sid: null as never,
    },
    conformIdTokenClaims: false,
    scopes: ['openid', 'offline_access'],
    extraParams: ['kc_locale', 'kc_idp_hint', 'kc_action'],
    pkce: { required: () => true },
    responseTypes: ['code'],
    clientDefaults: { id_token_signed_response_alg: 'RS256' },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    routes: {
      authorization: `${PROTOCOL_PATH}/auth`,
      token: `${PROTOCOL_PATH}/token`,
      end_session: `${PROTOCOL_PATH}/logout`,
      jwks: `${PROTOCOL_PATH}/certs`,
      userinfo: `${PROTOCOL_PATH}/oidc-userinfo`,
      revocation: `${PROTOCOL_PATH}/revoke`,
      introspection: `${PROTOCOL_PATH}/token/introspect`,
    },
    ttl: { ...TTL },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      // userinfo is served by the plugin (it accepts the API access token, as Keycloak does).
      userinfo: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(pageContext(ctx, true), form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = loggedOutPage(pageContext(ctx), `${publicUrl}/`);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: 'openid offline_access',
            audience: settings.audience,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    discovery: {
      userinfo_endpoint: `${issuer}${PROTOCOL_PATH}/userinfo`,
      check_session_iframe: `${issuer}${PROTOCOL_PATH}/login-status-iframe.html`,
    },
    interactions: {
      url: (_ctx, interaction) => `${realmPath}/login-actions/${interaction.uid}`,
    },
    findAccount: async (ctx, sub) => {
      const found = await account(ctx, sub);
      return (
        found && { accountId: found.id, claims: () => ({ ...profileClaims(found), sub: found.id }) }
      );
    },
    extraTokenClaims: async (ctx, token) => {
      // A service account's token: its client id is the account, the token's subject.
      const service = token.kind === 'ClientCredentials';
      if (!service && token.kind !== 'AccessToken') return undefined;
      const found = await account(ctx, service ? token.clientId : token.accountId);
      if (!found) return undefined;
      const { sub: _sub, ...claims } = profileClaims(found);
      // A service's credentials' session: revoking them ends this token at once.
      const sid = service ? await settings.serviceClients.sessionOf(found.id) : token.sid;
      return { ...claims, ...(sid ? { sid } : {}) };
    },
    // The portal is our own client: the person never sees a consent page.
    loadExistingGrant: async (ctx) => {
      const { client, session, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      let grant = grantId ? await provider.Grant.find(grantId) : undefined;
      if (grant && grant.accountId !== session.accountId) grant = undefined;
      grant ??= new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      const scopes = [...ctx.oidc.requestParamScopes].filter((s) =>
        ['openid', 'offline_access'].includes(s),
      );
      grant.addOIDCScope(scopes.join(' '));
      grant.addResourceScope(resource, scopes.join(' '));
      await grant.save();
      return grant;
    },
    renderError: async (ctx, _out, error) => {
      ctx.type = 'html';
      const expired = error instanceof Error && /expired|session/i.test(error.message);
      ctx.body = errorPage(pageContext(ctx), `${publicUrl}/`, expired ? 'expired' : 'generic');
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  const allowed = (value: string) => sameOriginUri(publicUrl, value);
  provider.Client.prototype.redirectUriAllowed = allowed;
  provider.Client.prototype.postLogoutRedirectUriAllowed = allowed;
  // A service client's stored secret is an argon2id hash (service-clients.ts).
  const plainCompare = provider.Client.prototype.compareClientSecret;
  provider.Client.prototype.compareClientSecret = function (
    this: InstanceType<typeof provider.Client>,
    presented: string,
  ) {
    return compareSecret(this.clientSecret, presented, (value) => plainCompare.call(this, value));
  };
  // Tokens always name their session (`sid`): keycloak-js's session check compares it.
  provider.Client.prototype.includeSid = () => true;
  return provider;
}
