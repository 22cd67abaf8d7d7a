import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { CodeFlow, formAction } from './identity-client';

/** The sign-in pages' passkey options for the flow's current page, as the page's script asks. */
export async function passkeyOptions<
  T extends PublicKeyCredentialRequestOptionsJSON | PublicKeyCredentialCreationOptionsJSON,
>(flow: CodeFlow, purpose: 'passwordless' | 'second-factor' | 'register'): Promise<T> {
  const action = new URL(formAction(flow.page), flow.pageUrl).href;
  const response = await flow.browser.fetch(`${action}/passkey-options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ purpose }),
  });
  if (!response.ok) throw new Error(`options refused: ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Posts a form of the current page other than its first (the passkey sign-in under the password
 * form), then follows the answer: the next page, or the code at the redirect URI.
 */
export async function postForm(flow: CodeFlow, fields: Record<string, string>): Promise<void> {
  const action = new URL(formAction(flow.page), flow.pageUrl).href;
  const answer = await flow.browser.fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ lang: 'en', ...fields }),
  });
  const atRedirect = (at: string) => {
    const parsed = new URL(at);
    return `${parsed.origin}${parsed.pathname}` === flow.redirectUri;
  };
  const { response, url } = await flow.browser.follow(answer, action, atRedirect);
  if (atRedirect(url)) {
    const parsed = new URL(url);
    flow.callback = new URLSearchParams(parsed.hash.slice(1) || parsed.search.slice(1));
    return;
  }
  flow.status = response.status;
  flow.page = await response.text();
  flow.pageUrl = url;
}

/** The page's error summary, as the person reads it. */
export const errorOf = (html: string) =>
  /<div class="alert error"[^>]*>(.*?)<\/div>/s.exec(html)?.[1]?.replaceAll('&#39;', "'");
