import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

const PASSWORD = 'Frangipani-Bloom-2047!';

/** An agent registering: the agent (and optionally the agency) they work for, one address. */
const agent = (login: string, organisation: Record<string, string>) => ({
  identity: { loginIdentifier: login, firstName: 'Malia', lastName: 'Ioane' },
  contact: { emailAddress: `${login}@example.org`, primaryMobileNo: '+685 7004411' },
  organisation: { userType: 'AGENT', ...organisation },
  addresses: [
    { addressType: 'BUSINESS', addressLine1: '4 Beach Road', city: 'Apia', country: 'WS' },
  ],
});

/**
 * The confirmation channels of registration (specification 001, section 9: mobile on; e-mail,
 * agency, agent and trader off unless switched on). With the agency, agent or trader channel the
 * code goes to the contact of the catalogue entry the registering person names (an agent's
 * code goes to the agent they work for), and only a registration naming that same entry, through
 * that same channel, is accepted with it.
 */
describe.each(databaseKinds())('registration confirmed through each channel on %s', (kind) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiServer(kind, {
      confirmationChannels: { mobile: true, email: true, agency: true, agent: true, trader: true },
    });
  });
  afterAll(async () => api?.close());

  /** Asks for a code through a channel and reads it where it went (SMS or e-mail). */
  const codeThrough = async (channel: string, destination: string, recipient: string) => {
    const sent = await api.call('POST', '/api/challenge', {
      body: { channel, destination, purpose: 'registration' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const row = await api.tables
      .selectFrom('outbox')
      .select(['body'])
      .where('recipient', '=', recipient)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return {
      challengeId: sent.json().challengeId as string,
      code: /\b(\d{6})\b/.exec(row?.body ?? '')?.[1] ?? '',
    };
  };
  const register = (body: unknown) =>
    api.call('POST', '/api/connectid/registration', { body, headers: { locale: 'fr' } });

  it('names the field of each catalogue channel and offers the countries of an address', async () => {
    const options = (await api.call('GET', '/api/connectid/registration/options')).json();
    expect(options.confirmationFields).toEqual({
      agency: 'agencyNo',
      agent: 'agentNo',
      trader: 'traderNo',
    });
    expect(options.countries).toEqual(
      // Named in English, and in French for a page in French.
      expect.arrayContaining([
        {
          code: 'WS',
          name: expect.stringMatching(/Samoa/),
          i18n: { fr: { name: expect.stringMatching(/Samoa/) } },
        },
      ]),
    );
  });

  it('sends the code to the agent the person names and registers them with it', async () => {
    // The agent AG001's mobile number in the agent catalogue.
    const { challengeId, code } = await codeThrough('agent', 'AG001', '+64215550101');
    expect(code).toMatch(/^\d{6}$/);
    const wrongEntry = await register({
      challengeId,
      code,
      channel: 'agent',
      password: PASSWORD,
      data: agent('malia.other', { agentNo: 'AG002' }),
    });
    expect(wrongEntry.statusCode).toBe(400);
    expect(wrongEntry.json().error.fields).toEqual([
      expect.objectContaining({ path: '/code', rule: 'confirmationCode' }),
    ]);
    const wrongChannel = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: agent('malia.mobile', { agentNo: 'AG001' }),
    });
    expect(wrongChannel.statusCode).toBe(400);

    const created = await register({
      challengeId,
      code,
      channel: 'agent',
      password: PASSWORD,
      data: agent('malia.ioane', { agentNo: 'AG001' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().status).toBe('REGISTERED');
  });

  it('sends the code to the agency named, which now has a contact', async () => {
    const { challengeId, code } = await codeThrough('agency', 'LAB', '+6857230101');
    const created = await register({
      challengeId,
      code,
      channel: 'agency',
      password: PASSWORD,
      data: agent('tavita.agency', { agencyNo: 'LAB', agentNo: 'AG002' }),
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('sends the code by e-mail when the person chooses it', async () => {
    const { challengeId, code } = await codeThrough(
      'email',
      'Sefa.Mail@Example.org',
      'sefa.mail@example.org',
    );
    const data = agent('sefa.mail', { agentNo: 'AG001' });
    data.contact.emailAddress = 'sefa.mail@example.org';
    const created = await register({
      challengeId,
      code,
      channel: 'email',
      password: PASSWORD,
      data,
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('refuses a channel that is not one, in the person’s language', async () => {
    const refused = await register({
      challengeId: 'x',
      code: '123456',
      channel: 'pigeon',
      password: PASSWORD,
      data: agent('no.pigeon', { agentNo: 'AG001' }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('CHALLENGE_CHANNEL_OFF');
  });
});
