import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Timeline,
  Title,
  type MantineSize,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ApiClient } from '../../core/api/client';
import type { DocumentView, HistoryEntry, VersionSummary } from '../../core/documents/types';
import { formatDateTime } from '../format';
import { FLAG_HISTORY_TEXTS } from '../../core/documents/case-work';
import { PAYER_HISTORY_TEXTS } from '../../core/documents/payer-consent';
import { useAnswer } from '../useAnswer';

/** A status badge in words (Mantine's capitals would read as the raw code). */
export function StatusBadge({ status, size }: { status: string; size?: MantineSize }) {
  const { t } = useTranslation();
  return (
    <Badge size={size} variant="light" tt="none" data-status={status}>
      {statusText(t, status)}
    </Badge>
  );
}

/** A status in words; an unknown one as its code. */
const statusText = (t: TFunction, status: string) =>
  t(`statuses.${status}`, { defaultValue: status });

/** Who a record names: the service's own actors by their translated name, a person by theirs. */
export function actorName(t: TFunction, name: string): string {
  const system = /^system(?::([a-z-]+))?$/.exec(name);
  if (!system) return name;
  return t(`actors.${system[1] ?? 'system'}`, { defaultValue: t('actors.system') });
}

/** Who wrote a history line: a delegate's reads "{name} on behalf of {holder}" (`onBehalfOf`). */
export function historyActor(t: TFunction, entry: HistoryEntry): string {
  const name = actorName(t, entry.name);
  return entry.onBehalfOf ? t('delegates.onBehalfOf', { name, holder: entry.onBehalfOf }) : name;
}

/** A status change (`STORED -> SUBMITTED`) in words: "Stored → Submitted". */
export function operationText(t: TFunction, operation: string): string {
  const [from, to] = operation.split(' -> ');
  if (to === undefined) return statusText(t, operation);
  return from === to ? statusText(t, to) : `${statusText(t, from ?? '')} → ${statusText(t, to)}`;
}

/** Notes as recorded, or translated for the service's own; an assignment names its assignee(s) first. */
function notesText(t: TFunction, entry: HistoryEntry): string {
  const notes = entry.notesKey
    ? t(entry.notesKey, { ...entry.notesParams, defaultValue: entry.notes ?? '' })
    : (entry.notes ?? '');
  if (!entry.assignedTo) return notes;
  // A reassignment says from whom to whom; its notes say why (`reassignReason`).
  const assigned = entry.assignedFrom
    ? t('assignment.assignedFrom', { from: entry.assignedFrom, to: entry.assignedTo })
    : t('assignment.assignedTo', { name: entry.assignedTo });
  return [assigned, notes].filter(Boolean).join(' · ');
}

