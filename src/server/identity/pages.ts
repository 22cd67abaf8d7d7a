import { createHash } from 'node:crypto';
import { LANGUAGES, translate, type Language, type TextTree } from '../../core/i18n/translate';
import type { PasswordProblem, PasswordRules } from '../../core/identity/password-policy';
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
  /** The portal's home page: the brand in the bar leads there. */
  portalUrl?: string;
}

export const t = (page: PageContext, key: string, params?: Record<string, unknown>) =>
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
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} - ${t(page, 'appName')}</title>
<link rel="stylesheet" href="${escapeHtml(page.realmPath)}/assets/signin.css">
<script src="${escapeHtml(page.realmPath)}/assets/theme.js"></script>
</head>
<body>
<header class="bar">${
    page.portalUrl
      ? `<a class="brand" href="${escapeHtml(page.portalUrl)}">${t(page, 'appName')}</a>`
      : `<span class="brand">${t(page, 'appName')}</span>`
  }${languageLinks(page)}</header>
<main><div class="card">
<h1>${escapeHtml(title)}</h1>
${body}
</div></main>
<footer>${t(page, 'appName')}</footer>
</body>
</html>`;
}

/**
 * A message box. Errors are the page's error summary: announced (role alert), named by the
 * fields they concern (aria-describedby) and listed one per line when there are several.
 */
export function alert(
  kind: 'error' | 'info' | 'success',
  messages: string[],
  intro?: string,
): string {
  if (messages.length === 0) return '';
  const id = kind === 'error' ? ' id="error-summary"' : '';
  const role = kind === 'error' ? 'alert' : 'status';
  if (messages.length === 1 && !intro) {
    return `<div class="alert ${kind}"${id} role="${role}">${messages[0]}</div>`;
  }
  return `<div class="alert ${kind}"${id} role="${role}">${intro ? `<p>${intro}</p>` : ''}<ul class="problems">${messages
    .map((m) => `<li>${m}</li>`)
    .join('')}</ul></div>`;
}

export const hiddenLanguage = (page: PageContext) =>
  `<input type="hidden" name="lang" value="${page.language}">`;

/** Attributes of a field the error summary speaks of. */
export const invalid = (on: boolean) =>
  on ? ' aria-invalid="true" aria-describedby="error-summary"' : '';

/** The rules of a password policy as lines of a list ("have at least 10 characters"). */
export function policyLines(
  page: PageContext,
  policy: PasswordRules | undefined,
  options: { differentFromCurrent?: boolean } = {},
): string[] {
  const lines: string[] = [];
  const counted = [
    'minimumLength',
    'maximumLength',
    'minimumDigits',
    'minimumLowercase',
    'minimumUppercase',
    'minimumSpecial',
  ] as const;
  for (const rule of counted) {
    const count = policy?.[rule];
    if (typeof count === 'number' && count > 0) lines.push(plural(page, `policy.${rule}`, count));
  }
  if (policy?.allowUsernameInPassword === false) lines.push(t(page, 'policy.usernameInPassword'));
  if (options.differentFromCurrent) lines.push(t(page, 'policy.different'));
  return lines;
}

/** The line of one broken rule (as checkPassword names it). */
export function problemLine(
  page: PageContext,
  problem: { rule: PasswordProblem['rule'] | string; params: Record<string, unknown> },
): string {
  if (problem.rule === 'usernameInPassword') return t(page, 'policy.usernameInPassword');
  const count = Number(problem.params.limit ?? 0);
  return plural(page, `policy.${problem.rule}`, count);
}

/** `key.one` or `key.other`: French counts 0 and 1 as singular, English only 1. */
function plural(page: PageContext, key: string, count: number): string {
  const one = page.language === 'fr' ? count <= 1 : count === 1;
  return t(page, `${key}.${one ? 'one' : 'other'}`, { count });
}

/** The rules shown before the form, so nobody learns them from a refusal. */
export function rulesBox(page: PageContext, lines: string[]): string {
  if (lines.length === 0) return '';
  return `<div class="rules" id="password-rules"><p>${t(page, 'changePassword.rulesIntro')}</p><ul>${lines
    .map((l) => `<li>${l}</li>`)
    .join('')}</ul></div>`;
}

export interface LoginLinks {
  /** The forgotten-password page of this sign-in (absent: no reset offered). */
  forgot?: string;
  /** The portal's registration page (absent: self-registration is off). */
  register?: string;
  /** The portal's home page. */
  portal: string;
}

export function loginPage(
  page: PageContext,
  action: string,
  options: {
    username?: string;
    error?: string;
    errorParams?: Record<string, unknown>;
    notice?: string;
    links?: LoginLinks;
  } = {},
): string {
  const error = options.error ? [t(page, options.error, options.errorParams)] : [];
  const links = options.links;
  const hasError = error.length > 0;
  return layout(
    page,
    translate(page.texts, page.language, 'signin.signIn.title'),
    `${alert('success', options.notice ? [t(page, options.notice)] : [])}${alert('error', error)}
