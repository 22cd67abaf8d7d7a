/**
 * The static files of the identity pages: one style sheet and the small scripts keycloak-js's
 * iframes need. Served from our origin as files (the CSP allows no inline script).
 */

export const SIGNIN_CSS = `
:root { --primary: #0C548C; --primary-dark: #093f69; --secondary: #DEC570; --text: #1d2733; --muted: #5b6673; --danger: #b3261e; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--text); background: #f3f5f8; min-height: 100vh; display: flex; flex-direction: column; }
header.bar { background: var(--primary); color: #fff; border-bottom: 4px solid var(--secondary); padding: 0.9rem 1.25rem; display: flex; align-items: center; justify-content: space-between; }
header.bar .brand { font-weight: 600; font-size: 1.1rem; letter-spacing: 0.01em; }
header.bar nav a { color: #fff; margin-left: 0.75rem; text-decoration: none; font-size: 0.9rem; opacity: 0.85; }
header.bar nav a[aria-current="true"] { opacity: 1; text-decoration: underline; text-decoration-color: var(--secondary); text-underline-offset: 4px; }
main { flex: 1; display: flex; align-items: flex-start; justify-content: center; padding: 3rem 1rem; }
.card { background: #fff; width: 100%; max-width: 26rem; border-radius: 8px; box-shadow: 0 2px 12px rgba(12, 84, 140, 0.12); padding: 2rem; border-top: 4px solid var(--primary); }
h1 { font-size: 1.35rem; margin: 0 0 1.25rem; color: var(--primary); }
p { line-height: 1.5; }
label { display: block; font-weight: 600; font-size: 0.9rem; margin: 1rem 0 0.35rem; }
input[type="text"], input[type="password"] { width: 100%; padding: 0.6rem 0.7rem; font-size: 1rem; border: 1px solid #b8c2cc; border-radius: 4px; }
input:focus { outline: 2px solid var(--secondary); outline-offset: 1px; border-color: var(--primary); }
button { margin-top: 1.5rem; width: 100%; padding: 0.7rem; font-size: 1rem; font-weight: 600; color: #fff; background: var(--primary); border: none; border-radius: 4px; cursor: pointer; }
button:hover { background: var(--primary-dark); }
button.secondary { background: #fff; color: var(--primary); border: 1px solid var(--primary); margin-top: 0.75rem; }
.alert { padding: 0.75rem 0.9rem; border-radius: 4px; margin-bottom: 1rem; font-size: 0.95rem; }
.alert.error { background: #fdecea; color: var(--danger); border-left: 4px solid var(--danger); }
.alert.info { background: #fbf6e3; color: #5a4a12; border-left: 4px solid var(--secondary); }
ul.problems { margin: 0.5rem 0 0; padding-left: 1.2rem; }
code.secret { display: block; padding: 0.6rem; background: #f3f5f8; border: 1px dashed var(--primary); border-radius: 4px; word-break: break-all; font-size: 1rem; letter-spacing: 0.08em; }
code.uri { display: block; font-size: 0.8rem; word-break: break-all; color: var(--muted); }
footer { text-align: center; color: var(--muted); font-size: 0.8rem; padding: 1rem; }
a { color: var(--primary); }
`;

/**
 * keycloak-js's session check: the page posts "clientId sessionState"; we ask our own origin
 * for the current session's id for that client and answer "unchanged", "changed" or "error".
 */
export const LOGIN_STATUS_JS = `(function () {
  'use strict';
  var base = window.location.pathname.replace(/\\/[^/]*$/, '/login-status-iframe.html/init');
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || typeof event.data !== 'string') return;
    var origin = event.origin;
    var parts = event.data.split(' ');
    var clientId = parts[0] || '';
    var sessionState = parts[1] || '';
    var reply = function (answer) { event.source.postMessage(answer, origin); };
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

export const ASSETS: Record<string, { type: string; body: string }> = {
  'signin.css': { type: 'text/css; charset=utf-8', body: SIGNIN_CSS },
  'login-status-iframe.js': { type: 'text/javascript; charset=utf-8', body: LOGIN_STATUS_JS },
  '3p-cookies-step1.js': { type: 'text/javascript; charset=utf-8', body: COOKIES_STEP1_JS },
  '3p-cookies-step2.js': { type: 'text/javascript; charset=utf-8', body: COOKIES_STEP2_JS },
};
