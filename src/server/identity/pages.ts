import { createHash } from 'node:crypto';
import { LANGUAGES, translate, type Language, type TextTree } from '../../core/i18n/translate';
import { policyRules, type PasswordRules } from '../../core/identity/password-policy';
import type { FieldProblem } from '../http/api-error';
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

/** The frame every identity page shares: the portal's bar, a card titled by `titleKey`, a footer. */
export function layout(page: PageContext, titleKey: string, body: string): string {
  const title = t(page, titleKey);
  const realmPath = escapeHtml(page.realmPath);
  return `<!DOCTYPE html>
<html lang="${page.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title} - ${t(page, 'appName')}</title>
<link rel="stylesheet" href="${realmPath}/assets/signin.css">
<script src="${realmPath}/assets/theme.js"></script>
</head>
<body>
<header class="bar">${
    page.portalUrl
      ? `<a class="brand" href="${escapeHtml(page.portalUrl)}">${t(page, 'appName')}</a>`
      : `<span class="brand">${t(page, 'appName')}</span>`
  }${languageLinks(page)}</header>
<main><div class="card">
<h1>${title}</h1>
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
  const open = `<div class="alert ${kind}"${kind === 'error' ? ' id="error-summary" role="alert"' : ' role="status"'}>`;
  if (messages.length === 1 && !intro) return `${open}${messages[0]}</div>`;
  return `${open}${intro ? `<p>${intro}</p>` : ''}${list(messages, 'problems')}</div>`;
}

const list = (items: string[], className?: string) =>
  `<ul${className ? ` class="${className}"` : ''}>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;

/** The error summary of one text, or nothing without a key. */
export const errorAlert = (page: PageContext, error?: PageError) =>
  alert('error', error?.key ? [t(page, error.key, error.params)] : []);

/** A form posting one step (the hidden `step`) in the page's language; `body` ends with its button. */
export const stepForm = (
  page: PageContext,
  action: string,
  step: string,
  body: string,
  attributes = '',
) =>
  `<form method="post" action="${escapeHtml(action)}"${attributes}>
<input type="hidden" name="lang" value="${page.language}">
<input type="hidden" name="step" value="${step}">
${body}
</form>`;

/** Attributes of a field the error summary speaks of. */
export const invalid = (on: boolean) =>
  on ? ' aria-invalid="true" aria-describedby="error-summary"' : '';

/** The username field of the sign-in and reset pages. */
export const usernameField = (page: PageContext, value: string, rest: string) =>
  `<label for="username">${t(page, 'signIn.username')}</label>
<input type="text" id="username" name="username" value="${escapeHtml(value)}" autocomplete="username" autocapitalize="none" spellcheck="false" required${rest}>`;

/** The lines of the rules a password broke (the field problems of setPassword's refusal). */
const problemLines = (
  page: PageContext,
  fields: { rule: string; params?: Record<string, unknown> }[],
) =>
  fields.map(({ rule, params }) =>
    rule === 'usernameInPassword'
      ? t(page, 'policy.usernameInPassword')
      : plural(page, `policy.${rule}`, Number(params?.limit ?? 0)),
  );

/** `key.one` or `key.other`: French counts 0 and 1 as singular, English only 1. */
function plural(page: PageContext, key: string, count: number): string {
  const one = page.language === 'fr' ? count <= 1 : count === 1;
  return t(page, `${key}.${one ? 'one' : 'other'}`, { count });
}

export interface LoginLinks {
  /** The forgotten-password page of this sign-in (absent: no reset offered). */
  forgot?: string;
  /** The portal's registration page (absent: self-registration is off). */
  register?: string;
  portal: string;
}

export function loginPage(
  page: PageContext,
  action: string,
  options: {
    username?: string;
    error?: PageError;
    notice?: string;
    links?: LoginLinks;
    /** Offers "Sign in with a passkey" (shown by the script where the browser can). */
    passkey?: boolean;
  } = {},
): string {
  const { username, links } = options;
  const link = (href: string, id: string, key: string) =>
    `<a href="${escapeHtml(href)}" id="${id}">${t(page, key)}</a>`;
  const linkItems = links && [
    links.register ? `<li>${link(links.register, 'register', 'signIn.register')}</li>` : '',
    `<li>${link(links.portal, 'portal-home', 'signIn.backToPortal')}</li>`,
  ];
  return layout(
    page,
    'signIn.title',
    `${alert('success', options.notice ? [t(page, options.notice)] : [])}${errorAlert(page, options.error)}
${stepForm(
  page,
  action,
  'login',
  `${usernameField(page, username ?? '', `${username ? '' : ' autofocus'}${invalid(!!options.error)}`)}
<label for="password">${t(page, 'signIn.password')}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${username ? ' autofocus' : ''}${invalid(!!options.error)}>
${links?.forgot ? `<p class="aside">${link(links.forgot, 'forgot-password', 'signIn.forgot')}</p>` : ''}
<button type="submit">${t(page, 'signIn.submit')}</button>`,
  ' autocomplete="on"',
)}${options.passkey ? passwordlessForm(page, action) : ''}
${linkItems ? `<ul class="links">${linkItems.join('')}</ul>` : ''}`,
  );
}

/** What a page says went wrong: a text's key, or the rules a refused password broke. */
export interface PageError {
  key?: string;
  params?: Record<string, unknown>;
  /** The field problems of setPassword's refusal. */
  problems?: FieldProblem[];
}

/** A new-password page: the account's login, its policy, and what was wrong with the last try. */
export interface NewPassword {
  login?: string;
  policy?: PasswordRules;
  error?: PageError;
  /** The rules also say the new password must differ from the current one. */
  differentFromCurrent?: boolean;
}

/** What a refused new password is told: the rules it broke, or one text. */
const passwordErrorLines = (page: PageContext, error?: PageError) =>
  error?.problems ? problemLines(page, error.problems) : error?.key ? [t(page, error.key)] : [];

/**
 * The policy's rules (shown before the form, so nobody learns them from a refusal), then a new
 * password and its confirmation, described by the rules.
 */
export function newPasswordForm(
  page: PageContext,
  action: string,
  options: NewPassword,
  submitKey: string,
): string {
  const rules = [
    ...problemLines(
      page,
      policyRules(options.policy).map(([rule, limit]) => ({ rule, params: { limit } })),
    ),
    ...(options.differentFromCurrent ? [t(page, 'policy.different')] : []),
  ];
  const broken = passwordErrorLines(page, options.error).length > 0;
  const state = broken ? ' aria-invalid="true"' : '';
  // The account's username, hidden: password managers file the new password under it.
  return `${rules.length ? `<div class="rules" id="password-rules"><p>${t(page, 'changePassword.rulesIntro')}</p>${list(rules)}</div>` : ''}
${stepForm(
  page,
  action,
  'password',
  `<input type="text" name="username" value="${escapeHtml(options.login ?? '')}" autocomplete="username" readonly hidden>
<label for="password-new">${t(page, 'changePassword.newPassword')}</label>
<input type="password" id="password-new" name="passwordNew" autocomplete="new-password" required autofocus aria-describedby="${broken ? 'error-summary ' : ''}password-rules"${state}>
<label for="password-confirm">${t(page, 'changePassword.confirmPassword')}</label>
<input type="password" id="password-confirm" name="passwordConfirm" autocomplete="new-password" required${state}>
<button type="submit">${t(page, submitKey)}</button>`,
)}`;
}

/** The error summary of a refused new password: its problems, under an intro when rules broke. */
export const passwordProblems = (page: PageContext, { error }: NewPassword) =>
  alert(
    'error',
    passwordErrorLines(page, error),
    error?.problems ? t(page, 'changePassword.rulesBroken') : undefined,
  );

export const changePasswordPage = (
  page: PageContext,
  action: string,
  options: NewPassword & { reason: 'required' | 'expired' },
) =>
  layout(
    page,
    'changePassword.title',
    `${alert('info', [t(page, `changePassword.${options.reason}`)])}${passwordProblems(page, options)}
${newPasswordForm(page, action, options, 'changePassword.submit')}`,
  );

/** A page asking for a code of the authenticator app (`before` the form: what to do). */
function codePage(
  page: PageContext,
  action: string,
  kind: { title: string; step: string; submit: string },
  error: boolean | string,
  before: string,
  after = '',
): string {
  const errorKey = typeof error === 'string' ? error : 'totp.invalid';
  return layout(
    page,
    kind.title,
    `${errorAlert(page, error ? { key: errorKey } : undefined)}
${before}
${stepForm(
  page,
  action,
  kind.step,
  `<label for="otp">${t(page, 'totp.code')}</label>
<input type="text" id="otp" name="otp" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" required autofocus${invalid(!!error)}>
<button type="submit">${t(page, kind.submit)}</button>`,
)}${after}`,
  );
}

/** What a second-factor page was refused with: its text's key (`totp.invalid` by default). */
const refusal = (options: { error?: boolean; errorKey?: string }) =>
  options.error ? (options.errorKey ?? true) : false;

export const totpPage = (
  page: PageContext,
  action: string,
  options: { error?: boolean; errorKey?: string; recovery?: boolean },
) =>
  codePage(
    page,
    action,
    { title: 'totp.title', step: 'totp', submit: 'totp.submit' },
    refusal(options),
    `<p>${t(page, 'totp.intro')}</p>`,
    options.recovery
      ? recoveryCodeForm(page, action, 'totp', options.errorKey === 'recovery.invalid')
      : '',
  );

export function totpEnrolPage(
  page: PageContext,
  action: string,
  options: {
    secret: string;
    uri: string;
    login: string;
    qrSvg?: string;
    error?: boolean;
    errorKey?: string;
    /** A passkey may be registered instead of the app (the administrator's demand either way). */
    passkey?: boolean;
  },
): string {
  const qr = options.qrSvg
    ? `<p><strong>${t(page, 'totp.qr')}</strong></p>
<img class="qr" id="totp-qr" width="180" height="180" src="data:image/svg+xml;base64,${Buffer.from(options.qrSvg).toString('base64')}" alt="${t(page, 'totp.qrAlt', { login: options.login })}">`
    : '';
  return codePage(
    page,
    action,
    { title: 'totp.enrolTitle', step: 'enrol', submit: 'totp.enrolSubmit' },
    refusal(options),
    `<p>${t(page, 'totp.enrolIntro')}</p>
${qr}
<p><strong>${t(page, 'totp.secret')}</strong></p>
<code class="secret" id="totp-secret">${escapeHtml(options.secret)}</code>
<details><summary>${t(page, 'totp.uri')}</summary>
<code class="uri" id="totp-uri">${escapeHtml(options.uri)}</code>
</details>
<p>${t(page, 'totp.steps')}</p>`,
    options.passkey ? passkeyEnrolForm(page, action) : '',
  );
}

/** oidc-provider's logout question: its form (with the xsrf token) plus our buttons. */
export const logoutPage = (page: PageContext, form: string) =>
  layout(
    page,
    'logout.title',
    `<p>${t(page, 'logout.question')}</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t(page, 'logout.confirm')}</button>
<button type="submit" form="op.logoutForm" class="secondary">${t(page, 'logout.cancel')}</button>`,
  );

const backToPortal = (page: PageContext, portalUrl: string) =>
  `<p><a href="${escapeHtml(portalUrl)}">${t(page, 'logout.backToPortal')}</a></p>`;

export const loggedOutPage = (page: PageContext, portalUrl: string) =>
  layout(page, 'logout.title', `<p>${t(page, 'logout.done')}</p>${backToPortal(page, portalUrl)}`);

export const errorPage = (
  page: PageContext,
  portalUrl: string,
  key: 'generic' | 'expired' = 'generic',
) =>
  layout(
    page,
    'error.title',
    `${errorAlert(page, { key: `error.${key}` })}${backToPortal(page, portalUrl)}`,
  );

/** A page of keycloak-js's hidden frames, and the Content-Security-Policy it is sent with. */
export type FramePage = ReturnType<typeof framePage>;

/**
 * An empty page running one inline script (keycloak-js's hidden frames), allowed by its hash
 * alone: a script fetched separately added a round trip to each frame of single sign-on's chain.
 * `attributes` go on the root element for the script to read.
 */
export function framePage(title: string, script: string, attributes: Record<string, string> = {}) {
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
    contentSecurityPolicy: `default-src 'none'; script-src 'sha256-${hash}'; connect-src 'self'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'`,
  };
}

