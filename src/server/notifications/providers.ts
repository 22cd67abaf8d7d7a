import type { Transporter } from 'nodemailer';

/** A file attached to an e-mail. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

export interface SmsMessage {
  /** The recipient's number as stored (E.164 when it came through a confirmation code). */
  to: string;
  text: string;
}

/** Sends one message; resolves when the provider accepted it, rejects otherwise. */
interface Provider<Message> {
  send(message: Message): Promise<void>;
  close?(): Promise<void> | void;
}
export type MailProvider = Provider<MailMessage>;
export type SmsProvider = Provider<SmsMessage>;

export interface SmtpOptions {
  /** smtp://user:pass@host:port or smtps://... */
  url: string;
  from: string;
  /** Socket timeouts, so a hung server cannot hold a claimed message for long. */
  timeoutMs?: number;
}

/** E-mail through any SMTP server (nodemailer, loaded with the first message). */
export function smtpMailProvider(options: SmtpOptions): MailProvider {
  const timeout = options.timeoutMs ?? 30_000;
  let transport: Promise<Transporter> | undefined;
  const transportOnce = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(
        {
          url: options.url,
          connectionTimeout: timeout,
          greetingTimeout: timeout,
          socketTimeout: timeout,
        },
        { from: options.from },
      ),
    ));
  return {
    async send(message) {
      await (await transportOnce()).sendMail(message);
    },
    close: async () => {
      if (transport) (await transport).close();
    },
  };
}

export interface HttpSmsOptions {
  url: string;
  token?: string;
  timeoutMs?: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** SMS through an HTTP endpoint: POST {to, text} as JSON with the bearer token; 2xx accepted. */
export function httpSmsProvider(options: HttpSmsOptions): SmsProvider {
  const doFetch = options.fetch ?? fetch;
  return {
    async send(message) {
      const response = await doFetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        body: JSON.stringify({ to: message.to, text: message.text }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      // Drain the body so the connection is reused, but keep only a little of it for the error.
      const answer = await response.text().catch(() => '');
      if (!response.ok)
        throw new Error(`SMS provider answered ${response.status}: ${answer.slice(0, 200)}`);
    },
  };
}
