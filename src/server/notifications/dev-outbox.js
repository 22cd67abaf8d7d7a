// The developer outbox page (outside production only): lists GET /api/outbox, which needs no
// sign-in there, so a person registering can read the code texted to them. External file
// because the page's Content-Security-Policy allows no inline script. Same origin as the
// portal, so it follows the portal's language and colour scheme choices.
const TEXTS = {
  en: {
    title: 'Outbox (developers)',
    tag: 'Development installation only',
    heading: 'Outbox',
    intro:
      'The latest 100 e-mails and text messages the portal queued. Without SMTP_URL / SMS_URL nothing leaves this machine: read here the confirmation code sent to you while you register. This page does not exist in production.',
    back: 'Back to the portal',
    recipient: 'Mobile number or e-mail address',
    channel: 'Channel',
    channelAll: 'E-mail and SMS',
    channel_sms: 'SMS',
    channel_email: 'E-mail',
    channel_inbox: 'Portal inbox',
    reload: 'Show',
    loading: 'Loading…',
    count_one: '{n} message',
    count_other: '{n} messages',
    none: 'No message yet. Ask for a confirmation code, then press Show.',
    failed: 'Unable to load the outbox ({detail}).',
    to: 'To',
    subject: 'Subject',
    status: 'Status',
    attempts: 'Attempts',
    lastError: 'Last error',
    code: 'Code',
    status_KEPT: 'Kept here (no provider configured)',
    status_PENDING: 'Waiting to be sent',
    status_SENDING: 'Being sent',
    status_SENT: 'Sent',
    status_FAILED: 'Failed',
  },
  fr: {
    title: 'Boîte d’envoi (développeurs)',
    tag: 'Installation de développement uniquement',
    heading: 'Boîte d’envoi',
    intro:
      'Les 100 derniers e-mails et SMS mis en file par le portail. Sans SMTP_URL / SMS_URL rien ne quitte cette machine : lisez ici le code de confirmation qui vous a été envoyé pendant votre inscription. Cette page n’existe pas en production.',
    back: 'Retour au portail',
    recipient: 'Numéro de mobile ou adresse e-mail',
    channel: 'Canal',
    channelAll: 'E-mail et SMS',
    channel_sms: 'SMS',
    channel_email: 'E-mail',
    channel_inbox: 'Messagerie du portail',
    reload: 'Afficher',
    loading: 'Chargement…',
    count_one: '{n} message',
    count_other: '{n} messages',
    none: 'Aucun message pour l’instant. Demandez un code de confirmation, puis appuyez sur Afficher.',
    failed: 'Impossible de charger la boîte d’envoi ({detail}).',
    to: 'Destinataire',
    subject: 'Objet',
    status: 'État',
    attempts: 'Tentatives',
    lastError: 'Dernière erreur',
    code: 'Code',
    status_KEPT: 'Conservé ici (aucun fournisseur configuré)',
    status_PENDING: 'En attente d’envoi',
    status_SENDING: 'En cours d’envoi',
    status_SENT: 'Envoyé',
    status_FAILED: 'Échec',
  },
};

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** ?lang= first, then the portal's choice, then the browser's. */
function pickLanguage() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'en' || asked === 'fr') {
    try {
      localStorage.setItem('portal.language', asked);
    } catch {
      // Private browsing: the choice lasts this page only.
    }
    return asked;
  }
  const candidates = [stored('portal.language'), ...(navigator.languages ?? [navigator.language])];
  for (const candidate of candidates) {
    const tag = String(candidate ?? '')
      .slice(0, 2)
      .toLowerCase();
    if (tag === 'en' || tag === 'fr') return tag;
  }
  return 'en';
}

const language = pickLanguage();
const texts = TEXTS[language];
const text = (key, params = {}) =>
  (texts[key] ?? TEXTS.en[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
const plural = (key, n) =>
  text(`${key}_${new Intl.PluralRules(language).select(n) === 'one' ? 'one' : 'other'}`, { n });

// The portal's dark/light switch (Mantine's key), else the system's preference.
const scheme = stored('mantine-color-scheme-value');
if (scheme === 'dark' || scheme === 'light') document.documentElement.dataset.scheme = scheme;
document.documentElement.lang = language;

const dateFormat = new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
  dateStyle: 'short',
  timeStyle: 'medium',
});

function element(tag, content, className) {
  const node = document.createElement(tag);
  if (content !== undefined && content !== null) node.textContent = String(content);
  if (className) node.className = className;
  return node;
}

function pair(list, label, value) {
  if (value === undefined || value === null || value === '') return;
  list.append(element('dt', label), element('dd', value));
}

function messageItem(item) {
  const entry = element('li', undefined, `message ${item.status}`);
  const head = element('p', undefined, 'head');
  const time = element('time', dateFormat.format(new Date(item.created_at)));
  time.dateTime = item.created_at;
  head.append(element('strong', text(`channel_${item.channel}`)), ' · ', time);
  entry.append(head);
  // The 6-digit confirmation code, large, so it can be typed in at a glance.
  const code = /\b(\d{6})\b/.exec(item.body ?? '')?.[1];
  if (code) {
    const big = element('p', undefined, 'code');
    big.append(element('span', `${text('code')} `), element('strong', code));
    entry.append(big);
  }
  const details = element('dl');
  pair(details, text('to'), item.recipient);
  if (item.channel !== 'sms') pair(details, text('subject'), item.subject);
  pair(details, text('status'), text(`status_${item.status}`));
  if (item.attempts > 0) pair(details, text('attempts'), item.attempts);
  pair(details, text('lastError'), item.last_error);
  entry.append(details, element('p', item.body, 'body'));
  return entry;
}

async function load() {
  const status = document.getElementById('status');
  const rows = document.getElementById('rows');
  const query = new URLSearchParams();
  const recipient = document.getElementById('recipient').value.trim();
  const channel = document.getElementById('channel').value;
  if (recipient) query.set('recipient', recipient);
  if (channel) query.set('channel', channel);
  status.textContent = text('loading');
  try {
    const response = await fetch(`/api/outbox${query.size ? `?${query}` : ''}`, {
      headers: { 'accept-language': language },
      cache: 'no-store',
    });
    const answer = await response.json();
    if (!response.ok) {
      status.textContent = text('failed', {
        detail: answer?.error?.message ?? response.status,
      });
      return;
    }
    rows.replaceChildren(...answer.items.map(messageItem));
    status.textContent = answer.items.length ? plural('count', answer.items.length) : text('none');
  } catch (error) {
    status.textContent = text('failed', { detail: String(error) });
  }
}

document.addEventListener('DOMContentLoaded', () => {
  for (const node of document.querySelectorAll('[data-text]')) {
    node.textContent = text(node.dataset.text);
  }
  const recipient = new URLSearchParams(location.search).get('recipient');
  if (recipient) document.getElementById('recipient').value = recipient;
  document.getElementById('controls').addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  void load();
});