<form method="post" action="${escapeHtml(action)}" autocomplete="on">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="login">
<label for="username">${t(page, 'signIn.username')}</label>
<input type="text" id="username" name="username" value="${escapeHtml(options.username ?? '')}" autocomplete="username" autocapitalize="none" spellcheck="false" required${options.username ? '' : ' autofocus'}${invalid(hasError)}>
<label for="password">${t(page, 'signIn.password')}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${options.username ? ' autofocus' : ''}${invalid(hasError)}>
${links?.forgot ? `<p class="aside"><a href="${escapeHtml(links.forgot)}" id="forgot-password">${t(page, 'signIn.forgot')}</a></p>` : ''}
<button type="submit">${t(page, 'signIn.submit')}</button>
</form>
${links ? linksBlock(page, links) : ''}`,
  );
}

function linksBlock(page: PageContext, links: LoginLinks): string {
  const items = [
    links.register
      ? `<li><a href="${escapeHtml(links.register)}" id="register">${t(page, 'signIn.register')}</a></li>`
      : '',
    `<li><a href="${escapeHtml(links.portal)}" id="portal-home">${t(page, 'signIn.backToPortal')}</a></li>`,
  ];
  return `<ul class="links">${items.join('')}</ul>`;
}

export function changePasswordPage(
  page: PageContext,
  action: string,
  options: {
    reason: 'required' | 'expired';
    login?: string;
    rules?: string[];
    problems?: string[];
    rulesBroken?: boolean;
  },
): string {
  const problems = options.problems ?? [];
  const broken = problems.length > 0;
  const intro = options.rulesBroken ? t(page, 'changePassword.rulesBroken') : undefined;
  return layout(
    page,
    translate(page.texts, page.language, 'signin.changePassword.title'),
    `${alert('info', [t(page, `changePassword.${options.reason}`)])}${alert('error', problems, intro)}
${rulesBox(page, options.rules ?? [])}
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="password">
${newPasswordFields(page, broken, options.login)}
<button type="submit">${t(page, 'changePassword.submit')}</button>
</form>`,
  );
}

/** New password and its confirmation, described by the rules shown above them. */
export function newPasswordFields(page: PageContext, broken: boolean, login = ''): string {
  const described = broken ? 'error-summary password-rules' : 'password-rules';
  const state = broken ? ' aria-invalid="true"' : '';
  // The account's username, hidden: password managers file the new password under it.
  return `<input type="text" name="username" value="${escapeHtml(login)}" autocomplete="username" readonly hidden>
<label for="password-new">${t(page, 'changePassword.newPassword')}</label>
<input type="password" id="password-new" name="passwordNew" autocomplete="new-password" required autofocus aria-describedby="${described}"${state}>
<label for="password-confirm">${t(page, 'changePassword.confirmPassword')}</label>
<input type="password" id="password-confirm" name="passwordConfirm" autocomplete="new-password" required${state}>`;
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
<input type="text" id="otp" name="otp" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" required autofocus${invalid(!!options.error)}>
<button type="submit">${t(page, 'totp.submit')}</button>
</form>`,
  );
}

export function totpEnrolPage(
  page: PageContext,
  action: string,
  options: { secret: string; uri: string; login: string; qrSvg?: string; error?: boolean },
): string {
  const qr = options.qrSvg
    ? `<p><strong>${t(page, 'totp.qr')}</strong></p>
<img class="qr" id="totp-qr" width="180" height="180" src="data:image/svg+xml;base64,${Buffer.from(options.qrSvg).toString('base64')}" alt="${t(page, 'totp.qrAlt', { login: options.login })}">`
    : '';
  return layout(
    page,
    translate(page.texts, page.language, 'signin.totp.enrolTitle'),
    `${alert('error', options.error ? [t(page, 'totp.invalid')] : [])}
<p>${t(page, 'totp.enrolIntro')}</p>
${qr}
<p><strong>${t(page, 'totp.secret')}</strong></p>
<code class="secret" id="totp-secret">${escapeHtml(options.secret)}</code>
<details><summary>${t(page, 'totp.uri')}</summary>
<code class="uri" id="totp-uri">${escapeHtml(options.uri)}</code>
</details>
<p>${t(page, 'totp.steps')}</p>
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="enrol">
<label for="otp">${t(page, 'totp.code')}</label>
<input type="text" id="otp" name="otp" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" required autofocus${invalid(!!options.error)}>
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

/** A page of keycloak-js's hidden frames, and the Content-Security-Policy it is sent with. */
export interface FramePage {
  html: string;
  contentSecurityPolicy: string;
}

/**
 * An empty page that runs one script of its own (keycloak-js's hidden frames), with `attributes`
 * on its root element for the script to read. The script is
 * written into the page, and the page's policy allows that one script by its hash and nothing
 * else: keycloak-js opens these frames one after the other while single sign-on starts, and a
 * script fetched separately added a round trip to each (three of the chain's dozen on a slow
 * network, before a signed-in page could show).
 */
export function framePage(
  title: string,
  script: string,
  attributes: Record<string, string> = {},
): FramePage {
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  const data = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return {
    html: `<!DOCTYPE html>
<html${data}><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<script>${script}</script>
</head><body></body></html>`,
    contentSecurityPolicy: [
      "default-src 'none'",
      `script-src 'sha256-${hash}'`,
      "connect-src 'self'",
      'img-src data:',
      "frame-ancestors 'self'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
  };
}
