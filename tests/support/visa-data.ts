/**
 * A visa application with every field a submission needs and nothing more: the visa chosen
 * (document and sub-document codes, given by the caller), the applicant, contact, family,
 * health and sponsorship answers, and the declaration accepted.
 */
export function visaApplication(document: string, subDocument: string): Record<string, unknown> {
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
