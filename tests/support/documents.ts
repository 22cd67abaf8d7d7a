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
