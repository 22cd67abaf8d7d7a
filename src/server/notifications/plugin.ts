import type { FastifyInstance } from 'fastify';
import { DEVELOPER_OUTBOX_ROLE } from '../../core/definitions/developer-pages';
import { requireAnyRole } from '../auth/plugin';
import { normaliseDestination } from '../challenge/service';
import type { ServerConfig } from '../config';
import { httpSmsProvider, smtpMailProvider } from './providers';
import { withNotificationTables } from './tables';
import { startOutbox, type OutboxOptions, type OutboxWorker } from './worker';

/** Providers given directly (tests) win; otherwise they are built from smtpUrl and smsUrl. */
export interface NotificationsOptions extends Pick<
  OutboxOptions,
  'db' | 'mail' | 'sms' | 'intervalMs' | 'backoffMs' | 'onAttempt' | 'around'
> {
  config: Pick<ServerConfig, 'smtpUrl' | 'mailFrom' | 'smsUrl' | 'smsToken' | 'production'>;
  /** Receives the worker once started (tests, or an admin endpoint). */
  onWorker?: (worker: OutboxWorker) => void;
}

/** Delivers the outbox and, outside production, shows it to `outbox-read` (it holds codes). */
export async function notificationsPlugin(
  app: FastifyInstance,
  options: NotificationsOptions,
): Promise<void> {
  const { config } = options;
  const mail =
    options.mail !== undefined
      ? options.mail
      : config.smtpUrl
        ? smtpMailProvider({ url: config.smtpUrl, from: config.mailFrom })
        : null;
  const sms =
    options.sms !== undefined
      ? options.sms
      : config.smsUrl
        ? httpSmsProvider({ url: config.smsUrl, token: config.smsToken })
        : null;
  if (!mail || !sms)
    app.log.info(
      { mail: Boolean(mail), sms: Boolean(sms) },
      'outbox: messages without a provider are KEPT in the outbox, not sent',
    );
  const { db, intervalMs, backoffMs, onAttempt, around } = options;
  const worker = startOutbox({
    db,
    mail,
    sms,
    log: app.log,
    intervalMs,
    backoffMs,
    onAttempt,
    around,
  });
  options.onWorker?.(worker);
  // preClose: the worker stops before any onClose hook (such as the database's) runs.
  app.addHook('preClose', async () => worker.stop());

  if (config.production) return;

  app.get<{ Querystring: { recipient?: string; channel?: string } }>(
    '/api/outbox',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            recipient: { type: 'string', maxLength: 320 },
            channel: { type: 'string', enum: ['inbox', 'email', 'sms'] },
          },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      requireAnyRole(request, [DEVELOPER_OUTBOX_ROLE]);
      let query = withNotificationTables(db)
        .selectFrom('outbox')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(100);
      const recipient = request.query.recipient?.trim();
      if (recipient) {
        // A number or address as people type it ("+685 700 0001") finds what was sent to it.
        const normalised =
          normaliseDestination(recipient.includes('@') ? 'email' : 'mobile', recipient) ??
          recipient;
        query = query.where('recipient', 'in', [...new Set([recipient, normalised])]);
      }
      if (request.query.channel) query = query.where('channel', '=', request.query.channel);
      const rows = await query.execute();
      return reply.header('cache-control', 'no-store').send({
        items: rows.map(({ attachments, language: _language, message_id: _message, ...row }) => ({
          ...row,
          attachments: (attachments ?? []).map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
          })),
        })),
      });
    },
  );
}
