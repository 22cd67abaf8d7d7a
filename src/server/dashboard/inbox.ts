import type { Kysely } from 'kysely';
import { resolvePointer } from '../../core/rules/registry';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { latestOwned } from '../documents/store/lookups';
import type { CompiledWorkflow } from '../documents/workflows';

/** A message as the dashboard's message area shows it. */
export interface InboxItem {
  id: string;
  status: string;
  subject: string;
  body: string;
  language: string | null;
  createdAt: Date;
  about: { type?: string; title?: string; number?: string; path?: string } | null;
}

/** The caller's received messages, unread first then newest, and how many are unread. */
export async function latestMessages(
  db: Kysely<Database>,
  workflow: CompiledWorkflow,
  principal: Principal,
  limit: number,
): Promise<{ unread: number; workflow: string; items: InboxItem[] }> {
  const { inbox, id } = workflow.definition;
  if (!inbox) throw new Error(`workflow ${id} is no inbox`);
  const { rows, unread } = await latestOwned(db, id, principal.subject, inbox.read, limit);
  const text = (data: unknown, pointer: string) => {
    const value = resolvePointer(data, pointer);
    return typeof value === 'string' ? value : '';
  };
  return {
    unread,
    workflow: id,
    items: rows.map((row) => {
      const about = resolvePointer(row.data, inbox.about) as InboxItem['about'] | undefined;
      const language = (about as { language?: unknown } | undefined)?.language;
      return {
        id: row.id,
        status: row.status,
        subject: text(row.data, inbox.subject),
        body: text(row.data, inbox.body),
        language: typeof language === 'string' ? language : null,
        createdAt: row.created_at,
        about: about ?? null,
      };
    }),
  };
}
