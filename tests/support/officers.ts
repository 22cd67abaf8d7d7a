import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/server/config';

/** A demo persona of seeds/connectid.json, as far as telling officers from the public goes. */
interface SeedPersona {
  data: {
    identity: { loginIdentifier: string };
    organisation?: { userType?: string };
    contact?: { emailAddress?: string; primaryMobileNo?: string };
  };
}

function seedPersonas(): SeedPersona[] {
  const file = path.join(PROJECT_ROOT, 'seeds', 'connectid.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { personas: SeedPersona[] }).personas;
}

const isOfficer = (persona: SeedPersona) => persona.data.organisation?.userType === 'OFFICER';

/** The e-mail addresses and mobile numbers of the officers among the demo personas. */
export function officersContacts(): string[] {
  return seedPersonas()
    .filter(isOfficer)
    .flatMap((persona) => [
      persona.data.contact?.emailAddress ?? '',
      persona.data.contact?.primaryMobileNo ?? '',
    ])
    .filter(Boolean);
}

/** The sign-in names of the demo personas who are no officers: applicants, sponsors, payers. */
export function publicLogins(): Set<string> {
  return new Set(
    seedPersonas()
      .filter((persona) => !isOfficer(persona))
      .map((persona) => persona.data.identity.loginIdentifier),
  );
}