/** The browser's WebAuthn library and the pages' own script, same-origin files (assets.ts). */
const passkeyScripts = (page: PageContext) => {
  const realmPath = escapeHtml(page.realmPath);
  return `<script src="${realmPath}/assets/webauthn.js"></script>
<script src="${realmPath}/assets/passkey.js"></script>`;
};

/**
 * A form the page's script (assets.ts, PASSKEY_JS) drives: its button asks the server for
 * options (`data-options`), the browser for the passkey, then posts the answer in `credential`.
 * Hidden until the script finds WebAuthn in the browser; `fallback` is said otherwise.
 */
function passkeyForm(
  page: PageContext,
  action: string,
  options: {
    purpose: 'passwordless' | 'second-factor' | 'register';
    step: string;
    id: string;
    buttonKey: string;
    primary?: boolean;
    before?: string;
  },
): string {
  const attributes = ` id="${options.id}" data-passkey="${options.purpose}" data-options="${escapeHtml(`${action}/passkey-options`)}" data-waiting="${t(page, 'passkey.waiting')}" data-failed="${t(page, 'passkey.failed')}" hidden`;
  return stepForm(
    page,
    action,
    options.step,
    `<input type="hidden" name="method" value="passkey">
<input type="hidden" name="credential" value="">
${options.before ?? ''}<button type="button"${options.primary ? '' : ' class="secondary"'} data-passkey-start>${t(page, options.buttonKey)}</button>
<p class="aside passkey-status" data-passkey-status role="status" aria-live="polite"></p>`,
    attributes,
  );
}

