import { describeGeneratedWalk } from '../support/generated-walk';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';
import { visaApplication } from '../support/visa-data';

/**
 * The inbox message's machine (workflows/inbox-message.json), generated: every status reached,
 * every action tried in every status with every role and none. Each message is written to the
 * holder of a visa application of its own (the walk's owner, who writes to themselves); its
 * delivery is taken the way it happens: the outbox worker sending its e-mail to a real SMTP
 * server that accepts it (SENT) or refuses it (an attempt kept, FAILED after the fifth).
 */
let smtp: TestSmtpServer | undefined;

describeGeneratedWalk({
  type: 'inbox-message',
  dataVariants: [
    {
      message: { subject: 'Walk', message: 'A message of the walk' },
      about: { type: 'visa-application', id: '00000000-0000-4000-8000-000000000000' },
    },
  ],
  async server() {
    smtp = await startSmtpServer();
    const server = smtp;
    return {
      config: { smtpUrl: server.url, smsUrl: undefined },
      outbox: { intervalMs: 0, backoffMs: () => 0 },
      close: () => server.close(),
    };
  },
  async freshData(api, owner) {
    const token = await api.issuer.token({
      sub: owner,
      name: 'Walker',
      email: 'walker@example.org',
      groups: ['visa-application-submit', 'visa-application-read'],
    });
    const stored = await api.call('POST', '/api/evisa/visa-application', {
      token,
      body: { data: visaApplication('VIS', 'VV30') },
    });
    if (stored.statusCode !== 201) throw new Error(`visa: ${stored.body}`);
    return {
      message: { subject: 'Walk', message: 'A message of the walk' },
      about: { type: 'visa-application', id: (stored.json() as { id: string }).id },
    };
  },
  systemSteps: (api) => async (doc, action) => {
    const read = async () => {
      const token = await api.issuer.token({
        sub: 'owner-walk',
        name: 'Walker',
        groups: ['inbox-message-read'],
      });
      return (await api.call('GET', `/api/evisa/inbox-message/${doc.id}`, { token })).json() as {
        status: string;
      };
    };
    smtp!.refuse = action !== 'send';
    // One attempt, or (to FAILED) as many as the worker makes before it gives up.
    do await api.server.outbox.runOnce();
    while (action === 'fail' && (await read()).status !== 'FAILED');
    smtp!.refuse = false;
    return read();
  },
  payloadFor(action, data) {
    return action === 'write' ? { data } : {};
  },
  minimumCases: 60,
});
