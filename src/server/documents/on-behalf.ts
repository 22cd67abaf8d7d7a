import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { invalid } from '../search/compile-search';
import type { AccountLookup } from './effect-context';
import { findByKey } from './store/lookups';
import type { DocumentRow } from './store/rows';

/** Who owns a document: the account id tokens carry as their subject, and how to reach them. */
export interface DocumentOwner {
  owner: string;
  ownerName: string | null;
  ownerEmail: string | null;
  ownerMobile: string | null;
}

/** The caller, owning what they make for themselves. */
export function callerAsOwner(principal: Principal): DocumentOwner {
  return {
    owner: principal.subject,
    ownerName: principal.name ?? principal.preferredUsername ?? null,
    ownerEmail: principal.email ?? null,
    ownerMobile: principal.phoneNumber ?? null,
  };
}

/** An `owner` must be text and given only to an `onBehalf` action, else a 400 on `/owner`. */
export function checkOwnerGiven(onBehalf: boolean | undefined, owner: unknown): void {
  if (owner === undefined) return;
  if (typeof owner !== 'string')
    throw invalid([{ path: '/owner', rule: 'type', params: { type: 'string' } }]);
  if (!onBehalf) throw invalid([{ path: '/owner', rule: 'additionalProperties' }]);
}

/** The account an `onBehalf` sign-in name names (any case, not deleted), else 400 on `/owner`. */
export async function ownerNamed(
  db: Kysely<Database>,
  accounts: AccountLookup | undefined,
  login: unknown,
): Promise<DocumentOwner> {
  const name = typeof login === 'string' ? login.trim() : '';
  if (!name) throw invalid([{ path: '/owner', rule: 'required' }]);
  // An account document owns itself and carries its holder's name and contacts as owner.
  const account = accounts && (await findByKey(db, accounts.type, accounts.login, name));
  if (!account) throw invalid([{ path: '/owner', rule: 'unknownAccount', params: { name } }]);
  return { ...ownerOf(account), owner: account.id };
}

/** The owner a stored document names, with the contacts it keeps. */
export function ownerOf(
  row: Pick<DocumentRow, 'owner' | 'owner_name' | 'owner_email' | 'owner_mobile'>,
): DocumentOwner {
  return {
    owner: row.owner,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
    ownerMobile: row.owner_mobile,
  };
}
