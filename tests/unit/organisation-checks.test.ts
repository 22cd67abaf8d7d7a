import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  NO_ADDRESS,
  NO_ORGANISATION,
  organisationData,
  organisationFieldsOf,
  organisationProblems,
} from '../../src/modules/connectid/portal/organisationChecks';

const t = (key: string) => key;
const NONE = NO_ORGANISATION;
/** The seed's AGENT and INDIVIDUAL user types (seeds/catalogs.json), their checks. */
const AGENT = {
  checkAgency: 'OPTIONAL',
  checkAgent: 'MANDATORY',
  checkTrader: 'PROHIBITED',
  checkInstitution: 'OPTIONAL',
  checkFunctionalTitle: 'OPTIONAL',
  checkAddress: 'MANDATORY',
};
const INDIVIDUAL = { ...AGENT, checkAgent: 'PROHIBITED', checkAddress: 'OPTIONAL' };

/**
 * What the registration page asks of a user type before anything is sent, as the server's
 * registration checks (registration-checks.ts): mandatory fields, a complete address when one
 * is asked or begun, and only the fields the type allows in what is sent.
 */
describe('the organisation fields of a registration', () => {
  it('asks an agent for their agent code and a complete address', () => {
    expect(organisationProblems(NONE, NO_ADDRESS, AGENT, t).map((p) => p.path)).toEqual([
      '/organisation/agentNo',
      '/addresses/0/addressType',
      '/addresses/0/addressLine1',
      '/addresses/0/city',
      '/addresses/0/country',
    ]);
  });

  it('leaves an optional address alone until it is begun, then asks for the rest', () => {
    expect(organisationProblems(NONE, NO_ADDRESS, INDIVIDUAL, t)).toEqual([]);
    const begun = { ...NO_ADDRESS, city: 'Apia', postalCode: 'no_good!' };
    expect(organisationProblems(NONE, begun, INDIVIDUAL, t).map((p) => p.path)).toEqual([
      '/addresses/0/addressType',
      '/addresses/0/addressLine1',
      '/addresses/0/postalCode',
      '/addresses/0/country',
    ]);
  });

  it('sends only the fields the type allows, trimmed, and the address once filled', () => {
    const organisation = { ...NONE, agentNo: ' AG001 ', traderNo: 'TR001', institution: '' };
    const address = { ...NO_ADDRESS, addressType: 'BUSINESS', city: 'Apia' };
    expect(organisationData('AGENT', organisation, address, AGENT)).toEqual({
      organisation: { userType: 'AGENT', agentNo: 'AG001' },
      addresses: [{ addressType: 'BUSINESS', city: 'Apia' }],
    });
    expect(organisationData('INDIVIDUAL', organisation, NO_ADDRESS, INDIVIDUAL)).toEqual({
      organisation: { userType: 'INDIVIDUAL' },
    });
  });

  it('asks a member of the public no organisation field: the seed’s user type prohibits them', () => {
    const seed = JSON.parse(readFileSync('seeds/catalogs.json', 'utf8')) as {
      'user-types': Array<Record<string, unknown>>;
    };
    const type = (code: string) => seed['user-types'].find((entry) => entry.code === code);
    // No Organisation section for a person registering as themselves...
    expect(organisationFieldsOf(type('INDIVIDUAL')).map(([field]) => field)).toEqual([]);
    // ...while an organisation is asked its own.
    expect(organisationFieldsOf(type('ORGANISATION')).map(([field]) => field)).toEqual([
      'institution',
      'functionalTitle',
    ]);
  });
});
