import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
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

/**
 * An `owner` in a request is the sign-in name of an action made `onBehalf`: given as anything
 * but text, or to an action that hands nothing over, it is refused (400 on `/owner`) rather
 * than left aside, so a caller never believes a document went to someone it did not.
 */
export function checkOwnerGiven(onBehalf: boolean | undefined, owner: unknown): void {
  if (owner === undefined) return;
  if (typeof owner !== 'string') {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/owner', rule: 'type', params: { type: 'string' } },
    ]);
  }
  if (!onBehalf) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/owner', rule: 'additionalProperties' },
    ]);
  }
}

/**
 * The person a document is made for (an action's `onBehalf`), named by the sign-in name of
 * their account in our directory: a name that is no active account is a 400 on `/owner`, so
 * a document is never handed to nobody.
 */
export async function ownerNamed(
  db: Kysely<Database>,
  accounts: AccountLookup | undefined,
  login: unknown,
): Promise<DocumentOwner> {
  const name = typeof login === 'string' ? login.trim() : '';
  if (!name) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/owner', rule: 'required' },
    ]);
  }
  const account = await accountByLogin(db, accounts, name);
  if (!account) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/owner', rule: 'unknownAccount', params: { name } },
    ]);
  }
  return {
    owner: account.id,
    ownerName: account.owner_name,
    ownerEmail: account.owner_email,
    ownerMobile: account.owner_mobile,
  };
}

/**
 * The account of our directory a sign-in name names (any case, its declared key), not
 * deleted. An account document owns itself and carries its holder's name and contacts as
 * owner.
 */
export async function accountByLogin(
  db: Kysely<Database>,
  accounts: AccountLookup | undefined,
  login: string,
): Promise<DocumentRow | undefined> {
  return accounts ? findByKey(db, accounts.type, accounts.login, login) : undefined;
}
