import type { Kysely, Transaction } from 'kysely';
import type { WorkflowDefinition, WorkflowInbox } from '../../core/documents/workflow';
import { resolvePointer, setAt } from '../../core/rules/registry';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { normaliseDestination } from '../challenge/service';
import { invalid } from '../search/compile-search';
import { deliveriesOf, enqueue, retryFailed, stillSending } from '../notifications/outbox';
import type { OutboxAttempt } from '../notifications/worker';
import { machineAllows, maySee } from './access';
import { portalUrl } from './certificate';
import { holderLanguageOf } from './holder-language';
import type { AccountLookup, DocumentDraft, EffectContext, Notice } from './effect-context';
import type { WorkflowOf } from './links';
import { ownerOf, type DocumentOwner } from './on-behalf';
import { UUID } from '../db/ids';
import { noticePath } from './notice-path';
import { holderContacts } from './store/lookups';
import { findDocument } from './store/rows';
import type { DocumentService } from './service';
import type { CompiledWorkflow } from './workflows';

/** The document service calls the inbox makes (the service serving the inbox's workflow). */
export type InboxDocuments = Pick<DocumentService, 'createAsSystem' | 'actAsSystem'>;

export interface InboxOptions {
  db: Kysely<Database>;
  /** The workflow declaring `inbox`: its documents are the messages. */
  workflow: CompiledWorkflow;
  /** The service of that workflow, bound late: built with the inbox, it writes the notices. */
  documents: () => InboxDocuments;
  /** Every workflow a message may be about (those of enabled modules), by type. */
  workflowOf: WorkflowOf;
  /** Our directory's accounts (an account owns itself, with its holder's contacts). */
  accounts?: AccountLookup;
  publicUrl: string;
  texts: Partial<Record<Language, TextTree>>;
  /** Which channels notices go out on besides the inbox. */
  channels: { email: boolean; sms: boolean };
  /** A written message names its writer (OFFICER_NAMES_TO_PUBLIC), else the service. */
  officerNamesToPublic?: boolean;
  /** Asks the outbox worker to poll now. */
  wake?: () => void;
}

interface Contacts {
  name: string | null;
  email: string | null;
  mobile: string | null;
}

/** Whom a message is addressed to, about which document, from whom (else the service). */
interface Addressing {
  workflow: WorkflowDefinition;
  document: Pick<DocumentDraft, 'id' | 'number' | 'status' | 'data'>;
  /** The portal route it links to: by default the document's, none when null. */
  path?: string | null;
  language: Language;
  contacts: Contacts;
  sender?: string;
}

/** Who the history names for what the outbox reports. */
const OUTBOX_ACTOR: Principal = {
  subject: 'system:outbox',
  roles: [],
  // Shown in the reader's language (`actors.outbox`), not as stored.
  name: 'system:outbox',
};

/**
 * The inbox: each message is a document of the `inbox` workflow owned by its recipient; its e-mail
 * and SMS are outbox rows naming it, whose attempts the worker reports back (`settle`).
 */
export class Inbox {
  readonly type: string;
  private readonly declaration: WorkflowInbox;

  constructor(private readonly options: InboxOptions) {
    const declaration = options.workflow.definition.inbox;
    if (!declaration) throw new Error(`workflow ${options.workflow.definition.id} is no inbox`);
    this.declaration = declaration;
    this.type = options.workflow.definition.id;
  }

  /** Posts a notice about `document` to its holder in the action's transaction, then queues it. */
  async post({ trx, workflow, document, principal }: NoticeContext, notice: Notice): Promise<void> {
    const inbox = this.declaration;
    const contacts = await this.contactsOf(trx, document);
    const data: Record<string, unknown> = {};
    setAt(data, inbox.subject, notice.subject);
    setAt(data, inbox.body, notice.inboxBody ?? notice.body);
    const { path, language } = notice;
    this.addressTo(data, { workflow, document, path, language, contacts });
    const message = await this.options
      .documents()
      .createAsSystem(trx, this.type, ownedBy(document.owner, contacts), inbox.actions.post, data, {
        ...principal,
        subject: `system:${workflow.id}`,
      });
    await this.queue(trx, message.id, contacts, {
      subject: notice.subject,
      body: notice.body,
      language: notice.language,
      aboutId: document.id,
      attachments: notice.attachments,
      sms: notice.sms,
    });
  }

