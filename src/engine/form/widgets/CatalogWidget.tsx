import { memo, useEffect, useMemo, useState } from 'react';
import { Select } from '@mantine/core';
import { catalogAllowed, catalogMatch } from '../../../core/definitions/catalog-fields';
import { contextOf } from '../context';
import type { CatalogOption } from '../types';
import { CLOSED_LIST } from '../closedList';
import { descriptionOf, errorOf, labelOf, type EngineWidgetProps } from './common';

export function catalogLabel(option: CatalogOption): string {
  return `${option.code} - ${option.name}`;
}

/**
 * A searchable select of a catalogue's entries (ui:options.catalog), asked from the screen's
 * `services.searchCatalog`; shows the name beside the code and stores the code. With
 * `ui:options.match` it offers only the entries that belong to what the document names there
 * (the sub-documents of the chosen document), read each time the list opens; the server
 * checks the same `match` on every action that validates (src/server/documents/catalog-fields.ts).
 */
export const CatalogWidget = memo(function CatalogWidget(props: EngineWidgetProps) {
  const { id, value, onChange, onBlur, options } = props;
  // Names come in the reader's language: a change of language asks for them again.
  const { services, valueAt, language } = contextOf(props.registry.formContext);
  const catalogId = typeof options.catalog === 'string' ? options.catalog : '';
  const match = options.match;
  // Opening the list asks again: the field it depends on may have changed since.
  const [opened, setOpened] = useState(0);
  const code = typeof value === 'string' && value !== '' ? value : null;
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<CatalogOption[]>([]);
  const [selected, setSelected] = useState<(CatalogOption & { language?: string }) | undefined>();
  const searchCatalog = services.searchCatalog;

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
      const where = Object.fromEntries([
        ...catalogMatch(match).map(([field, pointer]) => [field, String(valueAt(pointer) ?? '')]),
        ...catalogAllowed(match),
      ]);
      searchCatalog(catalogId, text, where)
        .then((list) => live && setFound(list))
        .catch(() => live && setFound([]));
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, catalogId, searchCatalog, selected, match, valueAt, opened, language]);

  const data = useMemo(() => {
    const list = [...found];
    const current = selected ?? (code ? { code, name: '' } : undefined);
    if (current && !list.some((o) => o.code === current.code)) list.unshift(current);
    return list.map((o) => ({ value: o.code, label: o.name ? catalogLabel(o) : o.code }));
  }, [found, selected, code]);

  return (
    <Select
      id={id}
      searchable
      clearable
      label={labelOf(props)}
      description={descriptionOf(props)}
      withAsterisk={props.required}
      disabled={props.disabled || props.readonly}
      error={errorOf(props)}
      data={data}
      value={code}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => {
        if (catalogMatch(match).length) setOpened((n) => n + 1);
      }}
      filter={({ options: all }) => all}
      comboboxProps={CLOSED_LIST}
      nothingFoundMessage="-"
      onChange={(next) => {
        const chosen = found.find((o) => o.code === next);
        setSelected(chosen && { ...chosen, language });
        onChange(next ?? undefined);
      }}
      onBlur={() => onBlur(id, value)}
    />
  );
});
