import type { DocumentView } from '../../../core/documents/types';
import type { Session } from '../../session';

/** Whom a text about a document addresses: its holder, or anyone else acting on it. */
export type Audience = 'owner' | 'officer';

export function audienceOf(document: Pick<DocumentView, 'owner'>, session: Session): Audience {
  return session.subject !== undefined && document.owner === session.subject ? 'owner' : 'officer';
}

/** The text for this reader: `key` is one text, or a group per audience; undefined when none. */
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
