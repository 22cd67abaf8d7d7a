import { memo, useEffect, useMemo, useState } from 'react';
import { Select } from '@mantine/core';
import { catalogAllowed, catalogMatch } from '../../../core/definitions/catalog-fields';
import { contextOf, t } from '../context';
import type { CatalogOption } from '../types';
import { CLOSED_LIST } from '../closedList';
import { inputProps, type EngineWidgetProps } from './common';

export function catalogLabel(option: CatalogOption): string {
  return `${option.code} - ${option.name}`;
}

/**
 * What the entries are asked for, as text: for each `match` field, the document's value at its
 * pointer (read as the document stands) or the fixed values.
 */
function whereKey(match: unknown, valueAt: (pointer: string) => unknown): string {
  return JSON.stringify(
    Object.fromEntries([
      ...catalogMatch(match).map(([field, pointer]) => [field, String(valueAt(pointer) ?? '')]),
      ...catalogAllowed(match),
    ]),
  );
}

/**
 * A searchable select of a catalogue's entries (ui:options.catalog), storing the code. With
 * `ui:options.match` only the entries belonging to what the document names there; the server
 * checks the same (src/server/documents/catalog-fields.ts).
 */
export const CatalogWidget = memo(function CatalogWidget(props: EngineWidgetProps) {
  const { id, value, onChange, onBlur, options } = props;
  // Names come in the reader's language: a change of language asks for them again.
  const context = contextOf(props.registry.formContext);
  const { services, valueAt, language } = context;
  const catalogId = typeof options.catalog === 'string' ? options.catalog : '';
  const match = options.match;
  // Opening the list asks again: the field it depends on may have changed since.
  const [opened, setOpened] = useState(0);
  const code = typeof value === 'string' && value !== '' ? value : null;
  const [search, setSearch] = useState('');
  // The entries found, with the document's values and the language they were asked for
  // (`whereKey`): entries asked for another document's values are never offered, not even until
  // the answer comes.
  const [found, setFound] = useState<{ key: string; list: CatalogOption[] } | undefined>();
  const [selected, setSelected] = useState<(CatalogOption & { language?: string }) | undefined>();
  const searchCatalog = services.searchCatalog;
  const key = `${language}\n${whereKey(match, valueAt)}`;
  const current = found?.key === key ? found.list : undefined;

  // The selected code's name, when the form opens on a stored value.
  useEffect(() => {
    if (!code || !searchCatalog || (selected?.code === code && selected.language === language))
      return;
    let live = true;
    searchCatalog(catalogId, code)
      .then((list) => {
        const match = list.find((o) => o.code === code);
        if (live && match) setSelected({ ...match, language });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [code, catalogId, searchCatalog, selected, language]);

  useEffect(() => {
    if (!searchCatalog) return;
    // Typing the selected entry's own label is not a new search.
    const text = selected && search === catalogLabel(selected) ? '' : search;
    let live = true;
    const timer = setTimeout(() => {
      const asked = whereKey(match, valueAt);
      const where = JSON.parse(asked) as Record<string, string | string[]>;
      searchCatalog(catalogId, text, where)
        .then((list) => live && setFound({ key: `${language}\n${asked}`, list }))
        .catch(() => live && setFound({ key: `${language}\n${asked}`, list: [] }));
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, catalogId, searchCatalog, selected, match, valueAt, opened, language]);

  const data = useMemo(() => {
    const list = [...(current ?? [])];
    const chosen = selected ?? (code ? { code, name: '' } : undefined);
    if (chosen && !list.some((o) => o.code === chosen.code)) list.unshift(chosen);
    return list.map((o) => ({ value: o.code, label: o.name ? catalogLabel(o) : o.code }));
  }, [current, selected, code]);

  return (
    <Select
      {...inputProps(props)}
      searchable
      clearable
      disabled={props.disabled || props.readonly}
      data={data}
      value={code}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => {
        if (catalogMatch(match).length) setOpened((n) => n + 1);
      }}
      filter={({ options: all }) => all}
      comboboxProps={CLOSED_LIST}
      nothingFoundMessage={current ? '-' : t(context, 'messages.loading')}
      // Choosing the chosen entry again keeps it; the x button clears it.
      allowDeselect={false}
      onChange={(next) => {
        const chosen = current?.find((o) => o.code === next);
        if (next !== null) setSelected(chosen ? { ...chosen, language } : selected);
        else setSelected(undefined);
        onChange(next ?? undefined);
      }}
      onBlur={() => onBlur(id, value)}
    />
  );
});
