import { answerAll, sponsorApplication } from './sponsor-data';
import { visaApplication } from './visa-data';

/**
 * Submitted visa and sponsor applications with fees due, made through the API the way their
 * owner makes them (stored, every question answered, every mandatory file uploaded, submitted):
 * what a payer's invoice names. The same steps serve the API tests (inject) and the browser
 * tests (fetch), through `ApplicationsApi`.
 */
export interface ApplicationsApi {
  /** Sends a JSON request as the token's holder; answers the parsed body, throwing unless 2xx. */
  send(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    token: string,
    body?: unknown,
  ): Promise<unknown>;
  /** Uploads a small PDF as the token's holder; answers the media reference. */
  uploadPdf(token: string): Promise<Record<string, unknown>>;
}

/** The parts of an application these steps read. */
export interface SubmittedApplication {
  id: string;
  version: number;
  number: string;
  status: string;
  data: { fees?: { total: string } } & Record<string, unknown>;
}

type Item = Record<string, unknown>;

/** A visa application of `token`'s holder (VIS for 30 days, fees due), submitted. */
export async function submittedVisa(
  api: ApplicationsApi,
  token: string,
): Promise<SubmittedApplication> {
  const data = visaApplication('VIS', 'VV30');
  const stored = (await api.send('POST', '/api/evisa/visa-application', token, {
    data,
  })) as SubmittedApplication & { data: { characterQuestions: Item[]; documents: Item[] } };
  const file = await api.uploadPdf(token);
  const filled = {
    ...data,
    characterQuestions: stored.data.characterQuestions.map((q) => ({ ...q, answer: false })),
    documents: stored.data.documents.map((d) => ({ ...d, file })),
  };
  return (await api.send('POST', `/api/evisa/visa-application/${stored.id}/actions/submit`, token, {
    version: stored.version,
    data: filled,
  })) as SubmittedApplication;
}

/** A sponsor application of `token`'s holder (an organisation, fees due), submitted. */
export async function submittedSponsorship(
  api: ApplicationsApi,
  token: string,
): Promise<SubmittedApplication> {
  const stored = (await api.send('POST', '/api/evisa/sponsor-application', token, {
    data: sponsorApplication('SPORG'),
  })) as SubmittedApplication;
  const file = await api.uploadPdf(token);
  const { fees: _fees, ...given } = stored.data;
  const filled = answerAll({ ...sponsorApplication('SPORG'), ...given }, file);
  return (await api.send(
    'POST',
    `/api/evisa/sponsor-application/${stored.id}/actions/submit`,
    token,
    { version: stored.version, data: filled },
  )) as SubmittedApplication;
}

/** The invoice data a payer gives: who pays, and the applications' numbers; nothing else. */
export function invoiceData(numbers: readonly string[]) {
  return {
    payer: {
      name: 'Mele Agent',
      sameAsName: true,
      email: 'agent@example.org',
      address: { addressLine1: '4 Beach Road', city: 'Apia', country: 'WS' },
    },
    items: numbers.map((reference) => ({ reference })),
    message: { subject: 'Fees of two applications' },
  };
}
