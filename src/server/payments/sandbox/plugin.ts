import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../http/html';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely, Updateable } from 'kysely';
import type { Database, SandboxGatewaySessionTable } from '../../db/schema';
import { fromCents } from '../../../core/payments/money';
import type { GatewayOutcome } from '../gateway';
import {
  SANDBOX_SIGNATURE_HEADER,
  findSandboxSession,
  sandboxLanguage,
  sandboxReport,
  signNotification,
  sandboxRefundsOf,
  type SandboxRefundRow,
  type SandboxSessionRow,
} from './gateway';

/**
 * The sandbox gateway's hosted card page: server-rendered HTML, no JavaScript. The card number
 * and code are never stored, logged or rendered; only the last four digits survive.
 */

export interface SandboxGatewayPluginOptions {
  db: Kysely<Database>;
  /** Shared secret of the notification signatures (the SandboxGateway's). */
  secret: string;
  /** Posts a notification; answers the HTTP status. The portal queries when it never arrives. */
  deliver: (url: string, body: string, headers: Record<string, string>) => Promise<number>;
  now?: () => number;
}

type Language = 'en' | 'fr';
type CardOutcome = Extract<GatewayOutcome, 'APPROVED' | 'DECLINED' | 'TIMED_OUT'>;
type FieldName = 'cardNumber' | 'cardName' | 'expiry' | 'cvc';

/** Documented test cards; any other valid card is declined, like an unknown card at a bank. */
const TEST_CARDS: readonly { number: string; outcome: CardOutcome }[] = [
  { number: '4111111111111111', outcome: 'APPROVED' },
  { number: '4000000000000002', outcome: 'DECLINED' },
  { number: '4000000000000119', outcome: 'TIMED_OUT' },
];

const SESSION_ID = /^sbx_[A-Za-z0-9_-]{32}$/;

const TEXTS = {
  en: {
    banner: 'Sandbox Payment Gateway — test mode, no real money',
    payTitle: 'Card payment',
    merchant: 'Merchant',
    merchantName: 'Immigration Service',
    description: 'Description',
    orderReference: 'Order reference',
    amount: 'Amount',
    cardNumber: 'Card number',
    cardName: 'Name on card',
    expiry: 'Expiry date (MM/YY)',
    cvc: 'Security code',
    pay: 'Pay',
    cancel: 'Cancel',
    testCards: 'Test cards',
    testCardsHint: 'Use any name, any expiry date not in the past and any 3-digit security code.',
    result: 'Result',
    APPROVED: 'Approved',
    DECLINED: 'Declined',
    TIMED_OUT: 'Times out (the gateway never answers)',
    fixErrors: 'Please correct the fields marked below. Card details were not kept.',
    errors: {
      cardNumber: 'Enter a valid card number (12 to 19 digits).',
      cardName: 'Enter the name on the card (1 to 70 characters).',
      expiry: 'Enter the expiry date as MM/YY; it must not be in the past.',
      cvc: 'Enter the 3 or 4 digit security code.',
    },
    processedTitle: 'Payment already processed',
    processedText: 'This payment session has already been processed. Nothing more was charged.',
    back: 'Return to Immigration Service',
    notFoundTitle: 'Payment session not found',
    notFoundText: 'This payment link is unknown or no longer valid.',
    refunds: 'Refunds',
    refundReference: 'Refund reference',
    refundStatus: 'Status',
    refundOutcomes: { PENDING: 'Being processed', REFUNDED: 'Refunded', FAILED: 'Failed' },
  },
  fr: {
    banner: 'Passerelle de paiement de test — mode test, aucun argent réel',
    payTitle: 'Paiement par carte',
    merchant: 'Marchand',
    merchantName: 'Immigration Service',
    description: 'Description',
    orderReference: 'Référence de commande',
    amount: 'Montant',
    cardNumber: 'Numéro de carte',
    cardName: 'Nom sur la carte',
    expiry: "Date d'expiration (MM/AA)",
    cvc: 'Code de sécurité',
    pay: 'Payer',
    cancel: 'Annuler',
    testCards: 'Cartes de test',
    testCardsHint:
      "Utilisez n'importe quel nom, une date d'expiration non passée et un code de sécurité à 3 chiffres.",
    result: 'Résultat',
    APPROVED: 'Acceptée',
    DECLINED: 'Refusée',
    TIMED_OUT: 'Délai dépassé (la passerelle ne répond jamais)',
    fixErrors:
      "Veuillez corriger les champs indiqués ci-dessous. Les données de carte n'ont pas été conservées.",
    errors: {
      cardNumber: 'Saisissez un numéro de carte valide (12 à 19 chiffres).',
      cardName: 'Saisissez le nom figurant sur la carte (1 à 70 caractères).',
      expiry: "Saisissez la date d'expiration au format MM/AA ; elle ne doit pas être passée.",
      cvc: 'Saisissez le code de sécurité à 3 ou 4 chiffres.',
    },
    processedTitle: 'Paiement déjà traité',
    processedText: "Cette session de paiement a déjà été traitée. Rien de plus n'a été débité.",
    back: 'Retourner à Immigration Service',
    notFoundTitle: 'Session de paiement introuvable',
    notFoundText: "Ce lien de paiement est inconnu ou n'est plus valide.",
    refunds: 'Remboursements',
    refundReference: 'Référence du remboursement',
    refundStatus: 'État',
    refundOutcomes: { PENDING: 'En cours', REFUNDED: 'Remboursé', FAILED: 'Échoué' },
  },
} as const satisfies Record<Language, unknown>;

