/**
 * Prints an access token of the built-in identity server, obtained the way the portal does:
 * the authorization code flow with PKCE (S256), signing in through the real sign-in page.
 *
 *   npm run -s token -- <username> <password>
 *
 * PORTAL_URL (default http://localhost:8080), IDENTITY_REALM (portal), OIDC_CLIENT_ID (portal).
 * A second factor or a forced password change cannot be completed here: the script says so.
 */
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export class TokenError extends Error {
  override name = 'TokenError';
}

class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

const decodeHtml = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

export async function obtainToken(options: {
  portalUrl: string;
  username: string;
  password: string;
  realm?: string;
  clientId?: string;
}): Promise<{
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
}> {
  const portalUrl = options.portalUrl.replace(/\/$/, '');
  const realmUrl = `${portalUrl}/realms/${options.realm ?? 'portal'}`;
  const clientId = options.clientId ?? 'portal';
  const redirectUri = `${portalUrl}/`;
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(12).toString('base64url');
  const jar = new CookieJar();

  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.store(response);
    return response;
  };
  /** Follows redirects until a page answers, or the browser would land on the portal. */
  const land = async (first: Response, from: string) => {
    let response = first;
    let url = from;
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return { url, page: await response.text(), status: response.status };
      }
      url = new URL(location, url).href;
      const target = new URL(url);
      if (`${target.origin}${target.pathname}` === redirectUri) return { url, page: '', status: 0 };
      response = await go(url);
    }
    throw new TokenError('too many redirects');
  };

  const authorize = `${realmUrl}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    response_mode: 'query',
    scope: 'openid',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
  let step = await land(await go(authorize), authorize);
  const action = /<form[^>]*action="([^"]+)"/.exec(step.page)?.[1];
  if (step.status !== 200 || !action) {
    throw new TokenError(`no sign-in page at ${authorize} (status ${step.status})`);
  }
  const formUrl = new URL(decodeHtml(action), step.url).href;
  const posted = await go(formUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      step: 'login',
      username: options.username,
      password: options.password,
    }),
  });
  step = await land(posted, formUrl);
  if (step.status !== 0) {
    const alert = /<div class="alert error"[^>]*>(.*?)<\/div>/s.exec(step.page)?.[1];
    if (alert) throw new TokenError(decodeHtml(alert.replace(/<[^>]+>/g, ' ').trim()));
    if (/name="otp"/.test(step.page))
      throw new TokenError('the account needs a second factor (TOTP); sign in through the portal');
    if (/name="passwordNew"/.test(step.page))
      throw new TokenError(
        'the account must change its password; sign in through the portal first',
      );
    throw new TokenError(`sign-in did not complete (status ${step.status})`);
  }
  const callback = new URL(step.url);
  const params =
    callback.searchParams.size > 0
      ? callback.searchParams
      : new URLSearchParams(callback.hash.slice(1));
  if (params.get('error'))
    throw new TokenError(`${params.get('error')}: ${params.get('error_description') ?? ''}`);
  const code = params.get('code');
  if (!code || params.get('state') !== state)
    throw new TokenError('no authorization code came back');

  const response = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok || typeof body.access_token !== 'string') {
    throw new TokenError(
      `token exchange failed: ${String(body.error ?? response.status)} ${String(body.error_description ?? '')}`,
    );
  }
  return body as { access_token: string; expires_in: number };
}

async function main(): Promise<void> {
  const [username, password] = process.argv.slice(2);
  if (!username || !password) {
    process.stderr.write('Usage: npm run -s token -- <username> <password>\n');
    process.exit(2);
  }
  try {
    const tokens = await obtainToken({
      portalUrl: process.env.PORTAL_URL ?? 'http://localhost:8080',
      realm: process.env.IDENTITY_REALM || undefined,
      clientId: process.env.OIDC_CLIENT_ID || undefined,
      username,
      password,
    });
    process.stdout.write(`${tokens.access_token}\n`);
  } catch (error) {
    const message =
      error instanceof TokenError
        ? error.message
        : `cannot reach the portal: ${(error as Error).message}`;
    process.stderr.write(`Sign-in failed: ${message}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
