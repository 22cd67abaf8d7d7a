import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../core/format';
import type { RetentionItem } from '../../core/retention/plan';
import { ConfirmDialog } from '../../engine/ConfirmDialog';
import { ErrorAlert } from '../../engine/ErrorAlert';
import { usePortal } from '../context';
import { useApiGet } from '../useApiGet';

interface Plan {
  at: string;
  digest: string;
  items: RetentionItem[];
}
interface RunResult {
  done: RetentionItem[];
  held: number;
  skipped: unknown[];
}

/**
 * The retention plan (docs/retention.md): the closed documents due now, what goes of each, those
 * held and why, and a run of exactly this plan after a confirmation. The server plans and checks
 * everything again; the page only shows the plan and sends its digest back.
 */
export function RetentionPlanPage() {
  const { t } = useTranslation();
  const [reload, setReload] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return (
    <Stack gap="md">
      <Title order={2}>{t('retention.title')}</Title>
      <Text c="dimmed">{t('retention.intro')}</Text>
      <div aria-live="polite">
        {outcome && (
          <Alert color={outcome.warning ? 'yellow' : 'green'} role="status">
            {outcome.text}
          </Alert>
        )}
      </div>
      {/* A new key after a run: the plan is asked for again, as it now stands. */}
      <PlanTable
        key={reload}
        onRan={(next) => {
          setOutcome(next);
          setReload((n) => n + 1);
        }}
      />
    </Stack>
  );
}

interface Outcome {
  text: string;
  warning: boolean;
}

function PlanTable({ onRan }: { onRan: (outcome: Outcome) => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const answer = useApiGet<Plan>('system', '/retention/plan');
  const plan = answer.value;
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const k = (key: string, options?: Record<string, unknown>) => t(`retention.${key}`, options);
  const going = plan?.items.filter((item) => !item.held) ?? [];
  const what = (item: RetentionItem) =>
    `${k('fields', { count: item.fields.length })}, ${k('uploads', { count: item.uploads.length })}`;
  const typeOf = (item: RetentionItem) => t(`${item.type}._title`, { defaultValue: item.type });
  const statusOf = (item: RetentionItem) =>
    t(`statuses.${item.status}`, { defaultValue: item.status });
  const happens = (item: RetentionItem) =>
    item.held ? (
      <Group gap={4}>
        {item.held.map((reason) => (
          <Badge key={reason} color="orange" variant="light" tt="none">
            {k('held.title')}: {k(`held.${reason}`)}
          </Badge>
        ))}
      </Group>
    ) : (
      k(`actions.${item.action}`)
    );

  const run = async () => {
    if (!plan) return;
    setConfirming(false);
    setRunning(true);
    const [error, result] = await api.post<RunResult>('system', '/retention/run', {
      at: plan.at,
      digest: plan.digest,
    });
    setRunning(false);
    if (error?.code === 'RETENTION_PLAN_CHANGED') onRan({ text: k('changed'), warning: true });
    else if (error) onRan({ text: error.message, warning: true });
    else
      onRan({
        text: k('done', {
          done: result.done.length,
          held: result.held,
          skipped: result.skipped.length,
        }),
        warning: false,
      });
  };

  return (
    <>
      {answer.failed && <ErrorAlert>{t('messages.unableToFetch')}</ErrorAlert>}
      {!answer.failed && !plan && <Loader size="sm" role="status" aria-label={k('loading')} />}
      {plan && plan.items.length === 0 && (
        <Alert color="blue" role="status">
          {k('empty')}
        </Alert>
      )}
      {plan && plan.items.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={360} visibleFrom="sm">
            <Table striped withTableBorder captionSide="top" data-retention-plan>
              <Table.Caption>{k('caption', { count: plan.items.length })}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{k('columns.number')}</Table.Th>
                  <Table.Th scope="col">{k('columns.type')}</Table.Th>
                  <Table.Th scope="col">{k('columns.status')}</Table.Th>
                  <Table.Th scope="col">{k('columns.due')}</Table.Th>
                  <Table.Th scope="col">{k('columns.action')}</Table.Th>
                  <Table.Th scope="col">{k('columns.what')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {plan.items.map((item) => (
                  <Table.Tr key={item.documentId} data-held={item.held ? 'true' : undefined}>
                    <Table.Th scope="row">{item.number ?? k('noNumber')}</Table.Th>
                    <Table.Td>{t(`${item.type}._title`, { defaultValue: item.type })}</Table.Td>
                    <Table.Td>
                      {t(`statuses.${item.status}`, { defaultValue: item.status })}
                    </Table.Td>
                    <Table.Td>{formatDate(item.due)}</Table.Td>
                    <Table.Td>{happens(item)}</Table.Td>
                    <Table.Td>{what(item)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {/* A narrow screen: one card per document, nothing to scroll sideways. */}
          <Stack gap="xs" hiddenFrom="sm">
            <Text size="sm" c="dimmed" id="retention-plan-cards">
              {k('caption', { count: plan.items.length })}
            </Text>
            <Stack
              gap="xs"
              component="ul"
              aria-labelledby="retention-plan-cards"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
            >
              {plan.items.map((item) => (
                <Paper key={item.documentId} withBorder p="sm" component="li">
                  <Text fw={700}>{item.number ?? k('noNumber')}</Text>
                  <Text size="sm">
                    {typeOf(item)} · {statusOf(item)} · {k('columns.due')} {formatDate(item.due)}
                  </Text>
                  <Text size="sm" component="div">
                    {happens(item)}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {what(item)}
                  </Text>
                </Paper>
              ))}
            </Stack>
          </Stack>
          <Group>
            <Button
              color="red"
              disabled={going.length === 0}
              loading={running}
              onClick={() => setConfirming(true)}
            >
              {k('run')}
            </Button>
          </Group>
        </>
      )}
      <ConfirmDialog
        opened={confirming}
        title={k('confirmTitle')}
        message={k('confirmMessage', { count: going.length })}
        cancelLabel={k('cancel')}
        confirmLabel={k('confirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void run()}
      />
    </>
  );
}
