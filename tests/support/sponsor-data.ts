import type { SponsorApplication } from '../../src/generated';

/**
 * A sponsor application with every field a submission needs: an organisation (SPORG) or a
 * natural person (SPPER), contact, residence, assistant answers and the declaration accepted.
 * The questions and attachments are the server's to fill from the catalogues; a caller that
 * submits answers them from what the server gave (`answerAll`). Typed with the type generated
 * from schemas/sponsor-application.schema.json, so a schema change that breaks it fails the
 * typecheck.
 */
export function sponsorApplication(type: 'SPORG' | 'SPPER' = 'SPORG'): SponsorApplication {
  // Typed apart: keys inside a spread escape the excess-property check of the literal below.
  const sponsor: Pick<SponsorApplication, 'organisation' | 'person'> =
    type === 'SPORG'
      ? { organisation: { companyName: 'Lagoon Trading', fullName: 'Lagoon Trading Company Ltd' } }
      : {
          person: {
            familyName: 'Faleolo',
            givenName: 'Mele',
            birthDate: '1980-02-03',
            birthCountry: 'WS',
            passportNumber: 'PS7654321',
          },
        };
  return {
    sponsorship: { sponsorType: type },
    ...sponsor,
    contact: {
      address: { addressLine1: '12 Harbour Street', city: 'Apia', country: 'WS' },
      telephone: '+685 555 0142',
      email: 'sponsorships@example.org',
      communicationSameAsAbove: true,
    },
    residence: { status: 'CITIZEN_OR_PR' },
    assistant: { assisted: false },
    declaration: { accepted: true },
  };
}

type Item = Record<string, unknown>;

/**
 * The application with every question the server listed answered No and every mandatory
 * attachment given `file` (a media reference the caller uploaded).
 */
export function answerAll(data: Item, file?: Item): Item {
  const answer = (list: unknown) =>
    Array.isArray(list) ? list.map((q: Item) => ({ ...q, answer: false })) : list;
  const attach = (list: unknown) =>
    Array.isArray(list) ? list.map((d: Item) => (d.mandatory && file ? { ...d, file } : d)) : list;
  return {
    ...data,
    characterQuestions: answer(data.characterQuestions),
    ...(data.practiceQuestions ? { practiceQuestions: answer(data.practiceQuestions) } : {}),
    documents: attach(data.documents),
  };
}
