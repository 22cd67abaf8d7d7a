import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { IdentityTables } from './rows';

export type { CredentialTable, IdentityTables } from './rows';

/** The application's database (which holds the identity tables), or only the identity tables. */
export type IdentityKysely = Kysely<IdentityTables> | Kysely<Database & IdentityTables>;

/** Narrows either to the identity tables this module queries. */
export function identityDb(db: IdentityKysely): Kysely<IdentityTables> {
  return db as unknown as Kysely<IdentityTables>;
}