  /** An officer's message (`addressMessage`) to a seen document's holder; the writer assigned. */
  async address({ trx, document, principal }: EffectContext): Promise<void> {
    const inbox = this.declaration;
    const about = resolvePointer(document.data, inbox.about) as
      { type?: unknown; id?: unknown } | undefined;
    const type = typeof about?.type === 'string' ? about.type : '';
    const id = typeof about?.id === 'string' ? about.id : '';
    const workflow = type === this.type ? undefined : this.options.workflowOf(type);
    const row =
      workflow && UUID.test(id) ? await findDocument(trx, workflow.definition.id, id) : undefined;
    if (!workflow || !row || row.status === 'DELETED' || !maySee(workflow, principal, row))
      throw invalid([{ path: `${inbox.about}/id`, rule: 'heldDocument' }]);
    const contacts = await this.contactsOf(trx, { id: row.id, ...ownerOf(row) });
    const language = await holderLanguageOf(trx, this.options.accounts, workflow.definition, row);
    Object.assign(document, { ...ownedBy(row.owner, contacts), assignee: principal.subject });
    this.addressTo(document.data, {
      workflow: workflow.definition,
      document: row,
      language,
      contacts,
      sender: this.options.officerNamesToPublic
        ? (principal.name ?? principal.preferredUsername ?? principal.subject)
        : undefined,
    });
  }

  /** A message's document it is about (in the holder's language), recipient, sender and delivery. */
  private addressTo(data: Record<string, unknown>, to: Addressing): void {
    const { workflow, document, language, contacts, sender } = to;
    const path = to.path === undefined ? noticePath(workflow, document) : to.path;
    const inbox = this.declaration;
    const t = this.texts(language);
    setAt(data, inbox.about, {
      type: workflow.id,
      title: t(`${workflow.document}._title`),
      language,
      id: document.id,
      ...(document.number ? { number: document.number } : {}),
      ...(path ? { path } : {}),
    });
    setAt(data, inbox.recipient, compact(contacts));
    setAt(data, inbox.sender, { name: sender ?? t(`${this.type}.sender.service`) });
    const channels = this.channelsFor(contacts).map((channel) => ({ channel, status: 'PENDING' }));
    setAt(data, inbox.delivery, { attempts: 0, channels });
  }

