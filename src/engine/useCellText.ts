import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { catalogFieldKinds, currencyOf } from '../core/definitions/catalog-entry';
import { enumerationOf } from '../core/definitions/enumerations';
import type { CatalogDefinition, JsonSchema } from '../core/definitions/types';
import { formatMoney } from '../core/format';
import type { Language } from '../core/i18n/translate';
import { formatCell } from './format';

/** How a catalogue's values read in the language shown (flags, enumerations, money). */
export function useCellText(
  catalog: CatalogDefinition,
  language: Language,
): (field: string, value: unknown) => string {
  const { t } = useTranslation();
  const fields = useMemo(() => {
    const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
    const enumerations = new Map<string, string>();
    for (const [name, property] of Object.entries(properties)) {
      const enumeration = Array.isArray(property.enum) ? enumerationOf(property.enum) : undefined;
      if (enumeration) enumerations.set(name, enumeration);
    }
    return { kinds: catalogFieldKinds(catalog), enumerations };
  }, [catalog]);
  return useCallback(
    (field: string, value: unknown) => {
      if (typeof value === 'boolean') return t(value ? 'catalog.yes' : 'catalog.no');
      const enumeration = fields.enumerations.get(field);
      if (enumeration && value !== null && value !== undefined)
        return t(`enumerations.${enumeration}.${String(value)}`, String(value));
      const currency = currencyOf(catalog, field);
      if (currency && typeof value === 'number') return formatMoney(value, language, currency);
      return formatCell(value, fields.kinds[field]);
    },
    [t, fields, catalog, language],
  );
}
