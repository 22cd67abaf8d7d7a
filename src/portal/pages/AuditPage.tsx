import { useEffect, useState } from 'react';
import { Button, Group, Loader, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import {
  AUDIT_LINE_KINDS,
  auditQuery,
  type AuditFilters,
  type AuditLine,
  type AuditLineKind,
  type AuditPage as AuditAnswer,
} from '../../core/audit/lines';
import { ErrorAlert } from '../../engine/ErrorAlert';
import { usePortal } from '../context';
import { downloadFromApi } from '../download';
import { useLanguage } from '../useLanguage';
import { AuditTable } from './audit/AuditTable';

const FILTER_NAMES = ['person', 'document', 'kind', 'from', 'to'] as const;
const PAGE_SIZE = 50;

/** The filters the address names (`/audit?document=VA-2026-000042`): a document's panel links so. */
function filtersOf(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (!value) continue;
    if (name === 'kind') {
      if ((AUDIT_LINE_KINDS as readonly string[]).includes(value))
        filters.kind = value as AuditLineKind;
    } else filters[name] = value;
  }
  return filters;
}

/**
 * The audit screen (docs/audit.md) for the role `audit-read`: the trail's lines filtered by
 * person, document, kind and period, newest first, a page at a time; and the same as CSV. The
 * server decides what a line says and who may read it; the page only asks and shows.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const language = useLanguage();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const query = auditQuery(filters);
  const [draft, setDraft] = useState<AuditFilters>(filters);
  const [lines, setLines] = useState<AuditLine[] | undefined>();
  const [next, setNext] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const k = (key: string) => t(`audit.${key}`);

  const fetchPage = (cursor?: string) =>
    api.get<AuditAnswer>(
      'system',
      `/audit/events?${auditQuery(filters, { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) })}`,
    );

  useEffect(() => {
    let current = true;
    setLines(undefined);
    setFailed(false);
    setDraft(filtersOf(new URLSearchParams(query)));
    void fetchPage().then(([error, page]) => {
      if (!current) return;
      if (error) setFailed(true);
      else {
        setLines(page.items);
        setNext(page.next);
      }
    });
    return () => {
      current = false;
    };
    // The query says everything the page asks for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, query]);

  const more = async () => {
    if (!next) return;
    setLoadingMore(true);
    const [error, page] = await fetchPage(next);
    setLoadingMore(false);
    if (error) return setFailed(true);
    setLines((shown) => [...(shown ?? []), ...page.items]);
    setNext(page.next);
  };

  const exportCsv = async () => {
    setExporting(true);
    setExportFailed(false);
    const day = new Date().toISOString().slice(0, 10);
    const done = await downloadFromApi(
      session,
      `/audit/events.csv?${query}`,
      `audit-${day}.csv`,
      language,
    );
    setExporting(false);
    if (!done) setExportFailed(true);
  };

  const set = (name: keyof AuditFilters) => (value: string | null) =>
    setDraft((shown) => ({ ...shown, [name]: value ?? undefined }));

  return (
    <Stack gap="md">
      <Title order={2}>{k('title')}</Title>
      <Text c="dimmed">{k('intro')}</Text>
      <form
        aria-label={k('filters')}
        onSubmit={(event) => {
          event.preventDefault();
          setParams(new URLSearchParams(auditQuery(draft)));
        }}
      >
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={k('person')}
            description={k('personHelp')}
            value={draft.person ?? ''}
            maxLength={200}
            onChange={(event) => set('person')(event.currentTarget.value)}
          />
          <TextInput
            label={k('document')}
            description={k('documentHelp')}
            value={draft.document ?? ''}
            maxLength={200}
            onChange={(event) => set('document')(event.currentTarget.value)}
          />
          <Select
            label={k('kind')}
            placeholder={k('anyKind')}
            clearable
            data={AUDIT_LINE_KINDS.map((kind) => ({
              value: kind,
              label: t(`audit.kinds.${kind}`),
            }))}
            value={draft.kind ?? null}
            onChange={set('kind')}
          />
          <TextInput
            type="date"
            label={k('from')}
            value={draft.from ?? ''}
            max={draft.to}
            onChange={(event) => set('from')(event.currentTarget.value)}
          />
          <TextInput
            type="date"
            label={k('to')}
            value={draft.to ?? ''}
            min={draft.from}
            onChange={(event) => set('to')(event.currentTarget.value)}
          />
          <Button type="submit">{k('search')}</Button>
          <Button
            variant="subtle"
            onClick={() => {
              setDraft({});
              setParams(new URLSearchParams());
            }}
          >
            {k('clear')}
          </Button>
          <Button variant="default" loading={exporting} onClick={() => void exportCsv()}>
            {k('exportCsv')}
          </Button>
        </Group>
      </form>
      {exporting && (
        <Text size="sm" role="status">
          {k('exporting')}
        </Text>
      )}
      {exportFailed && <ErrorAlert>{k('errors.export')}</ErrorAlert>}
      {failed && <ErrorAlert>{k('errors.load')}</ErrorAlert>}
      {!failed && !lines && <Loader size="sm" role="status" aria-label={k('loading')} />}
      <div aria-live="polite">
        {lines && lines.length === 0 && <Text role="status">{k('none')}</Text>}
        {lines && lines.length > 0 && (
          <Text size="sm" c="dimmed" role="status">
            {t('audit.count', { count: lines.length })}
          </Text>
        )}
      </div>
      {lines && lines.length > 0 && <AuditTable lines={lines} caption={k('caption')} />}
      {next && (
        <Group>
          <Button variant="default" loading={loadingMore} onClick={() => void more()}>
            {k('more')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
