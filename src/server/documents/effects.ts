import { fieldLabel } from './field-label';
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
import { personRefused } from '../../core/documents/person-decisions';
import { copyFromCatalog } from './catalog-copies';
import { holdersOf, ownHolderName } from '../../core/documents/certificate-holders';
import { fillReferences } from './reference-fills';
import { copyValues } from './copy-values';
import { setAssignee } from './assignment';
import { extendValidity, flagReferring } from './renewals';
import { delegatesToTell } from './delegations';

export type { DocumentDraft, Effect, EffectContext, EffectEnvironment } from './effect-context';

/** Effects the engine provides; modules bring theirs through `defineModule`. */
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
  extendValidity,
  flagReferring,
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

/** Effects that only compute data (no writes, no messages): a workflow's `derive` may run them. */
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

/** The language of the document's holder and the texts in it, keys under `prefix`. */
export async function holderTexts(
  context: Pick<EffectContext, 'trx' | 'workflow' | 'document' | 'environment'>,
  prefix = '',
): Promise<{ language: Language; t: (key: string, params?: Record<string, unknown>) => string }> {
  const { trx, workflow, document, environment } = context;
  const language = await holderLanguageOf(trx, environment.accounts, workflow, document);
  return {
    language,
    t: (key, params) => translate(environment.texts, language, `${prefix}${key}`, params),
  };
}

/** Tells the owner, in their language, that their document changed status, with a link to it. */
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
    refundNotice(context, t),
    request.notes ? `${t('notices.notes')} ${request.notes}` : '',
    t('notices.link', { link: portalUrl(environment.publicUrl, noticePath(workflow, document)) }),
  ]
    .filter(Boolean)
    .join('\n');
  await messageOwner(context, { subject: t('notices.subject', params), body, language });
}

/**
 * What the notice says of a refund this very action decided (`refundOnWithdrawal` dates it with
 * the action's instant): the amount and its reference, or that nothing is refundable.
 */
function refundNotice(
  { workflow, document, now }: EffectContext,
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  const fees = workflow.payment ? resolvePointer(document.data, workflow.payment.fees) : undefined;
  if (typeof fees !== 'object' || fees === null) return '';
  const { refundAmount, refundReference, refundDate, currency } = fees as Record<string, unknown>;
  if (refundDate !== now.toISOString() || typeof refundAmount !== 'string') return '';
  return typeof refundReference === 'string'
    ? t('notices.refund', { amount: refundAmount, currency, reference: refundReference })
    : t('notices.noRefund');
}

/** Tells both holders of a handed-over document, in their languages; the new one with a link. */
async function notifyOwnerChange(context: EffectContext): Promise<void> {
  const { workflow, document, request, environment, previousOwner } = context;
  const tell = async (holder: EffectContext, toNew: boolean) => {
    const { language, t } = await holderTexts(holder);
    const { ownerName } = holder.document;
    const params = {
      title: t(`${workflow.document}._title`),
      number: document.number ?? document.id,
      name: document.ownerName ?? '',
    };
    const link = portalUrl(environment.publicUrl, noticePath(workflow, document));
    await messageOwner(holder, {
      subject: t('notices.ownerChange.subject', params),
      body: [
        ownerName ? t('notices.greeting', { name: ownerName }) : '',
        t(toNew ? 'notices.ownerChange.toNew' : 'notices.ownerChange.toFormer', params),
        request.notes ? `${t('notices.notes')} ${request.notes}` : '',
        toNew ? t('notices.link', { link }) : '',
      ]
        .filter(Boolean)
        .join('\n'),
      language,
      ...(toNew ? {} : { path: null }),
    });
  };
  await tell(context, true);
  if (previousOwner) await tell({ ...context, document: { ...document, ...previousOwner } }, false);
}

/**
 * A notice for the holder through the inbox; without one, by e-mail when the address is known.
 * The holder's running delegates get it too (docs/delegation.md).
 */
export async function messageOwner(
  context: Pick<EffectContext, 'trx' | 'workflow' | 'document' | 'principal' | 'environment'>,
  notice: Notice,
): Promise<void> {
  await messageHolder(context, notice);
  const { trx, workflow, document, environment } = context;
  const delegates = await delegatesToTell(
    trx,
    environment.accounts,
    workflow,
    document,
    new Date(),
  );
  for (const delegate of delegates)
    await messageHolder({ ...context, document: { ...document, ...delegate } }, notice);
}

/** A notice for whoever `document` names as its owner. */
async function messageHolder(
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

/** Sends the holder their certificates: by e-mail with the PDFs when known, always to the inbox. */
async function mailCertificate(context: EffectContext): Promise<void> {
  const { trx, workflow, entity, document, environment, request } = context;
  const certificate = workflow.certificate;
  if (!certificate) throw new Error(`Workflow ${workflow.id} has no certificate`);
  const { language, t } = await holderTexts(context, 'certificate.');
  const number = document.number ?? document.id;
  const people = certificate.holders ? holdersOf(certificate.holders, document.data) : [];
  const attachments = [];
  // The main person refused (`persons`) holds no certificate: only the others' are sent.
  const own = personRefused(workflow.persons, document.data, 0) ? [] : [undefined];
  for (const holder of [...own, ...people]) {
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
  // The portal's message cannot carry the PDF: it says where the holder downloads it instead.
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
