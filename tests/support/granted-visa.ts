import type { ApiHarness } from './api-server';
import type { ApplicationsApi } from './submitted-applications';

/**
 * A visa application brought by its steps through the API the way the applicant and the
 * officers take it: lodged, every question answered, every file given, submitted, initiated,
 * paid by card, then granted and issued. The same steps serve the API tests (inject, through
 * `applicationsThrough`) and the browser tests (fetch, through `applicationsOverHttp`), where
 * they keep a journey short of what it does not show.
 */
const BASE = '/api/evisa/visa-application';

/** The parts of a visa application these steps read. */
export interface VisaView {
  id: string;
  version: number;
  status: string;
  data: Record<string, unknown>;
}

/** Pays the document `id` once initiated, as its payer does on the gateway's page. */
export type PayByCard = (id: string) => Promise<void>;

/** The roles of a visa's applicant: everything they do on their own application. */
export const VISA_APPLICANT_ROLES = ['submit', 'read', 'update', 'pay', 'print'].map(
  (role) => `visa-application-${role}`,
);

/** Tokens of the two officers an API test decides with: one who grants, one who issues. */
export async function visaOfficers(api: ApiHarness) {
  const verifier = await api.tokenFor(
    ['visa-application-search', 'visa-application-grant', 'visa-application-read'],
    { sub: 'officer-granting' },
  );
  const validator = await api.tokenFor(
    ['visa-application-search', 'visa-application-issue', 'visa-application-print'],
    { sub: 'officer-issuing' },
  );
  return { verifier, validator };
}

/** A child of the applicant's, coming with them: what a family's dependant gives. */
export const CHILD = {
  relationship: 'CHILD',
  familyName: 'Tui',
  givenName: 'Lani',
  birthDate: '2015-02-01',
  nationality: 'WS',
  passportNumber: 'PC7654321',
};

type Item = Record<string, unknown>;

/**
 * `data` lodged by `token`'s holder, submitted with every character question answered "no" and
 * a PDF for every document (`photo` for the PHOTO one when given), initiated and paid by `pay`:
 * answered as read back after the payment.
 */
export async function paidVisa<V extends VisaView = VisaView>(
  api: ApplicationsApi,
  token: string,
  data: object,
  pay: PayByCard,
  photo?: Item,
): Promise<V> {
  const stored = (await api.send('POST', BASE, token, { data })) as VisaView & {
    data: { characterQuestions: Item[]; documents: Item[] };
  };
  const file = await api.uploadPdf(token);
  const submitted = await act<VisaView>(api, token, stored, 'submit', {
    ...data,
    characterQuestions: stored.data.characterQuestions.map((q) => ({ ...q, answer: false })),
    documents: stored.data.documents.map((d) => ({
      ...d,
      file: photo && d.code === 'PHOTO' ? photo : file,
    })),
  });
  await act(api, token, submitted, 'initiate', { termsAccepted: true });
  await pay(stored.id);
  return (await api.send('GET', `${BASE}/${stored.id}`, token)) as V;
}

/** The workflow action `action` on `view` (at its version) as `token`'s holder, with `data`. */
export async function act<V extends VisaView>(
  api: ApplicationsApi,
  token: string,
  view: Pick<VisaView, 'id' | 'version'>,
  action: string,
  data: unknown,
): Promise<V> {
  return (await api.send('POST', `${BASE}/${view.id}/actions/${action}`, token, {
    version: view.version,
    data,
  })) as V;
}
