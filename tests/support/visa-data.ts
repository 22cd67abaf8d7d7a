import type { VisaApplication } from '../../src/generated';

/**
 * A visa application with every field a submission needs and nothing more: the visa chosen
 * (document and sub-document codes, given by the caller), the applicant, contact, family,
 * health and sponsorship answers, and the declaration accepted. Typed with the type generated
 * from schemas/visa-application.schema.json, so a schema change that drops or renames a field
 * given here, or makes a new one required, fails the typecheck rather than a test at run time.
 */
export function visaApplication(document: string, subDocument: string): VisaApplication {
  return {
    visa: { document, subDocument },
    applyingFrom: { outsideIsland: false, purposeOfVisit: 'TOURISM', previouslyHeldVisa: false },
    applicant: {
      title: 'MR',
      gender: 'M',
      familyName: 'Tui',
      givenName: 'Sione',
      birthDate: '1990-04-12',
      birthCountry: 'WS',
      nationality: 'WS',
      passportNumber: 'PA1234567',
      passportIssuingCountry: 'WS',
      passportExpiryDate: '2032-04-11',
    },
    contact: {
      address: { addressLine1: '1 Beach Road', city: 'Apia', country: 'WS' },
      telephone: '+685 555 1234',
      email: 'sione.tui@example.org',
    },
    family: { status: 'NONE' },
    health: { hasCondition: false },
    sponsorship: { sponsored: false },
    characterQuestions: [],
    declarations: { accepted: true },
  };
}
