import {
  errorAlert,
  escapeHtml,
  invalid,
  layout,
  newPasswordForm,
  passwordProblems,
  stepForm,
  t,
  usernameField,
  type NewPassword,
  type PageContext,
  type PageError,
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
    error?: PageError;
    signInUrl: string;
  },
): string {
  const chosen = options.channel ?? options.channels[0] ?? 'mobile';
  const choice = (c: ResetChannel) =>
    `<div class="choice"><input type="radio" id="channel-${c}" name="channel" value="${c}"${c === chosen ? ' checked' : ''}><label for="channel-${c}">${t(page, `reset.${c}`)}</label></div>`;
  const channels =
    options.channels.length > 1
      ? `<fieldset><legend>${t(page, 'reset.channel')}</legend>${options.channels.map(choice).join('')}</fieldset>`
      : `<input type="hidden" name="channel" value="${chosen}"><p>${t(page, chosen === 'mobile' ? 'reset.onlyMobile' : 'reset.onlyEmail')}</p>`;
  return layout(
    page,
    'reset.title',
    `${errorAlert(page, options.error)}
<p>${t(page, 'reset.intro')}</p>
${stepForm(
  page,
  action,
  'request',
  `${usernameField(page, options.login ?? '', ` autofocus${invalid(!!options.error)}`)}
${channels}
<button type="submit">${t(page, 'reset.send')}</button>`,
)}
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
    error?: PageError;
    signInUrl: string;
  },
): string {
  const { login, minutes } = options;
  const sent = options.channel === 'mobile' ? 'reset.sentMobile' : 'reset.sentEmail';
  return layout(
    page,
    'reset.codeTitle',
    `${errorAlert(page, options.error)}
<p>${t(page, sent, { login, minutes })}</p>
${stepForm(
  page,
  action,
  'code',
  `<label for="code">${t(page, 'reset.code')}</label>
<input type="text" id="code" name="code" inputmode="numeric" pattern="[0-9 ]*" maxlength="7" autocomplete="one-time-code" required autofocus${invalid(!!options.error)}>
<button type="submit">${t(page, 'reset.verify')}</button>`,
)}
${stepForm(page, action, 'restart', `<button type="submit" class="secondary">${t(page, 'reset.again')}</button>`)}
${backLink(page, options.signInUrl)}`,
  );
}

/** Step 3: the new password, under the account's policy shown beforehand. */
export const resetPasswordPage = (
  page: PageContext,
  action: string,
  options: NewPassword & { signInUrl: string },
) =>
  layout(
    page,
    'reset.passwordTitle',
    `${passwordProblems(page, options)}
<p>${t(page, 'reset.passwordIntro')}</p>
${newPasswordForm(page, action, options, 'reset.submit')}
${backLink(page, options.signInUrl)}`,
  );
