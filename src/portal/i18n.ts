import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { DefinitionBundle } from '../core/definitions/types';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  pickLanguage,
  type Language,
  type TextTree,
} from '../core/i18n/translate';

const LANGUAGE_STORAGE_KEY = 'portal.language';

/** The language to start in: the user's last choice, else the browser's, else English. */
function initialLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    stored = null;
  }
  return pickLanguage(stored, navigator.languages?.join(','), navigator.language);
}

/** Starts i18next with the texts the server handed over in the definitions bundle. */
export async function initI18n(bundle: DefinitionBundle): Promise<void> {
  const resources = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, { translation: bundle.translations[lang] ?? {} }]),
  );
  await i18next.use(initReactI18next).init({
    resources,
    lng: initialLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    // Keys are never sentences: said outright, i18next skips a costly test per call.
    keySeparator: '.',
    returnNull: false,
    showSupportNotice: false,
  });
  document.documentElement.lang = currentLanguage();
}

/** Adds a document type's own texts, under its id, in every language. */
export function addTexts(entityId: string, texts: Partial<Record<Language, TextTree>>): void {
  for (const [language, tree] of Object.entries(texts)) {
    i18next.addResourceBundle(language, 'translation', { [entityId]: tree }, true, true);
  }
}

export function currentLanguage(): Language {
  return pickLanguage(i18next.resolvedLanguage, i18next.language);
}

export async function changeLanguage(language: Language): Promise<void> {
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

export { i18next };
