import { LANGUAGES, translate, type Language, type TextTree } from '../../core/i18n/translate';
import { escapeHtml } from '../http/html';

/** Texts the server loaded (translations/), the sign-in pages read namespace "signin". */
export type Texts = Partial<Record<Language, TextTree>>;

export { escapeHtml };

export interface PageContext {
  texts: Texts;
  language: Language;
  /** Base path of the realm, e.g. /realms/portal (for the style sheet). */
  realmPath: string;
  /** Address of this page without its `lang` parameter, for the language links. */
  selfUrl?: string;
}

const t = (page: PageContext, key: string, params?: Record<string, unknown>) =>
  escapeHtml(translate(page.texts, page.language, `signin.${key}`, params));

function languageLinks(page: PageContext): string {
  if (!page.selfUrl) return '';
  const links = LANGUAGES.map((language) => {
    const url = new URL(page.selfUrl as string, 'http://x');
    url.searchParams.set('lang', language);
    const current = language === page.language ? ' aria-current="true"' : '';
    return `<a href="${escapeHtml(url.pathname + url.search)}" lang="${language}"${current}>${language.toUpperCase()}</a>`;
  });
  return `<nav aria-label="${t(page, 'language')}">${links.join('')}</nav>`;
}

/** The frame every identity page shares: the portal's bar, a card, a footer. */
export function layout(page: PageContext, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${page.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} - ${t(page, 'appName')}</title>
<link rel="stylesheet" href="${escapeHtml(page.realmPath)}/assets/signin.css">
</head>
<body>
<header class="bar"><span class="brand">${t(page, 'appName')}</span>${languageLinks(page)}</header>
<main><div class="card">
<h1>${escapeHtml(title)}</h1>
${body}
</div></main>
<footer>${t(page, 'appName')}</footer>
</body>
</html>`;
}

function alert(kind: 'error' | 'info', messages: string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return `<div class="alert ${kind}" role="alert">${messages[0]}</div>`;
  return `<div class="alert ${kind}" role="alert"><ul class="problems">${messages
    .map((m) => `<li>${m}</li>`)
    .join('')}</ul></div>`;
}

const hiddenLanguage = (page: PageContext) =>
  `<input type="hidden" name="lang" value="${page.language}">`;

export function loginPage(
  page: PageContext,
  action: string,
  options: { username?: string; error?: string; errorParams?: Record<string, unknown> } = {},
): string {
  const error = options.error ? [t(page, options.error, options.errorParams)] : [];
  return layout(
    page,
    translate(page.texts, page.language, 'signin.signIn.title'),
    `${alert('error', error)}
<form method="post" action="${escapeHtml(action)}" autocomplete="on">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="login">
<label for="username">${t(page, 'signIn.username')}</label>
<input type="text" id="username" name="username" value="${escapeHtml(options.username ?? '')}" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus>
<label for="password">${t(page, 'signIn.password')}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">${t(page, 'signIn.submit')}</button>
</form>`,
  );
}

export function changePasswordPage(
  page: PageContext,
  action: string,
  options: { reason: 'required' | 'expired'; problems?: string[] },
): string {
  const problems = (options.problems ?? []).map(escapeHtml);
  return layout(
    page,
    translate(page.texts, page.language, 'signin.changePassword.title'),
    `${alert('info', [t(page, `changePassword.${options.reason}`)])}${alert('error', problems)}
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="password">
<label for="password-new">${t(page, 'changePassword.newPassword')}</label>
<input type="password" id="password-new" name="passwordNew" autocomplete="new-password" required autofocus>
<label for="password-confirm">${t(page, 'changePassword.confirmPassword')}</label>
<input type="password" id="password-confirm" name="passwordConfirm" autocomplete="new-password" required>
<button type="submit">${t(page, 'changePassword.submit')}</button>
</form>`,
  );
}

export function totpPage(page: PageContext, action: string, options: { error?: boolean }): string {
  return layout(
    page,
    translate(page.texts, page.language, 'signin.totp.title'),
    `${alert('error', options.error ? [t(page, 'totp.invalid')] : [])}
<p>${t(page, 'totp.intro')}</p>
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="totp">
<label for="otp">${t(page, 'totp.code')}</label>
<input type="text" id="otp" name="otp" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" required autofocus>
<button type="submit">${t(page, 'totp.submit')}</button>
</form>`,
  );
}

export function totpEnrolPage(
  page: PageContext,
  action: string,
  options: { secret: string; uri: string; error?: boolean },
): string {
  return layout(
    page,
    translate(page.texts, page.language, 'signin.totp.enrolTitle'),
    `${alert('error', options.error ? [t(page, 'totp.invalid')] : [])}
<p>${t(page, 'totp.enrolIntro')}</p>
<p><strong>${t(page, 'totp.secret')}</strong></p>
<code class="secret" id="totp-secret">${escapeHtml(options.secret)}</code>
<p><strong>${t(page, 'totp.uri')}</strong></p>
<code class="uri" id="totp-uri">${escapeHtml(options.uri)}</code>
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="enrol">
<label for="otp">${t(page, 'totp.code')}</label>
<input type="text" id="otp" name="otp" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" required autofocus>
<button type="submit">${t(page, 'totp.enrolSubmit')}</button>
</form>`,
  );
}

/** oidc-provider's logout question: its form (with the xsrf token) plus our buttons. */
export function logoutPage(page: PageContext, form: string): string {
  return layout(
    page,
    translate(page.texts, page.language, 'signin.logout.title'),
    `<p>${t(page, 'logout.question')}</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t(page, 'logout.confirm')}</button>
<button type="submit" form="op.logoutForm" class="secondary">${t(page, 'logout.cancel')}</button>`,
  );
}

export function loggedOutPage(page: PageContext, portalUrl: string): string {
  return layout(
    page,
    translate(page.texts, page.language, 'signin.logout.title'),
    `<p>${t(page, 'logout.done')}</p><p><a href="${escapeHtml(portalUrl)}">${t(page, 'logout.backToPortal')}</a></p>`,
  );
}

export function errorPage(
  page: PageContext,
  portalUrl: string,
  key: 'generic' | 'expired' = 'generic',
): string {
  return layout(
    page,
    translate(page.texts, page.language, 'signin.error.title'),
    `${alert('error', [t(page, `error.${key}`)])}<p><a href="${escapeHtml(portalUrl)}">${t(page, 'logout.backToPortal')}</a></p>`,
  );
}

/** An empty page that only loads one external script (keycloak-js's iframes). */
export function scriptPage(title: string, scriptUrl: string): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<script src="${escapeHtml(scriptUrl)}"></script>
</head><body></body></html>`;
}