type Texts = (typeof TEXTS)[Language];

export async function sandboxGatewayPlugin(
  app: FastifyInstance,
  options: SandboxGatewayPluginOptions,
): Promise<void> {
  const { db } = options;
  const now = options.now ?? Date.now;
  installFormParser(app);
  const payPath = (id: string) => `${app.prefix}/pay/${encodeURIComponent(id)}`;
  const load = (id: string) =>
    SESSION_ID.test(id) ? findSandboxSession(db, id) : Promise.resolve(undefined);

  app.get<{ Params: { session: string } }>('/pay/:session', async (request, reply) => {
    const row = await load(request.params.session);
    if (!row) return notFound(reply);
    if (row.outcome !== 'PENDING')
      return alreadyProcessed(reply, row, 200, await sandboxRefundsOf(db, row.id));
    return sendHtml(reply, 200, payPage(row, payPath(row.id), {}));
  });

  app.post<{ Params: { session: string } }>('/pay/:session', async (request, reply) => {
    const row = await load(request.params.session);
    if (!row) return notFound(reply);
    if (row.outcome !== 'PENDING') return alreadyProcessed(reply, row, 409);
    const form = readCardForm(request.body);
    const errors = validateCard(form, now());
    if (errors.length > 0) {
      // Only the name and expiry go back into the page; the number and code never do.
      const page = payPage(row, payPath(row.id), { errors, form });
      return sendHtml(reply, 400, page);
    }
    const outcome =
      TEST_CARDS.find((card) => card.number === form.cardNumber)?.outcome ?? 'DECLINED';
    const settled = await settle(db, row.id, {
      outcome,
      masked_card: `•••• ${form.cardNumber.slice(-4)}`,
      transaction_id:
        outcome === 'TIMED_OUT' ? null : `sbx_txn_${randomBytes(12).toString('base64url')}`,
    });
    if (!settled) return alreadyProcessed(reply, row, 409);
    // A timed-out bank sends nothing: the portal learns the outcome by querying.
    if (outcome !== 'TIMED_OUT') await notify(options, settled, now(), request.log);
    return reply.redirect(settled.return_url, 303);
  });

  app.post<{ Params: { session: string } }>('/pay/:session/cancel', async (request, reply) => {
    const row = await load(request.params.session);
    if (!row) return notFound(reply);
    const cancelled = await settle(db, row.id, { outcome: 'CANCELLED' });
    if (!cancelled) return alreadyProcessed(reply, row, 409);
    return reply.redirect(cancelled.return_url, 303);
  });
}

/** HTML forms post application/x-www-form-urlencoded, which Fastify does not parse itself. */
function installFormParser(app: FastifyInstance): void {
  const type = 'application/x-www-form-urlencoded';
  if (app.hasContentTypeParser(type)) return;
  app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_r, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}

type CardForm = Record<FieldName, string>;

function readCardForm(body: unknown): CardForm {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = (name: string) => (typeof fields[name] === 'string' ? fields[name] : '');
  return {
    cardNumber: text('cardNumber').replace(/\s+/g, ''),
    cardName: text('cardName').trim(),
    expiry: text('expiry').trim(),
    cvc: text('cvc').trim(),
  };
}

