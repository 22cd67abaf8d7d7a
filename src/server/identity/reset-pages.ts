import { translate } from '../../core/i18n/translate';
import {
  alert,
  escapeHtml,
  hiddenLanguage,
  invalid,
  layout,
  newPasswordFields,
  rulesBox,
  t,
  type PageContext,
} from './pages';

/** The channels a reset code may travel by (the confirmation channels that are on). */
export type ResetChannel = 'mobile' | 'email';

/** The "back to sign in" link every reset page ends with. */
const backLink = (page: PageContext, signInUrl: string) =>
  `<ul class="links"><li><a href="${escapeHtml(signInUrl)}" id="back-to-sign-in">${t(page, 'reset.cancel')}</a></li></ul>`;

/** Step 1: the username, and the channel when more than one is on. */
export function resetRequestPage(
  page: PageContext,
  action: string,
  options: {
    login?: string;
    channels: ResetChannel[];
    channel?: ResetChannel;
    error?: string;
    errorParams?: Record<string, unknown>;
    signInUrl: string;
  },
): string {
  const error = options.error ? [t(page, options.error, options.errorParams)] : [];
  const chosen = options.channel ?? options.channels[0] ?? 'mobile';
  const channels =
    options.channels.length > 1
      ? `<fieldset><legend>${t(page, 'reset.channel')}</legend>${options.channels
          .map(
            (c) =>
              `<div class="choice"><input type="radio" id="channel-${c}" name="channel" value="${c}"${c === chosen ? ' checked' : ''}><label for="channel-${c}">${t(page, `reset.${c}`)}</label></div>`,
          )
          .join('')}</fieldset>`
      : `<input type="hidden" name="channel" value="${chosen}"><p>${t(page, chosen === 'mobile' ? 'reset.onlyMobile' : 'reset.onlyEmail')}</p>`;
  return layout(
    page,
    translate(page.texts, page.language, 'signin.reset.title'),
    `${alert('error', error)}
<p>${t(page, 'reset.intro')}</p>
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="request">
<label for="username">${t(page, 'signIn.username')}</label>
<input type="text" id="username" name="username" value="${escapeHtml(options.login ?? '')}" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus${invalid(error.length > 0)}>
${channels}
<button type="submit">${t(page, 'reset.send')}</button>
</form>
${backLink(page, options.signInUrl)}`,
  );
}

/** Step 2: the code; the same words whether or not the username exists. */
export function resetCodePage(
  page: PageContext,
  action: string,
  options: {
    login: string;
    channel: ResetChannel;
    minutes: number;
    error?: string;
    signInUrl: string;
  },
): string {
  const error = options.error ? [t(page, options.error)] : [];
  return layout(
    page,
    translate(page.texts, page.language, 'signin.reset.codeTitle'),
    `${alert('error', error)}
<p>${t(page, options.channel === 'mobile' ? 'reset.sentMobile' : 'reset.sentEmail', {
      login: options.login,
      minutes: options.minutes,
    })}</p>
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="code">
<label for="code">${t(page, 'reset.code')}</label>
<input type="text" id="code" name="code" inputmode="numeric" pattern="[0-9 ]*" maxlength="7" autocomplete="one-time-code" required autofocus${invalid(error.length > 0)}>
<button type="submit">${t(page, 'reset.verify')}</button>
</form>
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="restart">
<button type="submit" class="secondary">${t(page, 'reset.again')}</button>
</form>
${backLink(page, options.signInUrl)}`,
  );
}

/** Step 3: the new password, under the account's policy shown beforehand. */
export function resetPasswordPage(
  page: PageContext,
  action: string,
  options: {
    login: string;
    rules: string[];
    problems?: string[];
    rulesBroken?: boolean;
    signInUrl: string;
  },
): string {
  const problems = options.problems ?? [];
  const intro = options.rulesBroken ? t(page, 'changePassword.rulesBroken') : undefined;
  return layout(
    page,
    translate(page.texts, page.language, 'signin.reset.passwordTitle'),
    `${alert('error', problems, intro)}
<p>${t(page, 'reset.passwordIntro')}</p>
${rulesBox(page, options.rules)}
<form method="post" action="${escapeHtml(action)}">
${hiddenLanguage(page)}
<input type="hidden" name="step" value="password">
${newPasswordFields(page, problems.length > 0, options.login)}
<button type="submit">${t(page, 'reset.submit')}</button>
</form>
${backLink(page, options.signInUrl)}`,
  );
}
