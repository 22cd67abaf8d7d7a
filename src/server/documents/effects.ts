import { translate, type Language } from '../../core/i18n/translate';
import { enqueue } from '../notifications/outbox';
import { fillCatalogLists } from './catalog-lists';
import { catalogsIn } from '../catalog/valid-at';
import { certificatePdf, portalUrl } from './certificate';
import { holderLanguageOf } from './holder-language';
import type { Effect, EffectContext, Notice } from './effect-context';
import { noticePath } from './notice-path';
import { allocateReference, nextNumber, setValidity } from './grant-effects';
import { REFERENCE_POINTER } from '../../core/documents/conventions';
import { resolvePointer } from '../../core/rules/registry';
import { allocateHolderNumbers } from './certificate-holders';
import { copyFromCatalog } from './catalog-copies';
import { holdersOf, ownHolderName } from '../../core/documents/certificate-holders';
import { fillReferences } from './reference-fills';
import { copyValues } from './copy-values';
import { setAssignee } from './assignment';

export type { DocumentDraft, Effect, EffectContext, EffectEnvironment } from './effect-context';

/**
 * Effects the engine provides, referenced by name from a workflow's actions and run in order
 * inside the action's transaction (so a failure leaves nothing behind). Modules bring theirs
 * through their `defineModule` value (src/server/module.ts).
 */
export const ENGINE_EFFECTS: Readonly<Record<string, Effect>> = {
  allocateNumber,
  setSubmissionDate: ({ document, now }) => void (document.submittedAt ??= now),
  rememberStatus: ({ document, fromStatus }) => void (document.previousStatus = fromStatus),
  setAssignee,
  assignToCaller: ({ document, principal }) => void (document.assignee = principal.subject),
  clearAssignee: ({ document }) => void (document.assignee = null),
  notifyOwner,
  notifyOwnerChange,
  fillCatalogLists: fillLists,
  mailCertificate,
  allocateReference,
  allocateHolderNumbers,
  copyFromCatalog,
  setValidity,
  fillReferences,
  copyValues,
  addressMessage: (context) => inboxOf(context).address(context),
  queueMessage: (context) => inboxOf(context).queueWritten(context),
  recordDelivery: (context) => inboxOf(context).record(context),
  requeueMessage: (context) => inboxOf(context).requeue(context),
};

/** The inbox, for the effects only its workflow names (the loader checked it declares `inbox`). */
function inboxOf({ environment, workflow }: EffectContext) {
  if (!environment.inbox) throw new Error(`Workflow ${workflow.id}: no inbox is configured`);
  return environment.inbox;
}

/**
 * Effects that only compute data from the document and the catalogues (no writes, no
 * messages): a workflow's `derive` may run them for the browser's preview of a form.
 */
export const ENGINE_DERIVING_EFFECTS: readonly string[] = [
  'fillCatalogLists',
  'fillReferences',
  'copyValues',
];

/** The entity's catalogue lists as the catalogues stood at submission (now, before it). */
async function fillLists({ trx, environment, entity, document, now }: EffectContext) {
  await fillCatalogLists(
    environment.catalogs?.through(trx) ?? catalogsIn(trx),
    entity.catalogLists ?? [],
    document.data,
    document.submittedAt ?? now,
  );
}

/** A gap-free number per document type and year (see nextSerial). */
async function allocateNumber({ trx, workflow, document, now }: EffectContext): Promise<void> {
  if (document.number !== null) return;
  Object.assign(document, await nextNumber(trx, workflow, document.type, now));
}

/**
 * The language of the document's holder (holder-language.ts) and the texts in it, keys under
 * `prefix`: what every message to the holder is written with.
 */
export async function holderTexts(
  {
    trx,
    workflow,
    document,
    environment,
  }: Pick<EffectContext, 'trx' | 'workflow' | 'document' | 'environment'>,
  prefix = '',
): Promise<{ language: Language; t: (key: string, params?: Record<string, unknown>) => string }> {
  const language = await holderLanguageOf(trx, environment.accounts, workflow, document);
  return {
    language,
    t: (key, params) => translate(environment.texts, language, `${prefix}${key}`, params),
  };
}

/**
 * Tells the owner their document changed status, in the language they chose on the document
 * (the workflow's `holderLanguage`), English otherwise: a message in their inbox with a link
 * to the screen waiting for them, sent by e-mail and SMS.
 */
async function notifyOwner(context: EffectContext): Promise<void> {
  const { workflow, document, request, environment } = context;
  const { language, t } = await holderTexts(context);
  const params = {
    title: t(`${workflow.document}._title`),
    number: document.number ?? document.id,
    status: t(`statuses.${document.status}`),
  };
  // The number the document was given (`reference`: a sponsorship's), under its field's label.
  const reference = workflow.reference
    ? resolvePointer(document.data, REFERENCE_POINTER)
    : undefined;
  const body = [
    document.ownerName ? t('notices.greeting', { name: document.ownerName }) : '',
    t('notices.body', params),
    typeof reference === 'string'
      ? t('notices.reference', {
          label: fieldLabel(environment.texts, language, workflow.document, REFERENCE_POINTER),
          reference,
        })
      : '',
    request.notes ? `${t('notices.notes')} ${request.notes}` : '',
    t('notices.link', { link: portalUrl(environment.publicUrl, noticePath(workflow, document)) }),
  ]
    .filter(Boolean)
    .join('\n');
  await messageOwner(context, { subject: t('notices.subject', params), body, language });
}