function validateCard(form: CardForm, now: number): FieldName[] {
  const errors: FieldName[] = [];
  if (!/^\d{12,19}$/.test(form.cardNumber) || !luhn(form.cardNumber)) errors.push('cardNumber');
  if (form.cardName.length < 1 || form.cardName.length > 70) errors.push('cardName');
  if (!expiryValid(form.expiry, now)) errors.push('expiry');
  if (!/^\d{3,4}$/.test(form.cvc)) errors.push('cvc');
  return errors;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** MM/YY, valid through the last day of that month (as cards are). */
function expiryValid(expiry: string, now: number): boolean {
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  if (!match) return false;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return false;
  const today = new Date(now);
  const current = today.getUTCFullYear() * 12 + today.getUTCMonth();
  return (2000 + Number(match[2])) * 12 + (month - 1) >= current;
}

/** One conditional UPDATE: of two concurrent submits, only one finds the session PENDING. */
async function settle(
  db: Kysely<Database>,
  id: string,
  changes: Updateable<SandboxGatewaySessionTable>,
): Promise<SandboxSessionRow | undefined> {
  return db
    .updateTable('sandbox_gateway_session')
    .set({ ...changes, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('outcome', '=', 'PENDING')
    .returningAll()
    .executeTakeFirst();
}

/** Sends the signed notification; a failure is only logged, the portal will query the session. */
async function notify(
  options: SandboxGatewayPluginOptions,
  row: SandboxSessionRow,
  now: number,
  log: FastifyBaseLogger,
): Promise<void> {
  const body = JSON.stringify(sandboxReport(row));
  const headers = {
    'content-type': 'application/json',
    [SANDBOX_SIGNATURE_HEADER]: signNotification(options.secret, body, now),
  };
  try {
    const status = await options.deliver(row.notify_url, body, headers);
    if (status < 200 || status >= 300)
      log.warn({ sessionId: row.id, status }, 'sandbox gateway notification refused');
  } catch (error) {
    log.warn({ sessionId: row.id, err: error }, 'sandbox gateway notification failed');
  }
}

/** Integer cents to text without floating point: "NZD 150.00", in French "150,00 NZD". */
function formatAmount(cents: number, currency: string, language: Language): string {
  const amount = fromCents(cents);
  return language === 'fr' ? `${amount.replace('.', ',')} ${currency}` : `${currency} ${amount}`;
}

const groupDigits = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  // A card page must not be kept by the browser or a proxy.
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

function notFound(reply: FastifyReply): FastifyReply {
  // No session, so no language: both, English first.
  const body = (['en', 'fr'] as const)
    .map(
      (l) => `<section lang="${l}"><h1>${TEXTS[l].notFoundTitle}</h1>
<p>${TEXTS[l].notFoundText}</p></section>`,
    )
    .join('\n');
  return sendHtml(reply, 404, layout('en', TEXTS.en.notFoundTitle, body));
}

function alreadyProcessed(
  reply: FastifyReply,
  row: SandboxSessionRow,
  status: number,
  refunds: readonly SandboxRefundRow[] = [],
): FastifyReply {
  const language = sandboxLanguage(row.language);
  const t = TEXTS[language];
  const body = `<h1>${t.processedTitle}</h1>
<p>${t.processedText}</p>
<p>${t.orderReference}: <strong>${escapeHtml(row.order_reference)}</strong></p>
${refundTable(t, refunds, language)}
<p><a class="button" href="${escapeHtml(row.return_url)}">${t.back}</a></p>`;
  return sendHtml(reply, status, layout(language, t.processedTitle, body));
}

function payPage(
  row: SandboxSessionRow,
  action: string,
  state: { errors?: FieldName[]; form?: CardForm },
): string {
  const language = sandboxLanguage(row.language);
  const t = TEXTS[language];
  const amount = escapeHtml(formatAmount(Number(row.amount_cents), row.currency, language));
  const errors = state.errors ?? [];
  const field = (name: FieldName, input: string) => cardField(t, name, input, errors);
  const body = `<h1>${t.payTitle}</h1>
${summary(t, row, amount)}
${errors.length > 0 ? `<p class="alert" role="alert">${t.fixErrors}</p>` : ''}
<form method="post" action="${escapeHtml(action)}" class="card-form">
${field('cardNumber', 'type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23" value=""')}
${field('cardName', `type="text" autocomplete="cc-name" maxlength="70" value="${escapeHtml(state.form?.cardName)}"`)}
<div class="row">
${field('expiry', `type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" value="${escapeHtml(state.form?.expiry)}"`)}
${field('cvc', 'type="password" inputmode="numeric" autocomplete="cc-csc" maxlength="4" value=""')}
</div>
<button type="submit" class="pay">${t.pay} ${amount}</button>
</form>
<form method="post" action="${escapeHtml(action)}/cancel" class="cancel-form">
<button type="submit" class="cancel">${t.cancel}</button>
</form>
${testCardTable(t)}`;
  return layout(language, t.payTitle, body);
}

function summary(t: Texts, row: SandboxSessionRow, amount: string): string {
  return `<dl class="summary">
<dt>${t.merchant}</dt><dd>${t.merchantName}</dd>
<dt>${t.description}</dt><dd>${escapeHtml(row.description)}</dd>
<dt>${t.orderReference}</dt><dd>${escapeHtml(row.order_reference)}</dd>
<dt>${t.amount}</dt><dd class="amount">${amount}</dd>
</dl>`;
}

/** One labelled input; `attributes` are fixed markup plus escaped values. */
function cardField(t: Texts, name: FieldName, attributes: string, errors: FieldName[]): string {
  const invalid = errors.includes(name);
  const described = invalid ? ` aria-invalid="true" aria-describedby="${name}-error"` : '';
  const message = invalid ? `\n<p class="error" id="${name}-error">${t.errors[name]}</p>` : '';
  return `<div class="field${invalid ? ' invalid' : ''}">
<label for="${name}">${t[name]}</label>
<input id="${name}" name="${name}" ${attributes} required${described}>${message}
</div>`;
}

/** The money the sandbox gave back on this payment, each refund with its state in words. */
function refundTable(t: Texts, refunds: readonly SandboxRefundRow[], language: Language): string {
  if (refunds.length === 0) return '';
  const outcome = (value: string) =>
    value in t.refundOutcomes ? t.refundOutcomes[value as keyof Texts['refundOutcomes']] : value;
  const rows = refunds
    .map(
      (refund) =>
        `<tr><td>${escapeHtml(refund.refund_reference)}</td><td>${escapeHtml(
          formatAmount(Number(refund.amount_cents), refund.currency, language),
        )}</td><td>${escapeHtml(outcome(refund.outcome))}</td></tr>`,
    )
    .join('\n');
  return `<section class="refunds">
<h2>${t.refunds}</h2>
<table>
<thead><tr><th scope="col">${t.refundReference}</th><th scope="col">${t.amount}</th><th scope="col">${t.refundStatus}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</section>`;
}

function testCardTable(t: Texts): string {
  const rows = TEST_CARDS.map(
    (card) =>
      `<tr><td class="number">${groupDigits(card.number)}</td><td>${t[card.outcome]}</td></tr>`,
  ).join('\n');
  return `<section class="test-cards">
<h2>${t.testCards}</h2>
<p>${t.testCardsHint}</p>
<table>
<thead><tr><th scope="col">${t.cardNumber}</th><th scope="col">${t.result}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</section>`;
}

/** A whole page; its empty icon keeps browsers from asking for /favicon.ico (a 404). */
function layout(language: Language, title: string, body: string): string {
  const t = TEXTS[language];
  return `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} — Sandbox Payment Gateway</title>
<style>${STYLE}</style>
</head>
<body>
<header class="gateway"><span class="logo" aria-hidden="true">◈</span> ${t.banner}</header>
<main>
${body}
</main>
</body>
</html>`;
}

/** The gateway's own look (a different site from the portal): dark teal and amber, serif titles. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#eef3f1;color:#1d2b28;font:16px/1.5 Verdana,Geneva,sans-serif}
header.gateway{background:#12403a;color:#fff;padding:.8rem 1.2rem;font-weight:bold;border-bottom:4px solid #f2a900}
header .logo{color:#f2a900;margin-right:.4rem}
main{max-width:34rem;margin:1.5rem auto;background:#fff;border:1px solid #c6d6d1;border-radius:4px;padding:1.2rem 1.5rem}
h1,h2{font-family:Georgia,'Times New Roman',serif;color:#12403a}
h1{font-size:1.5rem;margin-top:0}h2{font-size:1.15rem}
dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#f7faf9;padding:.8rem;border-left:4px solid #12403a}
dl.summary dt{font-weight:bold}dl.summary dd{margin:0}
.amount{font-size:1.2rem;font-weight:bold}
.field{margin:.8rem 0}.field label{display:block;font-weight:bold;margin-bottom:.2rem}
.field input{width:100%;padding:.5rem;border:1px solid #7c918c;border-radius:3px;font:inherit}
.field.invalid input{border-color:#b00020;background:#fff5f6}
.error{color:#b00020;margin:.2rem 0 0}
.alert{background:#fff5f6;border:1px solid #b00020;color:#b00020;padding:.6rem}
.row{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
button,.button{display:inline-block;font:inherit;font-weight:bold;padding:.6rem 1.2rem;border-radius:3px;cursor:pointer;text-decoration:none}
button.pay,.button{background:#f2a900;color:#1d2b28;border:1px solid #b57f00;width:100%}
.cancel-form{margin-top:.6rem}
button.cancel{background:#fff;color:#12403a;border:1px solid #12403a;width:100%}
.test-cards{margin-top:1.5rem;border-top:1px dashed #7c918c}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem;border-bottom:1px solid #dde6e3}
td.number{font-family:'Courier New',monospace;white-space:nowrap}
`;
