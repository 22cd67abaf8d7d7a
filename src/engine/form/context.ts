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
  /**
   * Whether the field at a JSON pointer applies to the document as it stands (its
   * `ui:options.when`, docs/forms.md): a field that does not is not shown.
   */
  fieldApplies: (pointer: string) => boolean;
}

export function contextOf(formContext: unknown): EngineFormContext {
  const context = (formContext ?? {}) as Partial<EngineFormContext>;
  return {
    entityId: context.entityId ?? '',
    texts: context.texts ?? {},
    language: context.language ?? 'en',
    services: context.services ?? {},
    valueAt: context.valueAt ?? (() => undefined),
    fieldApplies: context.fieldApplies ?? (() => true),
  };
}

export function t(context: EngineFormContext, key: string, params?: Record<string, unknown>) {
  return translate(context.texts, context.language, key, params);
}
