import type { Language } from '../../core/i18n/translate';
import { translate } from '../../core/i18n/translate';
import type { Texts } from './texts';
import type { FormServices } from './types';

/** What every widget reads from RJSF's formContext. */
export interface EngineFormContext {
  [key: string]: unknown;
  entityId: string;
  texts: Texts;
  language: Language;
  services: FormServices;
  /**
   * The value at a JSON pointer of the whole document as it stands (a catalogue select narrowed
   * by another field reads it when it asks for its options).
   */
  valueAt: (pointer: string) => unknown;
}

export function contextOf(formContext: unknown): EngineFormContext {
  const context = (formContext ?? {}) as Partial<EngineFormContext>;
  return {
    entityId: context.entityId ?? '',
    texts: context.texts ?? {},
    language: context.language ?? 'en',
    services: context.services ?? {},
    valueAt: context.valueAt ?? (() => undefined),
  };
}

export function t(context: EngineFormContext, key: string, params?: Record<string, unknown>) {
  return translate(context.texts, context.language, key, params);
}
