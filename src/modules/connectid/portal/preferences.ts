import type { ApiClient } from '../../../core/api/client';
import type { DocumentView } from '../../../core/documents/types';
import type { LanguagePreferences } from '../../../engine/module';

/** The user's own account (the token's subject), where preferences are kept. */
const ownAccount = (subject: string) => `/account/${encodeURIComponent(subject)}`;

const readAccount = (api: ApiClient, subject: string) =>
  api.get<DocumentView>('connectid', ownAccount(subject));

/** The language kept in the user's profile, through the account's `set-preferences` action. */
export const accountLanguagePreferences: LanguagePreferences = {
  async read(api, subject) {
    const [error, account] = await readAccount(api, subject);
    if (error) return undefined;
    const language = (account.data.preferences as { language?: unknown } | undefined)?.language;
    return language === 'en' || language === 'fr' ? language : undefined;
  },
  async save(api, subject, language) {
    const [readError, account] = await readAccount(api, subject);
    if (readError) return false;
    const preferences = (account.data.preferences ?? {}) as Record<string, unknown>;
    if (preferences.language === language) return true;
    const [error] = await api.post<DocumentView>(
      'connectid',
      `${ownAccount(subject)}/actions/set-preferences`,
      {
        version: account.version,
        data: { ...account.data, preferences: { ...preferences, language } },
      },
    );
    return !error;
  },
};
