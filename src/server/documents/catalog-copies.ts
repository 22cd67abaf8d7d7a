import { asNode } from '../../core/definitions/json';
import { copiedTranslations, TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import { resolvePointer, setAt } from '../../core/rules/registry';
import { catalogsIn } from '../catalog/valid-at';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { EffectContext } from './effect-context';

/** The date `days` days after `from`'s day (UTC), as YYYY-MM-DD. */
export function daysAfter(from: Date, days: number): string {
  const date = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * Copies the catalogue entries the workflow names (`fromCatalog`) valid now, with translations;
 * a missing entry or a term not in whole days refuses the action (409) rather than issue it.
 */
export async function copyFromCatalog(context: EffectContext): Promise<void> {
  const { trx, environment, workflow, document, now } = context;
  const catalogs = environment.catalogs?.through(trx) ?? catalogsIn(trx);
  for (const copy of workflow.fromCatalog ?? []) {
    const [entry] = await catalogs.validAt(copy.catalog, now, [copy.code]);
    const missing = () =>
      new ApiProblem(409, ERROR_CODES.settingMissing, { catalog: copy.catalog, code: copy.code });
    if (!entry) throw missing();
    const values: Record<string, unknown> = {};
    for (const [property, field] of Object.entries(copy.fields)) {
      const value = entry.data[field];
      if (value !== undefined && value !== null && value !== '') values[property] = value;
    }
    // A translatable text (the payee) keeps its other languages beside it, as copied lists do.
    const translations = copiedTranslations(entry.data, Object.entries(copy.fields));
    if (translations) values[TRANSLATIONS_FIELD] = translations;
    for (const [property, field] of Object.entries(copy.daysAfter ?? {})) {
      const days = entry.data[field];
      if (typeof days !== 'number' || !Number.isInteger(days) || days < 0) throw missing();
      values[property] = daysAfter(now, days);
    }
    if (copy.number && document.number) values[copy.number] = document.number;
    setAt(document.data, copy.to, { ...asNode(resolvePointer(document.data, copy.to)), ...values });
  }
}
