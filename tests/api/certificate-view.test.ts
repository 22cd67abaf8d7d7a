import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateView } from '../../src/core/documents/certificate-view';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { CHILD, paidVisa, VISA_APPLICANT_ROLES, visaOfficers } from '../support/granted-visa';
import { applicationsThrough } from '../support/personas';
import { visaApplication } from '../support/visa-data';

/**
 * A certificate as a web page reads it (`GET .../certificate/view[/{number}]`): what the PDF
 * says, as text in its holder's language, to the people and in the statuses the PDF is given to.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;

type View = {
  id: string;
  version: number;
  status: string;
  number: string | null;
  data: Record<string, unknown> & { dependants?: Array<{ visaNumber?: string }> };
};

const conditions = [
  { code: 'C1', description: 'Must not work more than 20 hours a week' },
  { code: 'C2', description: 'Must leave before the expiry date' },
];

/** One field of the answer by its label, wherever it is. */
const field = (view: CertificateView, label: string) =>
  view.sections.flatMap((section) => section.fields).find((one) => one.label === label);

describe.each(databaseKinds())('a certificate as a web page on %s', (kind) => {
  let api: ApiHarness;
  let applicant: string;
  let other: string;
  let verifier: string;
  let validator: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    applicant = await api.tokenFor(VISA_APPLICANT_ROLES, {
      sub: 'applicant-web-evisa',
      name: 'Ana Tui',
      email: 'ana.tui@example.org',
    });
    other = await api.tokenFor(VISA_APPLICANT_ROLES, { sub: 'applicant-someone-else' });
    ({ verifier, validator } = await visaOfficers(api));
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (url: string, token: string, language = 'en') =>
    api.call('GET', url, { token, headers: { 'accept-language': language } });
  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await api.call(method, url, { token, body });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as View;
  };

  /** A work visa for the applicant and a child, paid by card; `language` is the holder's. */
  async function paidFamily(language: 'en' | 'fr'): Promise<View> {
    const base = visaApplication('WRK', 'WV1Y');
    const data = {
      ...base,
      contact: { ...base.contact, preferredLanguage: language },
      dependants: [CHILD],
    };
    return paidVisa<View>(applicationsThrough(api), applicant, data, (id) =>
      payOnGateway(api, TYPE, id, applicant, 'Ana Tui'),
    );
  }

  /** Both people granted, then issued: each has an e-visa. */
  async function issue(paid: View): Promise<View> {
    const granted = await ok('POST', `${BASE}/${paid.id}/actions/grant`, verifier, {
      version: paid.version,
      data: {
        personDecisions: [{ outcome: 'GRANTED', conditions }, { outcome: 'GRANTED' }],
        conditions: { selected: conditions },
      },
    });
    const issued = await ok('POST', `${BASE}/${paid.id}/actions/issue`, validator, {
      version: granted.version,
      data: {
        issuance: { effectiveDate: '2026-03-01', expiryDate: '2099-01-31', placeOfIssue: 'Apia' },
        conditions: { selected: conditions },
      },
    });
    expect(issued.status).toBe('ISSUED');
    return issued;
  }

  it('gives the holder their e-visa as text, the public check beside it; nobody else; not before it is issued', async () => {
    const paid = await paidFamily('en');
    // Not issued yet: refused as the PDF is, saying why.
    const early = await call(`${BASE}/${paid.id}/certificate/view`, applicant);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: { code: 'ACTION_NOT_ALLOWED' } });

    const issued = await issue(paid);
    const answer = await call(`${BASE}/${paid.id}/certificate/view`, applicant, 'fr');
    expect(answer.statusCode, answer.body).toBe(200);
    const view = answer.json() as CertificateView;
    // The holder's language (English), whatever the reader's.
    expect(view).toMatchObject({
      language: 'en',
      issuer: 'Immigration Service',
      title: 'Electronic visa',
      number: issued.number,
    });
    expect(view.sections.map((section) => section.heading)).toEqual([
      'Holder',
      'Visa',
      'Validity',
      'Conditions',
    ]);
    expect(field(view, 'Family name')).toEqual({ label: 'Family name', value: 'Tui' });
    expect(field(view, 'Nationality')?.value).toBe('Samoa');
    expect(field(view, 'Expiry date')?.value).toBe('31/01/2099');
    // A list of values is its items, numbered as on the paper.
    expect(field(view, 'Conditions of this visa')).toEqual({
      label: 'Conditions of this visa',
      lines: conditions.map((condition) => condition.description),
      numbered: true,
    });
    // The public check of its number, as a person types it (a scan adds via=qr: the PDF's code).
    expect(view.checkUrl).toMatch(new RegExp(`/#/home\\?number=${String(issued.number)}$`));
    expect(view.checkText).toBe('Anyone may check this document at this address:');
    expect(view.notes).toContain('This document was issued electronically and needs no signature.');

    // Another applicant does not learn it exists; an officer issuing it may read it.
    expect((await call(`${BASE}/${paid.id}/certificate/view`, other)).statusCode).toBe(404);
    expect((await call(`${BASE}/${paid.id}/certificate/view`, validator)).statusCode).toBe(200);

    // The child's own, by its number: their name, the same visa.
    const number = issued.data.dependants![0]!.visaNumber!;
    const theirs = await call(`${BASE}/${paid.id}/certificate/view/${number}`, applicant);
    expect(theirs.statusCode, theirs.body).toBe(200);
    const childView = theirs.json() as CertificateView;
    expect(childView.number).toBe(number);
    expect(field(childView, 'Given names')?.value ?? field(childView, 'Given name')?.value).toBe(
      'Lani',
    );
    expect(childView.checkUrl).toContain(`number=${number}`);
    expect((await call(`${BASE}/${paid.id}/certificate/view/${number}`, other)).statusCode).toBe(
      404,
    );
    expect(
      (await call(`${BASE}/${paid.id}/certificate/view/VA-1999-000001`, applicant)).statusCode,
    ).toBe(404);
  });

  it('writes a French holder’s e-visa in French, even to a reader of the English portal', async () => {
    const issued = await issue(await paidFamily('fr'));
    const answer = await call(`${BASE}/${issued.id}/certificate/view`, validator, 'en');
    expect(answer.statusCode, answer.body).toBe(200);
    const view = answer.json() as CertificateView;
    expect(view).toMatchObject({
      language: 'fr',
      issuer: "Service de l'immigration",
      title: 'Visa électronique',
    });
    expect(field(view, 'Nationalité')?.value).toBe('Samoa');
    expect(field(view, "Date d'expiration")?.value).toBe('31/01/2099');
    expect(view.checkText).toBe('Toute personne peut vérifier ce document à cette adresse :');
  });
});
