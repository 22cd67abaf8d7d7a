import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { applicationsThrough } from '../support/personas';
import { submittedVisa } from '../support/submitted-applications';

const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;

interface View {
  id: string;
  version: number;
  status: string;
  allowedActions: string[];
}

/** The roles both officers hold: the whole of a case, from forwarding to approval. */
const OFFICER_ROLES = [
  'search',
  'read',
  'forward',
  'issue',
  'escalate',
  'approve',
  'return',
  'grant',
].map((role) => `${TYPE}-${role}`);

/**
 * Separation of duties (docs/workflows.md): the visa workflow declares that `approve`, `grant`
 * and `issue` are not taken by the officer who verified or forwarded the application. Two
 * officers hold the same roles: the one who forwarded is refused the approval (403, said in the
 * reader's language, nothing changed) and is not offered it, the other is offered it and takes it.
 */
describe.each(databaseKinds())('separation of duties on %s', (kind) => {
  let api: ApiHarness;
  let applicant: string;
  let first: string;
  let second: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    applicant = await api.tokenFor(
      ['submit', 'read', 'update', 'pay'].map((role) => `${TYPE}-${role}`),
      { sub: 'applicant-duties', name: 'Ana Duties' },
    );
    first = await api.tokenFor(OFFICER_ROLES, { sub: 'officer-first', name: 'First Officer' });
    second = await api.tokenFor(OFFICER_ROLES, { sub: 'officer-second', name: 'Second Officer' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });
  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as View;
  };
  const read = (id: string, token: string) => ok('GET', `${BASE}/${id}`, token);

  /** An application paid for, waiting for the verification officers. */
  async function paidApplication(): Promise<View> {
    const submitted = await submittedVisa(applicationsThrough(api), applicant);
    await ok('POST', `${BASE}/${submitted.id}/actions/initiate`, applicant, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, TYPE, submitted.id, applicant, 'Ana Duties');
    const paid = await read(submitted.id, first);
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    return paid;
  }

  it('refuses the approval to the officer who forwarded the case and lets another take it', async () => {
    const paid = await paidApplication();
    const forwarded = await ok('POST', `${BASE}/${paid.id}/actions/forward`, first, {
      version: paid.version,
    });
    expect(forwarded.status).toBe('FORWARDED');
    // The answer to the forward already leaves out what the forwarder may no longer take.
    expect(forwarded.allowedActions).not.toContain('issue');
    expect(forwarded.allowedActions).toContain('escalate');
    expect((await read(paid.id, second)).allowedActions).toContain('issue');

    const escalated = await ok('POST', `${BASE}/${paid.id}/actions/escalate`, second, {
      version: forwarded.version,
    });
    expect(escalated.status).toBe('ESCALATED');

    // The forwarder holds the approve role, yet is not offered the approval of this case.
    const seenByFirst = await read(paid.id, first);
    expect(seenByFirst.allowedActions).not.toContain('approve');
    expect(seenByFirst.allowedActions).toContain('return');
    // It still waits in the approval list, which both officers open.
    for (const token of [first, second]) {
      const list = await call('PATCH', BASE, token, { list: 'approval' });
      expect(list.statusCode, list.body).toBe(200);
      expect((list.json() as { items: Array<{ id: string }> }).items.map((i) => i.id)).toContain(
        paid.id,
      );
    }

    // Taken anyway: refused with the rule named, in the reader's language; nothing changed.
    for (const [language, message] of [
      ['en', 'You took Forward on this document; Approve must be taken by another officer.'],
      [
        'fr',
        'Vous avez effectué « Transmettre » sur ce document ; « Approuver » doit être effectué par un autre agent.',
      ],
    ] as const) {
      const refused = await api.call('POST', `${BASE}/${paid.id}/actions/approve`, {
        token: first,
        body: { version: escalated.version },
        headers: { 'accept-language': language },
      });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error).toMatchObject({ code: 'SEPARATION_OF_DUTIES', message });
    }
    // An action the status does not allow stays a 409, whoever asks.
    const impossible = await call('POST', `${BASE}/${paid.id}/actions/issue`, first, {
      version: escalated.version,
    });
    expect(impossible.statusCode, impossible.body).toBe(409);
    const after = await read(paid.id, second);
    expect(after).toMatchObject({ status: 'ESCALATED', version: escalated.version });

    // The other officer holding the same roles is offered it and takes it.
    expect(after.allowedActions).toContain('approve');
    const approved = await ok('POST', `${BASE}/${paid.id}/actions/approve`, second, {
      version: after.version,
    });
    expect(approved.status).toBe('GRANTED');
  });

  it('refuses the grant to the officer who verified the case, not to one who only read it', async () => {
    const paid = await paidApplication();
    const verified = await ok('POST', `${BASE}/${paid.id}/actions/verify`, first, {
      version: paid.version,
    });
    expect(verified.status).toBe('VERIFIED');
    expect(verified.allowedActions).not.toContain('grant');
    const grant = { version: verified.version, data: { issuance: { placeOfIssue: 'Apia' } } };
    const refused = await call('POST', `${BASE}/${paid.id}/actions/grant`, first, grant);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.message).toBe(
      'You took Verify on this document; Grant must be taken by another officer.',
    );
    expect((await read(paid.id, second)).allowedActions).toContain('grant');
    const granted = await ok('POST', `${BASE}/${paid.id}/actions/grant`, second, grant);
    expect(granted.status).toBe('GRANTED');
  });
});
