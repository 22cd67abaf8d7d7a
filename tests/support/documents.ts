import type { ApiHarness } from './api-server';

export const TYPE = 'test-document';
export const OWNER = 'applicant-1';
const ROLE = (suffix: string) => `test-document-${suffix}`;

/** Personas of the test workflow: the owner (an applicant) and officers with one duty each. */
export async function personas(api: ApiHarness) {
  return {
    owner: await api.issuer.token({
      sub: OWNER,
      name: 'Ana Applicant',
      email: 'ana@example.org',
      groups: ['submit', 'pay', 'cancel', 'undo', 'delete', 'read'].map(ROLE),
    }),
    stranger: await api.issuer.token({
      sub: 'applicant-2',
      name: 'Bo Other',
      groups: ['submit', 'read'].map(ROLE),
    }),
    officer: await api.issuer.token({
      sub: 'officer-1',
      name: 'Olu Officer',
      email: 'olu@immigration.example',
      groups: ['search', 'assign', 'query', 'grant', 'reject'].map(ROLE),
    }),
    roleless: await api.issuer.token({ sub: 'nobody', groups: ['view-profile'] }),
  };
}

export const VALID_DATA = { applicant: { name: 'Ana Applicant', email: 'ana@example.org' } };

/**
 * The public document check (`POST /api/evisa/verification`) on the test workflow: a GRANTED
 * document verifies with its number and either the applicant's passport number or date of
 * birth; the decision's validFrom/validUntil is the period it reports.
 */
export const VERIFIABLE = {
  passportNumber: 'PA1234567',
  dateOfBirth: '1990-05-04',
  /** A wide period around today, so the document is valid whenever the test runs. */
  validFrom: `${new Date().getUTCFullYear() - 1}-01-01`,
  validUntil: `${new Date().getUTCFullYear() + 1}-12-31`,
};

/** One JSON call of a test, answering the parsed body or throwing on a status of 400 or more. */
export type SendJson = (
  method: 'POST' | 'PUT' | 'PATCH' | 'GET',
  /** Path under /api, e.g. `/evisa/test-document`. */
  path: string,
  token: string,
  body?: unknown,
) => Promise<Record<string, unknown>>;

/** `SendJson` through an API harness (Fastify inject). End-to-end tests pass one using fetch. */
export function sendThrough(api: ApiHarness): SendJson {
  return async (method, path, token, body) => {
    const response = await api.call(method, `/api${path}`, { token, body });
    if (response.statusCode >= 400)
      throw new Error(`${method} ${path}: ${response.statusCode} ${response.body}`);
    return response.json() as Record<string, unknown>;
  };
}

/**
 * A test document the public check verifies: the owner (role test-document-submit) stores and
 * submits it without a fee (SUBMITTED FOR VERIFICATION, numbered TD-<year>-<5 digits>), then an
 * officer (role test-document-grant) grants it with the validity period (GRANTED).
 * `grant: false` stops before the grant: the same number then does not verify.
 */
export async function createVerifiableDocument(
  send: SendJson,
  tokens: { owner: string; officer: string },
  options: Partial<typeof VERIFIABLE> & { name?: string; grant?: boolean } = {},
): Promise<{ id: string; number: string; passportNumber: string; dateOfBirth: string }> {
  const values = { ...VERIFIABLE, ...options };
  const base = `/evisa/${TYPE}`;
  const data = {
    applicant: {
      ...VALID_DATA.applicant,
      ...(options.name ? { name: options.name } : {}),
      passportNumber: values.passportNumber,
      dateOfBirth: values.dateOfBirth,
    },
  };
  const stored = await send('POST', base, tokens.owner, { data });
  const id = String(stored.id);
  const submitted = await send('POST', `${base}/${id}/actions/submit`, tokens.owner, {
    version: stored.version,
    data,
  });
  if (options.grant !== false) {
    await send('POST', `${base}/${id}/actions/grant`, tokens.officer, {
      version: submitted.version,
      data: { decision: { validFrom: values.validFrom, validUntil: values.validUntil } },
    });
  }
  return {
    id,
    number: String(submitted.number),
    passportNumber: values.passportNumber,
    dateOfBirth: values.dateOfBirth,
  };
}