/** "Sign in with a passkey" under the password form: no username, the passkey says whose. */
export const passwordlessForm = (page: PageContext, action: string) =>
  `<div class="or" aria-hidden="true" data-passkey-only hidden><span>${t(page, 'passkey.or')}</span></div>
${passkeyForm(page, action, {
  purpose: 'passwordless',
  step: 'passkey-login',
  id: 'passkey-sign-in',
  buttonKey: 'passkey.signIn',
})}
${passkeyScripts(page)}`;

/** A recovery code instead of the second factor, folded away until asked for. */
export const recoveryCodeForm = (page: PageContext, action: string, step: string, open = false) =>
  `<details class="recovery"${open ? ' open' : ''}><summary>${t(page, 'recovery.use')}</summary>
<p>${t(page, 'recovery.intro')}</p>
${stepForm(
  page,
  action,
  step,
  `<input type="hidden" name="method" value="recovery">
<label for="recovery-code">${t(page, 'recovery.code')}</label>
<input type="text" id="recovery-code" name="recoveryCode" autocomplete="off" autocapitalize="none" spellcheck="false" required${invalid(open)}>
<button type="submit" class="secondary">${t(page, 'recovery.submit')}</button>`,
)}
</details>`;

/** On the forced set-up page: a passkey instead of the authenticator app. */
export const passkeyEnrolForm = (page: PageContext, action: string) =>
  `<div class="or" aria-hidden="true" data-passkey-only hidden><span>${t(page, 'passkey.or')}</span></div>
${passkeyForm(page, action, {
  purpose: 'register',
  step: 'enrol',
  id: 'passkey-enrol',
  buttonKey: 'passkey.enrolSubmit',
  before: `<p>${t(page, 'passkey.enrolIntro')}</p>\n`,
})}
${passkeyScripts(page)}`;