  /** Queues the e-mail and SMS of a message just written (`queueMessage`). */
  async queueWritten({ trx, document }: EffectContext): Promise<void> {
    const inbox = this.declaration;
    const text = (pointer: string) => {
      const value = resolvePointer(document.data, pointer);
      return typeof value === 'string' ? value : '';
    };
    const about = resolvePointer(document.data, inbox.about) as
      { id?: string; path?: string; language?: unknown } | undefined;
    const contacts = resolvePointer(document.data, inbox.recipient) as Contacts | undefined;
    // The language its holder chose, if we know it.
    const language: Language = about?.language === 'fr' ? 'fr' : 'en';
    const t = this.texts(language);
    const note = text(inbox.note);
    const body = [
      text(inbox.body),
      note ? `${t('notices.notes')} ${note}` : '',
      about?.path ? t('notices.link', { link: portalUrl(this.options.publicUrl, about.path) }) : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    const attachment = resolvePointer(document.data, inbox.attachment) as
      { id?: string; name?: string; type?: string } | undefined;
    await this.queue(trx, document.id, contacts ?? { name: null, email: null, mobile: null }, {
      subject: text(inbox.subject),
      body,
      language,
      aboutId: about?.id ?? null,
      attachments:
        attachment?.id && attachment.name && attachment.type
          ? [{ filename: attachment.name, contentType: attachment.type, mediaId: attachment.id }]
          : undefined,
    });
  }

  /** The message's delivery as its outbox rows stand (`recordDelivery`). */
  async record({ trx, document }: EffectContext): Promise<void> {
    const rows = await deliveriesOf(trx, document.id);
    const dates = rows.flatMap((r) => (r.attempt_at ? [new Date(r.attempt_at).getTime()] : []));
    const data = structuredClone(document.data);
    setAt(data, this.declaration.delivery, {
      attempts: rows.reduce((sum, r) => sum + r.attempts, 0),
      ...(dates.length ? { attemptDate: new Date(Math.max(...dates)).toISOString() } : {}),
      channels: rows.map((r) => ({
        channel: r.channel,
        status: r.status,
        attempts: r.attempts,
        ...(r.attempt_at ? { attemptDate: new Date(r.attempt_at).toISOString() } : {}),
        ...(r.last_error ? { error: r.last_error.slice(0, 1000) } : {}),
      })),
    });
    document.data = data;
  }

  /** Sends a message again (`requeueMessage`): its failed rows are tried afresh. */
  async requeue(context: EffectContext): Promise<void> {
    const { trx, document } = context;
    await retryFailed(trx, document.id);
    await this.record(context);
    this.options.wake?.();
  }

  /**
   * An attempt the worker reports, kept on the message: sent; failed when no other channel still
   * tries; else (or when the machine refuses that) an attempt.
   */
  async settle(report: OutboxAttempt): Promise<void> {
    const { actions } = this.declaration;
    const workflow = this.options.workflow;
    await this.options.db.transaction().execute(async (trx) => {
      const row = await findDocument(trx, this.type, report.messageId, { forUpdate: true });
      if (!row) return;
      let action = report.outcome === 'sent' ? actions.sent : actions.attempted;
      if (report.outcome === 'failed' && !(await stillSending(trx, report.messageId)))
        action = actions.failed;
      const allows = (name: string) => machineAllows(workflow, row, name, OUTBOX_ACTOR);
      if (!allows(action)) action = actions.attempted;
      if (!allows(action)) return;
      const outcome =
        report.outcome === 'sent' ? 'send' : report.outcome === 'retry' ? 'attempt' : 'fail';
      const key = `${this.type}.history.${outcome}`;
      const params = {
        channel: report.channel === 'sms' ? 'SMS' : 'E-mail',
        attempts: String(report.attempts),
        error: (report.error ?? '').slice(0, 300),
      };
      await this.options.documents().actAsSystem(trx, this.type, row.id, action, OUTBOX_ACTOR, {
        key,
        params,
        text: translate(this.options.texts, 'en', key, params),
      });
    });
  }

  private texts(language: Language) {
    return (key: string, params?: Record<string, unknown>) =>
      translate(this.options.texts, language, key, params);
  }

  /** The channels a person is reached on besides the inbox. */
  private channelsFor(contacts: Contacts): Array<'email' | 'sms'> {
    const { channels } = this.options;
    return [
      ...(channels.email && contacts.email ? (['email'] as const) : []),
      ...(channels.sms && contacts.mobile ? (['sms'] as const) : []),
    ];
  }

  /** How the holder is reached now: their account's contacts, else the document's. */
  private async contactsOf(
    trx: Transaction<Database>,
    document: Pick<DocumentDraft, 'id' | 'owner' | 'ownerName' | 'ownerEmail' | 'ownerMobile'>,
  ): Promise<Contacts> {
    const rows = await holderContacts(trx, [document.id, document.owner]);
    const account = rows.find(
      (r) => r.id === document.owner && r.type === this.options.accounts?.type,
    );
    const own = rows.find((r) => r.id === document.id);
    return {
      name: document.ownerName ?? account?.owner_name ?? own?.owner_name ?? null,
      email: account?.owner_email ?? document.ownerEmail ?? own?.owner_email ?? null,
      mobile: account?.owner_mobile ?? document.ownerMobile ?? own?.owner_mobile ?? null,
    };
  }

  /** The outbox rows of a message: its e-mail and its SMS, each where the person has one. */
  private async queue(
    trx: Transaction<Database>,
    messageId: string,
    contacts: Contacts,
    message: Pick<Notice, 'subject' | 'body' | 'language' | 'attachments' | 'sms'> & {
      aboutId: string | null;
    },
  ): Promise<void> {
    const channels = this.channelsFor(contacts);
    if (channels.length === 0) return;
    const t = this.texts(message.language);
    const link = portalUrl(
      this.options.publicUrl,
      `${this.options.workflow.definition.prefix}/view/${messageId}`,
    );
    const common = {
      subject: message.subject,
      language: message.language,
      documentId: message.aboutId,
      messageId,
    };
    await enqueue(
      trx,
      channels.map((channel) =>
        channel === 'email'
          ? {
              ...common,
              channel,
              recipient: contacts.email!,
              body: message.body,
              attachments: message.attachments,
            }
          : {
              ...common,
              channel,
              // One spelling of a number ("+685 721 0005" and "+6857210005" are one phone).
              recipient: normaliseDestination('mobile', contacts.mobile!) ?? contacts.mobile!,
              body: message.sms ?? t(`${this.type}.notice.sms`, { subject: message.subject, link }),
            },
      ),
    );
    this.options.wake?.();
  }
}

/** What posting a notice needs of the action under way. */
export type NoticeContext = Pick<EffectContext, 'trx' | 'workflow' | 'document' | 'principal'>;

/** The owner columns of a message to `owner`, reached at `contacts`. */
function ownedBy(owner: string, contacts: Contacts): DocumentOwner {
  return {
    owner,
    ownerName: contacts.name,
    ownerEmail: contacts.email,
    ownerMobile: contacts.mobile,
  };
}

function compact(contacts: Contacts): Record<string, string> {
  return Object.fromEntries(
    Object.entries(contacts).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
}
