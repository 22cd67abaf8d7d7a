// The identity pages' files (their CSP allows no inline script), and the inline scripts of
// keycloak-js's hidden frames (allowed by their hash: pages.ts, `framePage`).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const SIGNIN_CSS = `
:root { color-scheme: light; --primary: #0C548C; --primary-dark: #093f69; --secondary: #DEC570; --text: #1d2733; --muted: #5b6673; --danger: #b3261e; --page: #f3f5f8; --card: #fff; --border: #b8c2cc; --link: #0C548C; --error-bg: #fdecea; --info-bg: #fbf6e3; --info-text: #5a4a12; --success-bg: #e6f4ea; --success-text: #1e5631; --success-line: #2e7d32; --field: #fff; --focus: #0C548C; }
:root[data-theme="dark"] { color-scheme: dark; --text: #e4e6eb; --muted: #b0b6bf; --danger: #ffb4ab; --page: #1a1b1e; --card: #25262b; --border: #6b7280; --link: #9ccaf5; --error-bg: #3b1d1b; --info-bg: #3a3420; --info-text: #f1e3b0; --success-bg: #1d3324; --success-text: #b9e4c3; --success-line: #66bb6a; --field: #1a1b1e; --focus: #DEC570; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) { color-scheme: dark; --text: #e4e6eb; --muted: #b0b6bf; --danger: #ffb4ab; --page: #1a1b1e; --card: #25262b; --border: #6b7280; --link: #9ccaf5; --error-bg: #3b1d1b; --info-bg: #3a3420; --info-text: #f1e3b0; --success-bg: #1d3324; --success-text: #b9e4c3; --success-line: #66bb6a; --field: #1a1b1e; --focus: #DEC570; }
}
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--text); background: var(--page); min-height: 100vh; display: flex; flex-direction: column; }
header.bar { background: var(--primary); color: #fff; border-bottom: 4px solid var(--secondary); padding: 0.9rem 1.25rem; display: flex; align-items: center; justify-content: space-between; gap: 1rem; }
header.bar .brand { font-weight: 600; font-size: 1.1rem; letter-spacing: 0.01em; color: #fff; text-decoration: none; }
header.bar a.brand:hover { text-decoration: underline; }
header.bar nav { white-space: nowrap; }
header.bar nav a { color: #fff; margin-left: 0.75rem; text-decoration: none; font-size: 0.9rem; opacity: 0.85; }
header.bar nav a[aria-current="true"] { opacity: 1; text-decoration: underline; text-decoration-color: var(--secondary); text-underline-offset: 4px; }
main { flex: 1; display: flex; align-items: flex-start; justify-content: center; padding: 3rem 1rem; }
.card { background: var(--card); width: 100%; max-width: 26rem; border-radius: 8px; box-shadow: 0 2px 12px rgba(12, 84, 140, 0.12); padding: 2rem; border-top: 4px solid var(--primary); }
h1 { font-size: 1.35rem; margin: 0 0 1.25rem; color: var(--link); }
p { line-height: 1.5; }
label { display: block; font-weight: 600; font-size: 0.9rem; margin: 1rem 0 0.35rem; }
input[type="text"], input[type="password"] { width: 100%; padding: 0.6rem 0.7rem; font-size: 1rem; color: var(--text); background: var(--field); border: 1px solid var(--border); border-radius: 4px; }
input[aria-invalid="true"] { border-color: var(--danger); border-width: 2px; }
input:focus, a:focus-visible, button:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
header.bar a:focus-visible { outline-color: #fff; }
fieldset { border: none; margin: 1rem 0 0; padding: 0; }
legend { font-weight: 600; font-size: 0.9rem; margin-bottom: 0.35rem; padding: 0; }
.choice { display: flex; align-items: flex-start; gap: 0.5rem; margin: 0.4rem 0; }
.choice input { margin: 0.2rem 0 0; width: 1.1rem; height: 1.1rem; flex: none; }
.choice label { font-weight: 400; margin: 0; }
button { margin-top: 1.5rem; width: 100%; padding: 0.7rem; font-size: 1rem; font-weight: 600; color: #fff; background: var(--primary); border: none; border-radius: 4px; cursor: pointer; }
button:hover { background: var(--primary-dark); }
button.secondary { background: transparent; color: var(--link); border: 1px solid var(--link); margin-top: 0.75rem; }
.alert { padding: 0.75rem 0.9rem; border-radius: 4px; margin-bottom: 1rem; font-size: 0.95rem; }
.alert p { margin: 0; }
.alert.error { background: var(--error-bg); color: var(--danger); border-left: 4px solid var(--danger); }
.alert.info { background: var(--info-bg); color: var(--info-text); border-left: 4px solid var(--secondary); }
.alert.success { background: var(--success-bg); color: var(--success-text); border-left: 4px solid var(--success-line); }
ul.problems { margin: 0.5rem 0 0; padding-left: 1.2rem; }
.rules { font-size: 0.9rem; color: var(--text); border: 1px solid var(--border); border-radius: 4px; padding: 0.6rem 0.9rem; }
.rules p { margin: 0 0 0.3rem; font-weight: 600; }
.rules ul { margin: 0; padding-left: 1.2rem; }
p.aside { margin: 0.6rem 0 0; text-align: right; font-size: 0.9rem; }
ul.links { list-style: none; margin: 1.5rem 0 0; padding: 1rem 0 0; border-top: 1px solid var(--border); font-size: 0.95rem; }
ul.links li { margin: 0.4rem 0; }
img.qr { display: block; margin: 0 auto; background: #fff; padding: 6px; border-radius: 4px; }
details { margin: 0.75rem 0; font-size: 0.9rem; }
summary { cursor: pointer; color: var(--link); }
code.secret { display: block; padding: 0.6rem; background: var(--page); border: 1px dashed var(--link); border-radius: 4px; word-break: break-all; font-size: 1rem; letter-spacing: 0.08em; }
code.uri { display: block; margin-top: 0.4rem; font-size: 0.8rem; word-break: break-all; color: var(--muted); }
footer { text-align: center; color: var(--muted); font-size: 0.8rem; padding: 1rem; }
a { color: var(--link); }
.or { display: flex; align-items: center; gap: 0.75rem; margin: 1.5rem 0 0; color: var(--muted); font-size: 0.9rem; }
.or::before, .or::after { content: ""; flex: 1; border-top: 1px solid var(--border); }
.or[hidden], form[hidden], [data-passkey-fallback][hidden] { display: none; }
p.passkey-status { text-align: left; min-height: 1.2em; }
p.passkey-status:empty { display: none; }
button[disabled] { opacity: 0.6; cursor: progress; }
details.recovery { margin-top: 1.5rem; padding-top: 1rem; border-top: 1px solid var(--border); font-size: 1rem; }
@media (max-width: 480px) { main { padding: 1.25rem 0.75rem; } .card { padding: 1.25rem; } header.bar { padding: 0.75rem 0.9rem; } }
`;

/**
 * keycloak-js's session check: answers "clientId sessionState" with "unchanged", "changed" or
 * "error"; the first check from the sid the frame was served with (data-sid).
 */
export const LOGIN_STATUS_JS = `(function () {
  'use strict';
  var base = window.location.pathname.replace(/\\/[^/]*$/, '/login-status-iframe.html/init');
  var root = document.documentElement;
  var atLoad = { client: root.getAttribute('data-client'), origin: root.getAttribute('data-origin'), sid: root.getAttribute('data-sid') };
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || typeof event.data !== 'string') return;
    var origin = event.origin;
    var parts = event.data.split(' ');
    var clientId = parts[0] || '';
    var sessionState = parts[1] || '';
    var reply = function (answer) { event.source.postMessage(answer, origin); };
    var first = atLoad;
    atLoad = null;
    if (first && first.sid !== null && first.client === clientId && first.origin === origin) {
      reply((first.sid || '') === sessionState ? 'unchanged' : 'changed');
      return;
    }
    var url = base + '?client_id=' + encodeURIComponent(clientId) + '&origin=' + encodeURIComponent(origin);
    fetch(url, { credentials: 'same-origin', cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(function (body) {
        var current = body && typeof body.sid === 'string' ? body.sid : '';
        reply(current === sessionState ? 'unchanged' : 'changed');
      })
      .catch(function () { reply('error'); });
  }, false);
})();
`;

/**
 * The portal's colour scheme on the identity pages: the same origin, so the portal's stored
 * choice (Mantine's localStorage key) is readable; "auto" or nothing follows the system.
 */
const THEME_JS = `(function () {
  'use strict';
  try {
    var scheme = window.localStorage.getItem('mantine-color-scheme-value');
    if (scheme === 'dark' || scheme === 'light') document.documentElement.setAttribute('data-theme', scheme);
  } catch (e) { /* storage blocked: the system's preference applies */ }
})();
`;

/** Third-party cookie check, step 1: set a test cookie, then go to step 2. */
export const COOKIES_STEP1_JS = `(function () {
  'use strict';
  document.cookie = 'KEYCLOAK_3P_COOKIE=supported; path=/; max-age=60; SameSite=None' + (location.protocol === 'https:' ? '; Secure' : '');
  document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=supported; path=/; max-age=60';
  window.location.replace(window.location.pathname.replace(/step1\\.html$/, 'step2.html'));
})();
`;

/** Third-party cookie check, step 2: report whether the cookie came back, then clear it. */
export const COOKIES_STEP2_JS = `(function () {
  'use strict';
  var supported = document.cookie.indexOf('KEYCLOAK_3P_COOKIE') !== -1;
  document.cookie = 'KEYCLOAK_3P_COOKIE=; path=/; max-age=0';
  document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=; path=/; max-age=0';
  window.parent.postMessage(supported ? 'supported' : 'unsupported', '*');
})();
`;

/**
 * The passkey forms of the sign-in pages (pages.ts, `passkeyForm`): where the browser has
 * WebAuthn, each form shows; its button asks the server for options, the browser (through
 * @simplewebauthn/browser, `webauthn.js`) for the passkey, and posts the answer with the form.
 * A refusal or a cancelled prompt says so and lets the person try again.
 */
const PASSKEY_JS = `(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;
  if (!lib || !lib.browserSupportsWebAuthn()) return;
  Array.prototype.forEach.call(document.querySelectorAll('[data-passkey-fallback]'), function (p) { p.hidden = true; });
  Array.prototype.forEach.call(document.querySelectorAll('[data-passkey-only]'), function (p) { p.hidden = false; });
  Array.prototype.forEach.call(document.querySelectorAll('form[data-passkey]'), function (form) {
    var button = form.querySelector('[data-passkey-start]');
    var status = form.querySelector('[data-passkey-status]');
    var purpose = form.getAttribute('data-passkey');
    form.hidden = false;
    button.addEventListener('click', function () {
      button.disabled = true;
      button.setAttribute('aria-busy', 'true');
      status.textContent = form.getAttribute('data-waiting');
      fetch(form.getAttribute('data-options'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ purpose: purpose })
      })
        .then(function (response) {
          if (!response.ok) throw new Error('status ' + response.status);
          return response.json();
        })
        .then(function (options) {
          return purpose === 'register'
            ? lib.startRegistration({ optionsJSON: options })
            : lib.startAuthentication({ optionsJSON: options });
        })
        .then(function (answer) {
          form.querySelector('input[name="credential"]').value = JSON.stringify(answer);
          form.submit();
        })
        .catch(function () {
          button.disabled = false;
          button.removeAttribute('aria-busy');
          status.textContent = form.getAttribute('data-failed');
        });
    });
  });
})();
`;

/** @simplewebauthn/browser's own bundle (it sets window.SimpleWebAuthnBrowser), read once. */
function webauthnBundle(): string {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  const bundle = path.join(path.dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js');
  return fs.readFileSync(bundle, 'utf8');
}

export const ASSETS: Record<string, { type: string; body: string }> = {
  'signin.css': { type: 'text/css; charset=utf-8', body: SIGNIN_CSS },
  'theme.js': { type: 'text/javascript; charset=utf-8', body: THEME_JS },
  'passkey.js': { type: 'text/javascript; charset=utf-8', body: PASSKEY_JS },
  'webauthn.js': { type: 'text/javascript; charset=utf-8', body: webauthnBundle() },
};