/** Status, number and who created and last changed the document, and when. */
export function DocumentInformation({ document }: { document: DocumentView }) {
  const { t } = useTranslation();
  const items: Array<[string, ReactNode]> = [
    ['documents.status', <StatusBadge status={document.status} />],
    ['documents.number', document.number ?? ''],
    ['documents.createdAt', formatDateTime(document.createdAt)],
    ['documents.createdBy', actorName(t, document.createdBy)],
    ['documents.updatedAt', formatDateTime(document.updatedAt)],
    ['documents.updatedBy', actorName(t, document.updatedBy)],
  ];
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="document-information">
      <Title order={3} size="h5" id="document-information" mb="xs">
        {t('documents.information')}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" component="dl" m={0}>
        {items.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {t(label)}
            </Text>
            <Text component="dd" m={0} data-field={label}>
              {value || '-'}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/** A document's records, read from its workflow's backend. */
export interface DocumentSource {
  api: ApiClient;
  backend: string;
  type: string;
  id: string;
  /** The document's version: its records are read again when it changes. */
  current: number;
}

function useDocumentRecords<T>(
  { api, backend, type, id, current }: DocumentSource,
  what: 'versions' | 'history',
): T[] {
  const records = useAnswer(
    // A failed read keeps the records shown.
    () =>
      api
        .get<T[]>(backend, `/${type}/${id}/${what}`)
        .then(([e, data]) => (e ? Promise.reject(e) : data)),
    [api, backend, type, id, current, what],
  );
  return records ?? NO_RECORDS;
}

const NO_RECORDS: never[] = [];

export const useDocumentHistory = (source: DocumentSource) =>
  useDocumentRecords<HistoryEntry>(source, 'history');

/** Every version of the document, newest first, each opening read-only. */
export function VersionList({
  hrefOf,
  ...source
}: DocumentSource & { hrefOf: (version: number) => string }) {
  const { t } = useTranslation();
  const versions = useDocumentRecords<VersionSummary>(source, 'versions');
  return (
    <Stack gap="xs" component="section" aria-labelledby="document-versions">
      <Title order={3} size="h5" id="document-versions">
        {t('documents.versions')}
      </Title>
      {versions.map((v) => (
        <Group key={v.version} gap="xs">
          <Anchor
            href={hrefOf(v.version)}
            aria-label={t('documents.viewVersion', { version: v.version })}
          >
            {t('documents.version', { version: v.version })}
          </Anchor>
          <Text size="sm" c="dimmed">
            {t(`actions.${v.action}`, { defaultValue: v.action })} · {statusText(t, v.status)} ·{' '}
            {formatDateTime(v.at)} · {actorName(t, v.by)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** The action history: action, operation, date-time, notes, name, e-mail, mobile. */
export function HistoryTable(source: DocumentSource) {
  const { t } = useTranslation();
  const entries = useDocumentHistory(source);
  const headers = ['action', 'operation', 'at', 'notes', 'name', 'email', 'mobile'];
  return (
    <Stack gap="xs" component="section" aria-labelledby="document-history">
      <Title order={3} size="h5" id="document-history">
        {t('documents.history')}
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              {headers.map((h) => (
                <Table.Th key={h}>{t(`documents.${h}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry, i) => (
              <Table.Tr key={i}>
                <Table.Td>
                  {t(
                    FLAG_HISTORY_TEXTS[entry.action] ??
                      PAYER_HISTORY_TEXTS[entry.action] ??
                      `actions.${entry.action}`,
                    {
                      defaultValue: entry.action,
                    },
                  )}
                </Table.Td>
                <Table.Td>{operationText(t, entry.operation)}</Table.Td>
                <Table.Td>{formatDateTime(entry.at)}</Table.Td>
                <Table.Td>{notesText(t, entry)}</Table.Td>
                <Table.Td>{historyActor(t, entry)}</Table.Td>
                <Table.Td>{entry.email ?? ''}</Table.Td>
                <Table.Td>{entry.mobile ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** The document's statuses as a timeline, with the usual time to the next step where given. */
export function DocumentTimeline({
  estimatedDays,
  ...source
}: DocumentSource & {
  /** Usual days spent in a status, from the workflow's machine (`meta.estimatedDays`). */
  estimatedDays: Record<string, number>;
}) {
  const { t } = useTranslation();
  const entries = useDocumentHistory(source);
  const statuses = (entry: HistoryEntry) => entry.operation.split(' -> ');
  const steps = entries.filter((entry, i) => i === 0 || statuses(entry)[0] !== statuses(entry)[1]);
  return (
    <Stack gap="xs" component="section" aria-labelledby="document-timeline">
      <Title order={3} size="h5" id="document-timeline">
        {t('documents.timeline')}
      </Title>
      <Timeline active={steps.length - 1} bulletSize={16} lineWidth={2}>
        {steps.map((entry, i) => {
          const status = statuses(entry)[1] ?? '';
          const days = estimatedDays[status];
          return (
            <Timeline.Item key={i} title={statusText(t, status)}>
              <Text size="sm">
                {formatDateTime(entry.at)} · {historyActor(t, entry)}
              </Text>
              {days !== undefined && i === steps.length - 1 && (
                <Text size="xs" c="dimmed">
                  {t('documents.estimated', { days })}
                </Text>
              )}
            </Timeline.Item>
          );
        })}
      </Timeline>
    </Stack>
  );
}
