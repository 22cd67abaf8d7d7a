import { createHash, randomBytes } from 'node:crypto';

/** A tiny browser for the identity tests: manual redirects and a cookie jar. */
export class Browser {
  readonly cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set(
        'cookie',
        [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      );
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const gone = attributes.some((a) => {
        const [key = '', v = ''] = a.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (key.toLowerCase() === 'expires') return new Date(v).getTime() < Date.now();
        return false;
      });
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects (GET) until a page answers or the address leaves `stopAt`'s origin path. */
  async follow(
    response: Response,
    base: string,
    stop: (location: string) => boolean,
  ): Promise<{ response: Response; url: string }> {
    let current = response;
    let url = base;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location)
        return { response: current, url };
      url = new URL(location, url).href;
      if (stop(url)) return { response: current, url };
      current = await this.fetch(url);
    }
    throw new Error('too many redirects');
  }
}

export const base64url = (buffer: Buffer) => buffer.toString('base64url');

export function pkce(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(48));
  return { verifier, challenge: base64url(createHash('sha256').update(verifier).digest()) };
}

export function formAction(html: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no form on the page');
  return match[1].replaceAll('&amp;', '&');
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  token_type: string;
  scope?: string;
}

/** The code flow driven step by step, as keycloak-js and the sign-in pages would. */
export class CodeFlow {
  readonly browser = new Browser();
  readonly pkce = pkce();
  readonly state = base64url(randomBytes(12));
  readonly nonce = base64url(randomBytes(12));
  page = '';
  pageUrl = '';
  status = 0;

  constructor(
    readonly publicUrl: string,
    readonly realm = 'portal',
    readonly clientId = 'portal',
    readonly redirectUri = `${publicUrl}/`,
  ) {}

  get realmUrl(): string {
    return `${this.publicUrl}/realms/${this.realm}`;
  }

  authorizeUrl(extra: Record<string, string> = {}): string {
    const params = new URLSearchParams({
      client_id: this.clientId,
      redirect_uri: this.redirectUri,
      state: this.state,
      response_mode: 'fragment',
      response_type: 'code',
      scope: 'openid',
      nonce: this.nonce,
      code_challenge: this.pkce.challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return `${this.realmUrl}/protocol/openid-connect/auth?${params}`;
  }

  /** Opens the authorization endpoint; ends on the sign-in page (or the redirect URI). */
  async start(extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
    const url = this.authorizeUrl(extra);
    const first = await this.browser.fetch(url, { headers });
    return this.land(first, url, headers);
  }

  /** Submits the form of the current page. */
  async submit(fields: Record<string, string>, headers: Record<string, string> = {}) {
    const action = new URL(formAction(this.page), this.pageUrl).href;
    // The first form's hidden fields only (a page may hold a second form, e.g. "send a new code").
    const form = /<form[\s\S]*?<\/form>/.exec(this.page)?.[0] ?? this.page;
    const hidden = [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
    const body = new URLSearchParams(Object.fromEntries(hidden.map((m) => [m[1], m[2]])));
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    const response = await this.browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
    return this.land(response, action, headers);
  }

  /** The code (and state) once the browser reached the redirect URI, else undefined. */
  callback: URLSearchParams | undefined;

  private async land(response: Response, url: string, headers: Record<string, string>) {
    let current = response;
    let at = url;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location');
      if (current.status >= 300 && current.status < 400 && location) {
        at = new URL(location, at).href;
        const parsed = new URL(at);
        if (`${parsed.origin}${parsed.pathname}` === this.redirectUri) {
          this.callback = new URLSearchParams(parsed.hash.slice(1) || parsed.search.slice(1));
          this.status = current.status;
          return this;
        }
        current = await this.browser.fetch(at, { headers });
        continue;
      }
      this.status = current.status;
      this.page = await current.text();
      this.pageUrl = at;
      return this;
    }
    throw new Error('too many redirects');
  }

  async exchange(): Promise<{ status: number; body: TokenSet & { error?: string } }> {
    const code = this.callback?.get('code');
    if (!code) throw new Error(`no code: ${this.callback?.toString() ?? this.page}`);
    const response = await fetch(`${this.realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: this.redirectUri,
        client_id: this.clientId,
        code_verifier: this.pkce.verifier,
      }),
    });
    return { status: response.status, body: (await response.json()) as TokenSet };
  }

  async refresh(
    refreshToken: string,
  ): Promise<{ status: number; body: TokenSet & { error?: string } }> {
    const response = await fetch(`${this.realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: this.clientId,
      }),
    });
    return { status: response.status, body: (await response.json()) as TokenSet };
  }

  /** Signs in with a password (and nothing else) and returns the tokens. */
  async signIn(username: string, password: string): Promise<TokenSet> {
    await this.start();
    await this.submit({ username, password });
    const { status, body } = await this.exchange();
    if (status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
    return body;
  }
}

/**
 * The TOTP code of the next 30 seconds: a sign-in right after the enrolment cannot use the
 * enrolment's code again (each code is good once), and the server accepts the next one.
 */
export async function nextCode(secret: string): Promise<string> {
  const { generate } = await import('otplib');
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
}
