import type { DocumentView } from '../../../core/documents/types';
import type { Session } from '../../session';

/** Whom a text about a document addresses: its holder, or anyone else acting on it. */
export type Audience = 'owner' | 'officer';

export function audienceOf(document: Pick<DocumentView, 'owner'>, session: Session): Audience {
  return session.subject !== undefined && document.owner === session.subject ? 'owner' : 'officer';
}
