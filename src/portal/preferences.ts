import type { ApiClient } from '../core/api/client';
import type { DocumentView } from '../core/documents/types';
import type { Language } from '../core/i18n/translate';
import type { Session } from './session';

/** The user's own account (the token's subject), where preferences are kept. */
const ownAccount = (subject: string) => `/account/${encodeURIComponent(subject)}`;

/**
 * Keeps the language choice in the signed-in user's profile (the account's preferences
 * section, through the account workflow's `set-preferences` action, which changes nothing
 * else and needs no review). Returns whether it was saved.
 */
export async function saveLanguagePreference(
  api: ApiClient,
  session: Session,
  language: Language,
): Promise<boolean> {
  if (!session.signedIn || !session.subject) return false;
  const [readError, account] = await api.get<DocumentView>(
    'connectid',
    ownAccount(session.subject),
  );
  if (readError) return false;
  const preferences = (account.data.preferences ?? {}) as Record<string, unknown>;
  if (preferences.language === language) return true;
  const [error] = await api.post<DocumentView>(
    'connectid',
    `${ownAccount(session.subject)}/actions/set-preferences`,
    {
      version: account.version,
      data: { ...account.data, preferences: { ...preferences, language } },
    },
  );
  return !error;
}

/** The language kept in the signed-in user's profile, if any. */
export async function storedLanguage(
  api: ApiClient,
  subject: string,
): Promise<Language | undefined> {
  const [error, account] = await api.get<DocumentView>('connectid', ownAccount(subject));
  if (error) return undefined;
  const language = (account.data.preferences as { language?: unknown } | undefined)?.language;
  return language === 'en' || language === 'fr' ? language : undefined;
}
