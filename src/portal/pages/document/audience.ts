import type { DocumentView } from '../../../core/documents/types';
import type { Session } from '../../session';

/**
 * Whom a text about a document addresses: its holder (the applicant, the sponsor, the payer)
 * or anyone else acting on it (an officer, an agent at the counter). Texts differ: "Your
 * reference number" is the holder's; "The applicant has been sent the query" the officer's.
 */
export type Audience = 'owner' | 'officer';

export function audienceOf(document: Pick<DocumentView, 'owner'>, session: Session): Audience {
  return session.subject !== undefined && document.owner === session.subject ? 'owner' : 'officer';
}

/**
 * The text a group of texts per audience holds for this reader: `key` names either one text
 * for everyone, or a group `{ "owner": ..., "officer": ... }` whose entry for the reader is
 * used; undefined when there is none (nothing is said rather than the wrong thing).
 */
export function textFor(
  t: (key: string, options: { returnObjects: true }) => unknown,
  exists: (key: string) => boolean,
  key: string,
  audience: Audience,
): string | undefined {
  if (!exists(key)) return undefined;
  const value = t(key, { returnObjects: true });
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const own = (value as Record<string, unknown>)[audience];
  return typeof own === 'string' ? own : undefined;
}
