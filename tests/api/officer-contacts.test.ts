import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { officersContacts } from '../support/officers';
import { applicationsThrough, signedPersona, type SignedPersona } from '../support/personas';
import {
  invoiceData,
  submittedSponsorship,
  submittedVisa,
} from '../support/submitted-applications';

/**
 * Officers' e-mails and mobiles are theirs, not the public's. An applicant, a sponsor and a
 * payer reading their own documents (the document, its versions, its history, the timeline
 * drawn from it, their inbox's messages and lists) read "Immigration Service" wherever an
 * officer acted, never an officer's contacts nor, by default, their name; their own lines stay
 * theirs. Officers read each other's details as they were recorded.
 */
const VISAS = '/api/evisa/visa-application';
const SPONSORS = '/api/evisa/sponsor-application';
const INVOICES = '/api/evisa/payment-invoice';
const INBOX = '/api/evisa/inbox-message';
const SERVICE = 'system:immigration-service';

type Line = { action: string; name: string; email: string | null; mobile: string | null };

describe.each(databaseKinds())('officers\u2019 contacts on %s', (kind) => {
  let api: ApiHarness;
  let applicant: SignedPersona;
  let sponsor: SignedPersona;
  let payer: SignedPersona;
  let verifier: SignedPersona;
  let validator: SignedPersona;
  const documents = {} as Record<'visa' | 'sponsorship' | 'invoice' | 'paidByInvoice', string>;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });
  const ok = async (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    token: string,
    body?: unknown,
  ) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as { id: string; version: number; number: string; status: string };
  };
  /** Initiated and paid on the sandbox gateway, as its holder pays. */
  const pay = async (
    base: string,
    type: string,
    doc: { id: string; version: number },
    who: SignedPersona,
  ) => {
    await ok('POST', `${base}/${doc.id}/actions/initiate`, who.token, {
      version: doc.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, type, doc.id, who.token);
    return ok('GET', `${base}/${doc.id}`, who.token);
  };

  beforeAll(async () => {
    api = await startApiServer(kind);
    [applicant, sponsor, payer, verifier, validator] = await Promise.all([
      signedPersona(api, 'applicant'),
      signedPersona(api, 'sponsor.org'),
      signedPersona(api, 'agent'),
      signedPersona(api, 'verifier'),
      signedPersona(api, 'validator'),
    ]);
    const applications = applicationsThrough(api);

    // The applicant's visa: paid, assigned, queried (a notice in their inbox), then written to.
    const visa = await pay(
      VISAS,
      'visa-application',
      await submittedVisa(applications, applicant.token),
      applicant,
    );
    const assigned = await ok('POST', `${VISAS}/${visa.id}/actions/assign`, verifier.token, {
      version: visa.version,
      assignee: 'verifier',
    });
    await ok('POST', `${VISAS}/${visa.id}/actions/query`, verifier.token, {
      version: assigned.version,
      notes: 'Please send a clearer passport scan',
    });
    await ok('POST', INBOX, verifier.token, {
      action: 'write',
      data: {
        message: { subject: 'Your passport', message: 'Please bring it on Monday.' },
        about: { type: 'visa-application', id: visa.id },
      },
    });
    documents.visa = visa.id;

    // The sponsor's application: paid, then queried by the verification officer.
    const sponsorship = await pay(
      SPONSORS,
      'sponsor-application',
      await submittedSponsorship(applications, sponsor.token),
      sponsor,
    );
    await ok('POST', `${SPONSORS}/${sponsorship.id}/actions/query`, verifier.token, {
      version: sponsorship.version,
      data: {},
      notes: 'Please upload the certificate again',
    });
    documents.sponsorship = sponsorship.id;

    // The payer's invoice for their own application: its advice sent, then queried.
    const own = await submittedVisa(applications, payer.token);
    const invoice = await ok('POST', INVOICES, payer.token, {
      action: 'create',
      data: invoiceData([own.number]),
    });
    const advice = await applications.uploadPdf(payer.token);
    const sent = await ok('POST', `${INVOICES}/${invoice.id}/actions/upload`, payer.token, {
      version: invoice.version,
      data: { payment: { advice } },
    });
    await ok('POST', `${INVOICES}/${invoice.id}/actions/query`, verifier.token, {
      version: sent.version,
      data: {},
      notes: 'The advice is unreadable',
    });
    documents.invoice = invoice.id;
    documents.paidByInvoice = own.id;
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Every answer a reader gets about one of their documents and its messages, as text. */
  async function answersAbout(base: string, id: string, reader: SignedPersona): Promise<string[]> {
    const texts: string[] = [];
    const get = async (url: string) => {
      const response = await call('GET', url, reader.token);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      texts.push(response.body);
      return response.json() as unknown;
    };
    await get(`${base}/${id}`);
    const versions = (await get(`${base}/${id}/versions`)) as Array<{ version: number }>;
    for (const { version } of versions) await get(`${base}/${id}/versions/${version}`);
    await get(`${base}/${id}/history`);
    const inbox = await call('PATCH', INBOX, reader.token, { list: 'find' });
    texts.push(inbox.body);
    for (const message of (inbox.json() as { items: Array<{ id: string }> }).items) {
      await get(`${INBOX}/${message.id}`);
      await get(`${INBOX}/${message.id}/history`);
    }
    return texts;
  }

  const publicReaders = () =>
    [
      ['the applicant', VISAS, documents.visa, applicant],
      ['the sponsor', SPONSORS, documents.sponsorship, sponsor],
      ['the payer', INVOICES, documents.invoice, payer],
    ] as const;

  it('shows an applicant, a sponsor and a payer no officer\u2019s e-mail, mobile or name', async () => {
    const contacts = officersContacts();
    expect(contacts).toContain('verifier@immigration.example');
    expect(contacts).toContain('+685 7210005');
    for (const [who, base, id, reader] of publicReaders()) {
      const texts = await answersAbout(base, id, reader);
      for (const text of texts) {
        for (const contact of contacts)
          expect(text, `${who} reads ${contact}`).not.toContain(contact);
        expect(text, `${who} reads the officer's name`).not.toContain('Tavita');
      }
    }
  });

  it('names the service for what others did, and leaves the reader their own lines', async () => {
    for (const [, base, id, reader] of publicReaders()) {
      const history = (await ok('GET', `${base}/${id}/history`, reader.token)) as unknown as Line[];
      const theirs = history.filter((line) => line.name === reader.name);
      expect(theirs.length).toBeGreaterThan(0);
      for (const line of theirs) expect(line.email).toBe(reader.email);
      const query = history.find((line) => line.action === 'query');
      expect(query).toMatchObject({ name: SERVICE, email: null, mobile: null });
      const read = (await ok('GET', `${base}/${id}`, reader.token)) as unknown as {
        updatedBy: string;
      };
      expect(read.updatedBy).toBe(SERVICE);
    }
    // The message the officer wrote comes from the service.
    const messages = (
      await call('PATCH', INBOX, applicant.token, {
        list: 'find',
        filter: [{ field: 'subject', criterion: 'equals', value: 'Your passport' }],
      })
    ).json() as { items: Array<{ id: string; fields: { sender?: string } }> };
    expect(messages.items).toHaveLength(1);
    expect(messages.items[0]?.fields.sender).toBe('Immigration service');
  });

  it('shows officers each other\u2019s details, and to whom a case was assigned', async () => {
    // The validator sees every visa application (a see-all role) and who queried it.
    const history = (await ok(
      'GET',
      `${VISAS}/${documents.visa}/history`,
      validator.token,
    )) as unknown as Array<Line & { assignedTo?: string }>;
    expect(history.find((line) => line.action === 'query')).toMatchObject({
      name: 'Tavita Verifier',
      email: 'verifier@immigration.example',
      mobile: '+685 7210005',
    });
    expect(history.find((line) => line.action === 'assign')?.assignedTo).toBe('Tavita Verifier');
    // The applicant is not told to whom.
    const theirs = (await ok(
      'GET',
      `${VISAS}/${documents.visa}/history`,
      applicant.token,
    )) as unknown as Array<Line & { assignedTo?: string }>;
    expect(theirs.find((line) => line.action === 'assign')).not.toHaveProperty('assignedTo');
    const sponsorship = (await ok(
      'GET',
      `${SPONSORS}/${documents.sponsorship}/history`,
      verifier.token,
    )) as unknown as Line[];
    expect(sponsorship.find((line) => line.action === 'query')?.email).toBe(
      'verifier@immigration.example',
    );
  });

  it("gives the service's own notes in the reader's language, whoever wrote them", async () => {
    // The invoice's note on the application it names: a page of the application may not have
    // the invoice's texts, so the answer carries the words too.
    const read = async (language: string) =>
      (
        await api.call('GET', `${VISAS}/${documents.paidByInvoice}/history`, {
          token: payer.token,
          headers: { 'accept-language': language },
        })
      ).json() as Array<{ action: string; notes: string | null; notesKey?: string }>;
    const invoice = (await ok('GET', `${INVOICES}/${documents.invoice}`, payer.token)).number;
    expect((await read('fr')).find((line) => line.action === 'include')).toMatchObject({
      notesKey: 'payment-invoice.history.linked',
      notes: `Facture de paiement ${invoice}`,
    });
    expect((await read('en')).find((line) => line.action === 'include')?.notes).toBe(
      `Payment invoice ${invoice}`,
    );
  });
});
