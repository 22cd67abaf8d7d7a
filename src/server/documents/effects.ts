import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { translate, type Language } from '../../core/i18n/translate';
import { withNotificationTables, type OutboxAttachment } from '../notifications/tables';
import { fillCatalogLists } from './catalog-lists';
import { certificatePdf, holderLanguage, portalUrl } from './certificate';
import type { DocumentDraft, Effect, EffectContext } from './effect-context';
import { allocateReference, nextSerial, setValidity } from './grant-effects';
import { fillReferences } from './reference-fills';
import { accountByLogin } from './on-behalf';

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
  fillCatalogLists: fillLists,
  mailCertificate,
  allocateReference,
  setValidity,
  fillReferences,
};

/**
 * Effects that only compute data from the document and the catalogues (no writes, no
 * messages): a workflow's `derive` may run them for the browser's preview of a form.
 */
export const ENGINE_DERIVING_EFFECTS: readonly string[] = ['fillCatalogLists', 'fillReferences'];

/** The entity's catalogue lists as the catalogues stood at submission (now, before it). */
async function fillLists({ trx, entity, document, now }: EffectContext): Promise<void> {
  await fillCatalogLists(
    trx,
    entity.catalogLists ?? [],
    document.data,
    document.submittedAt ?? now,
  );
}

/** A gap-free number per document type and year (see nextSerial). */
async function allocateNumber({ trx, workflow, document, now }: EffectContext): Promise<void> {
  if (document.number !== null) return;
  const year = now.getUTCFullYear();
  const serial = await nextSerial(trx, document.type, year);
  const digits = workflow.numbering?.digits ?? 6;
  const prefix = workflow.numbering?.prefix ?? document.type.toUpperCase();
  document.year = year;
  document.serial = serial;
  document.number = `${prefix}-${year}-${String(serial).padStart(digits, '0')}`;
}

/**
 * Assigns the document to an officer, named by their login (what a supervisor knows) or their
 * account id: a login of our identity directory becomes the account id tokens carry as their
 * subject, which "Assigned to me" compares with. Anything else is kept as given (the subject
 * of an officer known only to an external identity provider).
 */
async function setAssignee({ trx, document, request, environment }: EffectContext): Promise<void> {
  const assignee = request.assignee?.trim();
  if (!assignee) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/assignee', rule: 'required' },
    ]);
  }
  const account = await accountByLogin(trx, environment.accounts, assignee);
  document.assignee = account?.id ?? assignee;
}

/**
 * The language the document's holder chose (the workflow's `holderLanguage`, English
 * otherwise) and the texts in it, keys under `prefix`: what every message to the holder is
 * written with.
 */
export function holderTexts(
  { workflow, document, environment }: Pick<EffectContext, 'workflow' | 'document' | 'environment'>,
  prefix = '',
): { language: Language; t: (key: string, params?: Record<string, unknown>) => string } {
  const language = holderLanguage(workflow, document.data);
  return {
    language,
    t: (key, params) => translate(environment.texts, language, `${prefix}${key}`, params),
  };
}

/**
 * Tells the owner their document changed status: inbox and e-mail, in the language they chose
 * on the document (the workflow's `holderLanguage`), English otherwise.
 */
async function notifyOwner({
  trx,
  workflow,
  document,
  request,
  environment,
}: EffectContext): Promise<void> {
  const { language, t } = holderTexts({ workflow, document, environment });
  const params = {
    title: t(`${workflow.document}._title`),
    number: document.number ?? document.id,
    status: t(`statuses.${document.status}`),
  };
  const subject = t('notices.subject', params);
  const body = [
    document.ownerName ? t('notices.greeting', { name: document.ownerName }) : '',
    t('notices.body', params),
    request.notes ? `${t('notices.notes')} ${request.notes}` : '',
    t('notices.link', { link: noticeLink(workflow, document, environment.publicUrl) }),
  ]
    .filter(Boolean)
    .join('\n');
  await messageOwner(trx, document, { subject, body, language });
}

/**
 * Where the holder goes on from a notice: the screen of the task waiting for them in the
 * document's new status (a query to answer), else the document's view.
 */
function noticeLink(
  workflow: EffectContext['workflow'],
  document: DocumentDraft,
  publicUrl: string,
): string {
  const task = workflow.tasks?.owner?.find((t) => t.status === document.status);
  const screen = task?.open ?? '/view/:id';
  return portalUrl(publicUrl, `${workflow.prefix}${screen.replace(':id', document.id)}`);
}

/**
 * Hands a message for the document's owner to the outbox: their inbox always, e-mail (with
 * the attachments) when their address is known. The portal's message area shows no
 * attachment, so a message whose e-mail carries one gives the inbox its own wording
 * (`inboxBody`), which must not promise the attachment.
 */
export async function messageOwner(
  trx: Transaction<Database>,
  document: DocumentDraft,
  {
    subject,
    body,
    language,
    attachments = [],
    inboxBody = body,
  }: {
    subject: string;
    body: string;
    /** The language the texts are written in. */
    language: string;
    attachments?: OutboxAttachment[];
    inboxBody?: string;
  },
): Promise<void> {
  const message = { subject, body, language, document_id: document.id };
  await trx
    .insertInto('outbox')
    .values({ ...message, body: inboxBody, channel: 'inbox', recipient: document.owner })
    .execute();
  if (!document.ownerEmail) return;
  await withNotificationTables(trx)
    .insertInto('outbox')
    .values({
      ...message,
      channel: 'email',
      recipient: document.ownerEmail,
      ...(attachments.length ? { attachments: JSON.stringify(attachments) } : {}),
    })
    .execute();
}

/**
 * Sends the holder their certificate (the e-visa at dispatch): an e-mail with the PDF attached
 * when their address is known, and an inbox message always, in the language they chose.
 */
async function mailCertificate({
  trx,
  workflow,
  entity,
  document,
  environment,
  request,
}: EffectContext): Promise<void> {
  if (!workflow.certificate) throw new Error(`Workflow ${workflow.id} has no certificate`);
  const { language, t } = holderTexts({ workflow, document, environment }, 'certificate.');
  const number = document.number ?? document.id;
  const pdf = await certificatePdf({
    db: trx,
    workflow: { ...workflow, certificate: workflow.certificate },
    entity,
    document,
    environment,
    language,
  });
  const subject = t('mailSubject', { number });
  const withNotes = (text: string) =>
    [text, request.notes ? `${t('notes')} ${request.notes}` : ''].filter(Boolean).join('\n\n');
  // The e-mail carries the PDF; the portal's message area cannot, so its message says where
  // the holder downloads it instead (the document's screen, the certificate.download button).
  await messageOwner(trx, document, {
    subject,
    body: withNotes(t('mailBody', { number })),
    language,
    attachments: [
      {
        filename: `${number}.pdf`,
        contentType: 'application/pdf',
        contentBase64: Buffer.from(pdf).toString('base64'),
      },
    ],
    inboxBody: withNotes(
      t(document.ownerEmail ? 'inboxBodyMailed' : 'inboxBody', { number, download: t('download') }),
    ),
  });
}
