import { useEffect, useState } from 'react';
import type { ApiClient } from '../core/api/client';
import type { CatalogEntryRecord } from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import { localizedText } from '../core/i18n/localized';
import { DEFAULT_LANGUAGE, type Language } from '../core/i18n/translate';

/** The name of the entry a reference names, valid at `at`; undefined while unknown or missing. */
export function useReferenceName(
  api: ApiClient,
  backend: string,
  target: CatalogDefinition | undefined,
  code: string,
  at: string | undefined,
  language: Language = DEFAULT_LANGUAGE,
): string | undefined {
  const [name, setName] = useState<string>();
  const keyField = target?.key[0];
  useEffect(() => {
    setName(undefined);
    if (!target || !keyField || code.trim() === '') return undefined;
    let current = true;
    const when = at ?? new Date().toISOString();
    // A short pause so that typing a code does not send a request per key.
    const timer = setTimeout(() => {
      void api
        .search<CatalogEntryRecord>(backend, `/${encodeURIComponent(target.id)}`, {
          filter: [
            { field: keyField, criterion: 'equals', value: code.trim() },
            { field: 'startTime', criterion: 'lessThanOrEqual', value: when },
          ],
          options: { page: 1, itemsPerPage: 10 },
        })
        .then(([error, result]) => {
          if (!current || error) return;
          const valid = result.items.find(
            (entry) => !entry.data.endTime || String(entry.data.endTime) > when,
          );
          const data = valid?.data;
          const label =
            data &&
            (localizedText(data, 'name', language) ??
              localizedText(data, 'description', language) ??
              data[keyField]);
          setName(label === undefined ? undefined : String(label));
        });
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, backend, target, keyField, code, at, language]);
  return name;
}
