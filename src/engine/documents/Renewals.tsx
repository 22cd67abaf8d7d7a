import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../core/api/client';
import type { ApiError } from '../../core/api/errors';
import type { DocumentView } from '../../core/documents/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { formatDateTime } from '../format';
import { ConfirmDialog } from '../ConfirmDialog';

/*
 * A document's renewal and the documents naming it (docs/workflows.md, "Renewals, suspensions
 * and documents naming a document"), drawn from the workflow's `renewal` and `referencedBy`.
 */

interface ReferringList {
  label: string;
  columns: Array<{ key: string; label: string; kind: 'number' | 'status' | 'date' | 'text' }>;
  items: Array<{ id: string; type: string; values: Record<string, string | null> }>;
  more: boolean;
}

/**
 * The tables of the documents naming this one, one per `referencedBy` declaration. The server
 * answers its owner and officers; anyone else is answered 404, and sees no table.
 */
export function ReferringDocuments({
  workflow,
  document,
  api,
  backend,
}: {
  workflow: WorkflowDefinition;
  document: DocumentView;
  api: ApiClient;
  backend: string;
}) {
  const names = Object.keys(workflow.referencedBy ?? {});
  return (
    <>
      {names.map((name) => (
        <ReferringTable
          key={name}
          path={`/${workflow.id}/${document.id}/referenced-by/${name}`}
          api={api}
          backend={backend}
          // Read again when the document changes (a suspension flags those it names).
          version={document.version}
        />
      ))}
    </>
  );
}

function ReferringTable({
  path,
  api,
  backend,
  version,
}: {
  path: string;
  api: ApiClient;
  backend: string;
  version: number;
}) {
  const { t } = useTranslation();
  const [list, setList] = useState<ReferringList | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let current = true;
    void api.get<ReferringList>(backend, path).then(([error, answer]) => {
      if (!current) return;
      if (error) {
        if (error.status === 404 || error.status === 403) setHidden(true);
        else setFailure(error);
        return;
      }
      setList(answer);
    });
    return () => {
      current = false;
    };
  }, [api, backend, path, version]);
  if (hidden) return null;
  const headingId = `referring-${path.split('/').pop()}`;
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {list ? t(list.label) : t('referring.title')}
      </Title>
      {failure && <Alert color="red">{failure.message}</Alert>}
      {!list && !failure && <Loader size="sm" role="status" aria-label={t('referring.loading')} />}
      {list && list.items.length === 0 && <Text c="dimmed">{t('referring.none')}</Text>}
      {list && list.items.length > 0 && (
        <Table.ScrollContainer minWidth={360}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                {list.columns.map((column) => (
                  <Table.Th key={column.key}>{t(column.label)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.items.map((item) => (
                <Table.Tr key={item.id}>
                  {list.columns.map((column) => (
                    <Table.Td key={column.key}>
                      {cellText(t, column.kind, item.values[column.key])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list?.more && <Text size="sm">{t('referring.more', { count: list.items.length })}</Text>}
    </Stack>
  );
}

function cellText(
  t: (key: string, options?: Record<string, unknown>) => string,
  kind: ReferringList['columns'][number]['kind'],
  value: string | null | undefined,
): string {
  if (value === null || value === undefined) return '';
  if (kind === 'status') return t(`statuses.${value}`, { defaultValue: value });
  if (kind === 'date') return formatDateTime(value);
  return value;
}

/**
 * The button starting a renewal of this document (`renewal.start`), for its owner while it
 * stands in a status the declaration allows; asked for confirmation, it makes the renewal and
 * hands it to `onStarted` (its edit screen).
 */
export function RenewalButton({
  workflow,
  document,
  api,
  backend,
  subject,
  mayStart,
  onStarted,
}: {
  workflow: WorkflowDefinition;
  document: DocumentView;
  api: ApiClient;
  backend: string;
  subject: string;
  /** The caller holds one of the start action's roles. */
  mayStart: boolean;
  onStarted: (renewal: DocumentView) => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const renewal = workflow.renewal;
  if (!renewal || !mayStart || document.owner !== subject) return null;
  if (!renewal.statuses.includes(document.status)) return null;
  const start = async () => {
    setAsking(false);
    setBusy(true);
    setFailure(null);
    const [error, created] = await api.post<DocumentView>(backend, `/${workflow.id}`, {
      action: renewal.start,
      from: document.id,
      data: {},
    });
    setBusy(false);
    if (error) return setFailure(error);
    onStarted(created);
  };
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="light" loading={busy} onClick={() => setAsking(true)}>
          {t(renewal.button)}
        </Button>
        {busy && <Loader size="xs" role="status" aria-label={t(renewal.button)} />}
      </Group>
      {failure && <Alert color="red">{failure.message}</Alert>}
      <ConfirmDialog
        opened={asking}
        title={t(renewal.button)}
        message={t(renewal.confirm)}
        cancelLabel={t('confirm.back')}
        confirmLabel={t(renewal.button)}
        onCancel={() => setAsking(false)}
        onConfirm={() => void start()}
        destructive={false}
      />
    </Stack>
  );
}
