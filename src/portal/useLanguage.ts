import { useTranslation } from 'react-i18next';
import { pickLanguage, type Language } from '../core/i18n/translate';

/** The current language as one of ours; components re-render when it changes. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return pickLanguage(i18n.resolvedLanguage, i18n.language);
}
