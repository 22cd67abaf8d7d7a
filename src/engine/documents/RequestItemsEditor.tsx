import { useEffect, useId, useState } from 'react';
import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  List,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CatalogDefinition } from '../../core/definitions/shapes/catalog';
import type { WorkflowRequests } from '../../core/definitions/shapes/requests';
import type { RequestItemInput, RequestKind } from '../../core/documents/requests';
import type { Language } from '../../core/i18n/translate';
import type { CatalogOption, FormServices } from '../form';

/** An item being drafted, with the name its entry was chosen by (shown, never sent). */
export interface DraftRequestItem extends RequestItemInput {
  shown: string;
}

/** The date `days` after today, as a date input holds it (YYYY-MM-DD). */
export function dueIn(days: number, today = new Date()): string {
  return new Date(today.getTime() + days * 864e5).toISOString().slice(0, 10);
}

/** What an item drafted sends: the request's item without its shown name. */
export function requestItemsOf(items: readonly DraftRequestItem[]): RequestItemInput[] {
  return items.map(({ shown: _shown, ...item }) => item);
}

const FREE = '';

/**
 * The items an opening action (a query) asks for (docs/workflows.md, "Requests for
 * information"): each chosen from a declared catalogue with a searchable select, or written as
 * free text; answered by a text or a file; required or not; by a due date. Every control is a
 * labelled form field, reached and used from the keyboard; the server checks the same.
 */
export function RequestItemsEditor({
  requests,
  catalogs,
  language,
  services,
  value,
  onChange,
}: {
  requests: WorkflowRequests;
  catalogs: readonly CatalogDefinition[];
  language: Language;
  services: FormServices;
  value: readonly DraftRequestItem[];
  onChange: (items: DraftRequestItem[]) => void;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const declared = requests.catalogs ?? [];
  const [source, setSource] = useState<string>(declared[0]?.catalog ?? FREE);
  const [code, setCode] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [options, setOptions] = useState<CatalogOption[]>([]);
  const [searching, setSearching] = useState(false);
  const [text, setText] = useState('');
  const [kind, setKind] = useState<RequestKind>('document');
  const [mandatory, setMandatory] = useState(true);
  const [due, setDue] = useState(() => dueIn(requests.dueDays ?? 14));
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const chosen = declared.find((c) => c.catalog === source);
  const searchCatalog = services.searchCatalog;

  // The entries of the chosen catalogue matching what is typed, in the reader's language.
  useEffect(() => {
    if (!chosen || !searchCatalog) return;
    let live = true;
    const where = Object.fromEntries(
      Object.entries(chosen.where ?? {}).map(([field, allowed]) => [
        field,
        Array.isArray(allowed) ? allowed.map(String) : String(allowed),
      ]),
    );
    setSearching(true);
    void searchCatalog(chosen.catalog, search, where).then((found) => {
      if (!live) return;
      setOptions(found);
      setSearching(false);
    });
    return () => {
      live = false;
    };
  }, [chosen, search, searchCatalog, language]);

  const catalogTitle = (id: string) => {
    const catalog = catalogs.find((c) => c.id === id);
    return (catalog?.labels[language] ?? catalog?.labels.en)?.title ?? id;
  };
  const add = () => {
    const option = options.find((o) => o.code === code);
    if (chosen && !option)
      return setProblem({ field: 'entry', message: t('requests.editor.chooseEntry') });
    if (!chosen && !text.trim())
      return setProblem({ field: 'text', message: t('requests.editor.enterText') });
    if (!due) return setProblem({ field: 'due', message: t('requests.editor.enterDue') });
    setProblem(null);
    const item: DraftRequestItem = chosen
      ? { catalog: chosen.catalog, code: option!.code, kind, mandatory, due, shown: option!.name }
      : { text: text.trim(), kind, mandatory, due, shown: text.trim() };
    onChange([...value, item]);
    setCode(null);
    setSearch('');
    setTyped('');
    setText('');
  };
  const errorOf = (field: string) => (problem?.field === field ? problem.message : undefined);

  return (
    <Fieldset legend={t('requests.editor.title')} w={{ base: '100%', sm: 640 }}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('requests.editor.help')}
        </Text>
        {value.length === 0 ? (
          <Text size="sm">{t('requests.editor.none')}</Text>
        ) : (
          <div data-testid="request-items-draft">
            <Text id={listId} fw={500} size="sm">
              {t('requests.editor.list')}
            </Text>
            <List aria-labelledby={listId} spacing={4}>
              {value.map((item, index) => (
                <List.Item key={`${index}-${item.shown}`}>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm">
                      {item.code ? `${item.code} - ${item.shown}` : item.shown} ·{' '}
                      {t(`requests.kinds.${item.kind}`)} ·{' '}
                      {t(item.mandatory ? 'requests.mandatory' : 'requests.optional')} · {item.due}
                    </Text>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="sm"
                      aria-label={t('requests.editor.remove', { label: item.shown })}
                      onClick={() => onChange(value.filter((_, i) => i !== index))}
                    >
                      ×
                    </ActionIcon>
                  </Group>
                </List.Item>
              ))}
            </List>
          </div>
        )}
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('requests.editor.source')}
            data={[
              ...declared.map((c) => ({ value: c.catalog, label: catalogTitle(c.catalog) })),
              { value: FREE, label: t('requests.editor.freeText') },
            ]}
            value={source}
            allowDeselect={false}
            onChange={(next) => {
              setSource(next ?? FREE);
              setCode(null);
              setSearch('');
              setTyped('');
              setProblem(null);
            }}
            w={200}
          />
          {chosen ? (
            <Select
              label={t('requests.editor.entry')}
              placeholder={t('requests.editor.entryPlaceholder')}
              searchable
              clearable
              data={options.map((o) => ({ value: o.code, label: `${o.code} - ${o.name}` }))}
              value={code}
              onChange={setCode}
              searchValue={typed}
              onSearchChange={(next) => {
                setTyped(next);
                // Typing narrows by what is typed; the chosen entry's label is no search.
                if (!options.some((o) => `${o.code} - ${o.name}` === next)) setSearch(next);
              }}
              filter={({ options: all }) => all}
              nothingFoundMessage={
                searching ? t('requests.editor.searching') : t('requests.editor.nothingFound')
              }
              error={errorOf('entry')}
              w={{ base: '100%', sm: 320 }}
              data-testid="request-entry"
            />
          ) : (
            <TextInput
              label={t('requests.editor.text')}
              value={text}
              maxLength={500}
              onChange={(e) => setText(e.currentTarget.value)}
              error={errorOf('text')}
              w={{ base: '100%', sm: 320 }}
            />
          )}
        </Group>
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('requests.editor.kind')}
            data={(['document', 'answer'] as const).map((k) => ({
              value: k,
              label: t(`requests.kinds.${k}`),
            }))}
            value={kind}
            allowDeselect={false}
            onChange={(next) => setKind(next === 'answer' ? 'answer' : 'document')}
            w={180}
          />
          <TextInput
            type="date"
            label={t('requests.editor.dueDate')}
            value={due}
            min={dueIn(0)}
            onChange={(e) => setDue(e.currentTarget.value)}
            error={errorOf('due')}
            w={180}
          />
          <Checkbox
            label={t('requests.editor.mandatory')}
            checked={mandatory}
            onChange={(e) => setMandatory(e.currentTarget.checked)}
            mb={8}
          />
          <Button variant="default" onClick={add}>
            {t('requests.editor.add')}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