/** The label of the entity's field at `pointer` (`<entity>.<path>`, or its `._` for a group). */
function fieldLabel(
  texts: EffectContext['environment']['texts'],
  language: Language,
  entity: string,
  pointer: string,
): string {
  const key = `${entity}${pointer.replaceAll('/', '.')}`;
  for (const candidate of [key, `${key}._`]) {
    const text = translate(texts, language, candidate);
    if (text !== candidate) return text;
  }
  return pointer.split('/').pop() ?? pointer;
}

/**
 * Tells both holders a document changed hands (`onBehalf` on a stored document): the new one
 * that it is theirs, with a link to it; the former one who holds it now, with no link (they no
 * longer see it). Each in their own language.
 */
async function notifyOwnerChange(context: EffectContext): Promise<void> {
  const { workflow, document, request, environment, previousOwner } = context;
  const notes = (t: (key: string) => string) =>
    request.notes ? `${t('notices.notes')} ${request.notes}` : '';
  const paramsIn = (t: (key: string) => string) => ({
    title: t(`${workflow.document}._title`),
    number: document.number ?? document.id,
    name: document.ownerName ?? '',
  });
  const mine = await holderTexts(context);
  await messageOwner(context, {
    subject: mine.t('notices.ownerChange.subject', paramsIn(mine.t)),
    body: [
      document.ownerName ? mine.t('notices.greeting', { name: document.ownerName }) : '',
      mine.t('notices.ownerChange.toNew', paramsIn(mine.t)),
      notes(mine.t),
      mine.t('notices.link', {
        link: portalUrl(environment.publicUrl, noticePath(workflow, document)),
      }),
    ]
      .filter(Boolean)
      .join('\n'),
    language: mine.language,
  });
  if (!previousOwner) return;
  const former = { ...context, document: { ...document, ...previousOwner } };
  const theirs = await holderTexts(former);
  await messageOwner(former, {
    subject: theirs.t('notices.ownerChange.subject', paramsIn(theirs.t)),
    body: [
      previousOwner.ownerName
        ? theirs.t('notices.greeting', { name: previousOwner.ownerName })
        : '',
      theirs.t('notices.ownerChange.toFormer', paramsIn(theirs.t)),
      notes(theirs.t),
    ]
      .filter(Boolean)
      .join('\n'),
    language: theirs.language,
    path: null,
  });
}

/**
 * Hands a notice for the document's holder to the inbox, which keeps it as a message and
 * sends it by e-mail and SMS. Without an inbox (its module switched off) it goes out by
 * e-mail alone, when the holder's address is known.
 */
export async function messageOwner(
  context: Pick<EffectContext, 'trx' | 'workflow' | 'document' | 'principal' | 'environment'>,
  notice: Notice,
): Promise<void> {
  const { trx, document, environment } = context;
  if (environment.inbox) return environment.inbox.post(context, notice);
  if (!document.ownerEmail) return;
  await enqueue(trx, [
    {
      channel: 'email',
      recipient: document.ownerEmail,
      subject: notice.subject,
      body: notice.body,
      language: notice.language,
      documentId: document.id,
      attachments: notice.attachments,
    },
  ]);
}

/**
 * Sends the holder their certificate (the e-visa at dispatch), with those of the document's
 * people (`certificate.holders`: each dependant's e-visa): an e-mail with the PDFs attached
 * when their address is known, and an inbox message always, in the language they chose.
 */
async function mailCertificate(context: EffectContext): Promise<void> {
  const { trx, workflow, entity, document, environment, request } = context;
  const certificate = workflow.certificate;
  if (!certificate) throw new Error(`Workflow ${workflow.id} has no certificate`);
  const { language, t } = await holderTexts(context, 'certificate.');
  const number = document.number ?? document.id;
  const people = certificate.holders ? holdersOf(certificate.holders, document.data) : [];
  const attachments = [];
  for (const holder of [undefined, ...people]) {
    const pdf = await certificatePdf({
      db: trx,
      workflow: { ...workflow, certificate },
      entity,
      document,
      environment,
      language,
      holder,
    });
    attachments.push({
      filename: `${holder?.number ?? number}.pdf`,
      contentType: 'application/pdf',
      contentBase64: Buffer.from(pdf).toString('base64'),
    });
  }
  const subject = t('mailSubject', { number });
  const others = people.length
    ? t('mailHolders', { holders: people.map((p) => `${p.name} (${p.number})`).join(', ') })
    : '';
  // The screen names the holder's own download after them when others have theirs beside it.
  const ownName = people.length ? ownHolderName(certificate, document.data) : '';
  const download = translate(
    environment.texts,
    language,
    ownName
      ? (certificate.holders?.download ?? 'certificate.downloadHolder')
      : (certificate.download ?? 'certificate.download'),
    { name: ownName, number },
  );
  const withNotes = (text: string) =>
    [text, others, request.notes ? `${t('notes')} ${request.notes}` : '']
      .filter(Boolean)
      .join('\n\n');
  // The e-mail carries the PDF; the portal's message area cannot, so its message says where
  // the holder downloads it instead (the document's screen, the certificate.download button).
  await messageOwner(context, {
    subject,
    body: withNotes(t('mailBody', { number })),
    language,
    attachments,
    inboxBody: withNotes(
      t(document.ownerEmail ? 'inboxBodyMailed' : 'inboxBody', { number, download }),
    ),
  });
}