/**
 * The second factor of an account with passkeys: the passkey first, the authenticator app's
 * code when the account has one, a recovery code when some are left.
 */
export function passkeyStepPage(
  page: PageContext,
  action: string,
  options: { error?: PageError; totp: boolean; recovery: boolean },
): string {
  const errorKey = options.error?.key;
  const totp = options.totp
    ? `<div class="or" aria-hidden="true"><span>${t(page, 'passkey.or')}</span></div>
${stepForm(
  page,
  action,
  'passkey',
  `<input type="hidden" name="method" value="totp">
<label for="otp">${t(page, 'passkey.totpInstead')}</label>
<input type="text" id="otp" name="otp" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" required${invalid(errorKey === 'totp.invalid')}>
<button type="submit" class="secondary">${t(page, 'totp.submit')}</button>`,
)}`
    : '';
  return layout(
    page,
    'passkey.title',
    `${errorAlert(page, options.error)}
<p>${t(page, 'passkey.intro')}</p>
<p class="aside" data-passkey-fallback>${t(page, 'passkey.unsupported')}</p>
${passkeyForm(page, action, {
  purpose: 'second-factor',
  step: 'passkey',
  id: 'passkey-second-factor',
  buttonKey: 'passkey.use',
  primary: true,
})}
${totp}
${options.recovery ? recoveryCodeForm(page, action, 'passkey', errorKey === 'recovery.invalid') : ''}
${passkeyScripts(page)}`,
  );
}
