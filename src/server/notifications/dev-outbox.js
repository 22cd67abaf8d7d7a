// The developer outbox page: lists /api/outbox with the portal session's token (or one typed in).
// External file because the page's Content-Security-Policy allows no inline script.
const TOKEN_KEY = 'portal.accessToken';

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

async function load() {
  const status = document.getElementById('status');
  const rows = document.getElementById('rows');
  const tokenInput = document.getElementById('token');
  const token = tokenInput.value.trim() || sessionStorage.getItem(TOKEN_KEY) || '';
  if (tokenInput.value.trim()) sessionStorage.setItem(TOKEN_KEY, tokenInput.value.trim());
  const recipient = document.getElementById('recipient').value.trim();
  const query = recipient ? `?recipient=${encodeURIComponent(recipient)}` : '';
  status.textContent = 'Loading…';
  try {
    const response = await fetch(`/api/outbox${query}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const answer = await response.json();
    if (!response.ok) {
      status.textContent = answer?.error?.message ?? `Error ${response.status}`;
      return;
    }
    rows.replaceChildren(
      ...answer.items.map((item) => {
        const row = element('tr', undefined, item.status);
        row.append(
          element('td', new Date(item.created_at).toLocaleString()),
          element('td', item.channel),
          element('td', item.recipient),
          element('td', item.subject),
          element('td', item.body, 'body'),
          element('td', item.status),
          element('td', item.attempts),
          element('td', item.last_error ?? ''),
        );
        return row;
      }),
    );
    status.textContent = `${answer.items.length} messages`;
  } catch (error) {
    status.textContent = `Unable to load the outbox: ${error}`;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('controls').addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  void load();
});
