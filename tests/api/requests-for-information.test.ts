import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { applicationsThrough, signedPersona, type SignedPersona } from '../support/personas';
import { submittedVisa } from '../support/submitted-applications';
import type { RequestRoundView } from '../../src/core/documents/requests';

/**
 * Requests for information (docs/workflows.md): the verifier's query asks for items, one from
 * the attachment catalogue and one in free text, each with a due date; the applicant sees them
 * on the document, a reply without the mandatory file is refused naming it in the reader's
 * language, a reply answering both closes the round, and the officer sees the answers. Nobody
 * else sees them; a code the catalogue lacks, a catalogue not declared or a past date is a 400.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
/** The calendar day `days` from now (UTC), as the requests' due dates are written. */
const inDays = (days: number) => new Date(Date.now() + days * 864e5).toISOString().slice(0, 10);
/** A queried application lapses after 28 days (its `responseDue` timer): the reply date. */
const replyDate = (locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(Date.now() + 28 * 864e5),
  );

type View = {
  id: string;
  version: number;
  status: string;
  data: Record<string, unknown>;
  requests?: RequestRoundView;
};
type Problem = {
  error: {
    code: string;
    message: string;
    fields?: Array<{ path: string; rule: string; message: string }>;
  };
};

describe.each(databaseKinds())('requests for information on %s', (kind) => {
  let api: ApiHarness;
  let verifier: SignedPersona;
  let applicant: SignedPersona;
  let stranger: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    [verifier, applicant] = await Promise.all([
      signedPersona(api, 'verifier'),
      signedPersona(api, 'applicant'),
    ]);
    // Another applicant, with the applicant's roles: sees only their own documents.
    stranger = await api.issuer.token({
      sub: 'another-applicant',
      name: 'Other',
      groups: ['visa-application-read', 'visa-application-submit', 'visa-application-update'],
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (
    method: 'GET' | 'POST',
    url: string,
    token: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => api.call(method, url, { token, body, headers });

  /** A visa application of the demo applicant, submitted and paid: it waits for verification. */
  async function paidApplication(): Promise<View> {
    const submitted = await submittedVisa(applicationsThrough(api), applicant.token);
    const initiated = await call(
      'POST',
      `${BASE}/${submitted.id}/actions/initiate`,
      applicant.token,
      {
        version: submitted.version,
        data: { termsAccepted: true },
      },
    );
    expect(initiated.statusCode, initiated.body).toBe(200);
    await payOnGateway(api, TYPE, submitted.id, applicant.token);
    const paid = (await call('GET', `${BASE}/${submitted.id}`, verifier.token)).json() as View;
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    return paid;
  }

  const query = (doc: View, requests: unknown[], headers?: Record<string, string>) =>
    call(
      'POST',
      `${BASE}/${doc.id}/actions/query`,
      verifier.token,
      { version: doc.version, notes: 'Your bank statements are missing.', requests },
      headers,
    );

  const BANK = {
    catalog: 'attachment',
    code: 'BANK',
    kind: 'document',
    mandatory: true,
    due: inDays(20),
  };
  const PURPOSE = {
    text: 'Explain the purpose of your trip',
    kind: 'answer',
    mandatory: true,
    due: inDays(10),
  };

  it('refuses a code the catalogue lacks, an undeclared catalogue and a past due date, with a translated 400', async () => {
    const doc = await paidApplication();
    const refusals: Array<[unknown, string, string, string]> = [
      [
        { ...BANK, code: 'NOPE' },
        '/requests/0/code',
        'requestCodeUnknown',
        'No entry of this catalogue has the code "NOPE" today',
      ],
      // A passport code of another document type is no entry of the declared ones (VIS only).
      [
        { ...BANK, code: 'JOB' },
        '/requests/0/code',
        'requestCodeUnknown',
        'No entry of this catalogue has the code "JOB" today',
      ],
      [
        { ...BANK, catalog: 'country', code: 'WS' },
        '/requests/0/catalog',
        'requestCatalogUnknown',
        'Choose a catalogue this request may name',
      ],
      [
        { ...PURPOSE, due: '2001-01-01' },
        '/requests/0/due',
        'requestDuePast',
        'The due date cannot be in the past',
      ],
      // Nothing is due after the reply itself, which lapses at 28 days.
      [
        { ...PURPOSE, due: inDays(40) },
        '/requests/0/due',
        'requestDueAfterReply',
        `The due date cannot be after the reply date, ${replyDate('en-GB')}`,
      ],
      [
        { kind: 'answer', mandatory: true, due: inDays(5) },
        '/requests/0/text',
        'required',
        'This field is required',
      ],
    ];
    for (const [item, path, rule, message] of refusals) {
      const refused = await query(doc, [item]);
      expect(refused.statusCode, refused.body).toBe(400);
      const { error } = refused.json() as Problem;
      expect(error.fields).toContainEqual({ path, rule, message });
    }
    const french = await query(doc, [{ ...BANK, code: 'NOPE' }], { 'accept-language': 'fr' });
    expect((french.json() as Problem).error.fields?.[0]?.message).toBe(
      "Aucune entrée de ce catalogue n'a le code « NOPE » aujourd'hui",
    );
    const late = await query(doc, [{ ...PURPOSE, due: inDays(40) }], { 'accept-language': 'fr' });
    expect((late.json() as Problem).error.fields?.[0]?.message).toBe(
      `L'échéance ne peut pas être après la date de réponse, le ${replyDate('fr-FR')}`,
    );
    // Nothing moved.
    const after = (await call('GET', `${BASE}/${doc.id}`, verifier.token)).json() as View;
    expect(after.status).toBe('PAID FOR VERIFICATION');
    expect(after.version).toBe(doc.version);
    expect(after.requests).toBeUndefined();
  });

  it('asks for two items, refuses a reply without the mandatory file naming it, and shows the answers once given', async () => {
    const doc = await paidApplication();
    const queried = await query(doc, [BANK, PURPOSE]);
    expect(queried.statusCode, queried.body).toBe(200);
    expect((queried.json() as View).status).toBe('QUERIED');

    // The applicant sees the question and both items, open.
    const seen = (await call('GET', `${BASE}/${doc.id}`, applicant.token)).json() as View;
    expect(seen.requests).toMatchObject({
      round: 1,
      open: true,
      question: 'Your bank statements are missing.',
      items: [
        {
          catalog: 'attachment',
          code: 'BANK',
          label: {
            en: 'Bank statements for the last three months',
            fr: 'Relevés bancaires des trois derniers mois',
          },
          kind: 'document',
          mandatory: true,
          due: BANK.due,
          answer: null,
          media: null,
        },
        {
          catalog: null,
          label: { en: 'Explain the purpose of your trip' },
          kind: 'answer',
          due: PURPOSE.due,
          answeredAt: null,
        },
      ],
    });
    const [bank, purpose] = seen.requests!.items;

    // Someone who cannot see the document sees nothing of it, its requests neither.
    const hidden = await call('GET', `${BASE}/${doc.id}`, stranger);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain('Explain the purpose');

    // A reply without the mandatory file is refused, naming it, in English and in French.
    const reply = (answers: unknown[], version: number, headers?: Record<string, string>) =>
      call(
        'POST',
        `${BASE}/${doc.id}/actions/submit-reply`,
        applicant.token,
        { version, data: seen.data, answers },
        headers,
      );
    const textOnly = [{ item: purpose!.id, text: 'A family visit' }];
    const missing = await reply(textOnly, seen.version);
    expect(missing.statusCode, missing.body).toBe(400);
    expect((missing.json() as Problem).error).toMatchObject({
      code: 'REQUESTS_MISSING',
      message:
        'Answer every item asked for before sending your reply: “Bank statements for the last three months”',
    });
    const inFrench = await reply(textOnly, seen.version, { 'accept-language': 'fr' });
    expect((inFrench.json() as Problem).error.message).toBe(
      "Répondez à chaque élément demandé avant d'envoyer votre réponse : “Relevés bancaires des trois derniers mois”",
    );
    // Refused whole: the answer given beside it was not kept.
    const unchanged = (await call('GET', `${BASE}/${doc.id}`, applicant.token)).json() as View;
    expect(unchanged.version).toBe(seen.version);
    expect(unchanged.requests?.items[1]?.answer).toBeNull();

    // An item of no round, and a file that is not the applicant's, are refused.
    const unknownItem = await reply(
      [{ item: '00000000-0000-4000-8000-000000000000', text: 'x' }],
      seen.version,
    );
    expect((unknownItem.json() as Problem).error.fields?.[0]?.rule).toBe('requestItemUnknown');
    const othersFile = await applicationsThrough(api).uploadPdf(stranger);
    const notOwned = await reply([{ item: bank!.id, media: othersFile.id }], seen.version);
    expect(notOwned.statusCode).toBe(400);
    expect((notOwned.json() as Problem).error.fields?.[0]?.rule).toBe('fileUnknown');

    // `amend` keeps an answer without sending the reply.
    const saved = await call('POST', `${BASE}/${doc.id}/actions/amend`, applicant.token, {
      version: seen.version,
      data: seen.data,
      answers: textOnly,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const amended = saved.json() as View;
    expect(amended.status).toBe('QUERIED');
    expect(amended.requests?.open).toBe(true);
    expect(amended.requests?.items[1]).toMatchObject({
      answer: 'A family visit',
      answeredBy: applicant.id,
    });

    // The file given, the reply goes through and the round closes.
    const file = await applicationsThrough(api).uploadPdf(applicant.token);
    const replied = await reply([{ item: bank!.id, media: file.id }], amended.version);
    expect(replied.statusCode, replied.body).toBe(200);
    expect((replied.json() as View).status).toBe('REPLIED FOR VERIFICATION');

    // The officer sees both answered, and may open the file.
    const officer = (await call('GET', `${BASE}/${doc.id}`, verifier.token)).json() as View;
    expect(officer.requests).toMatchObject({
      open: false,
      items: [
        { id: bank!.id, media: { id: file.id, name: 'scan.pdf', type: 'application/pdf' } },
        { id: purpose!.id, answer: 'A family visit' },
      ],
    });
    expect(officer.requests?.items.every((item) => item.answeredAt !== null)).toBe(true);
    const download = await call('GET', `/api/media/${String(file.id)}`, verifier.token);
    expect(download.statusCode).toBe(200);

    // A query of no items opens no round: answers to the closed one are refused.
    const again = await query(officer, []);
    expect(again.statusCode, again.body).toBe(200);
    const requeried = again.json() as View;
    expect(requeried.requests?.open).toBe(false);
    const late = await call('POST', `${BASE}/${doc.id}/actions/submit-reply`, applicant.token, {
      version: requeried.version,
      data: seen.data,
      answers: [{ item: purpose!.id, text: 'Changed' }],
    });
    expect(late.statusCode, late.body).toBe(409);
    expect((late.json() as Problem).error.code).toBe('REQUESTS_CLOSED');
  });
});
