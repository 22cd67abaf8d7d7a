import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkflowDefinition, WorkflowScreen } from '../../core/documents/workflow';
import { formatDateTime, formatMoney } from '../../core/format';
import type { RefundView } from '../../core/payments/refunds';
import { usePortal } from '../context';
import { useLanguage } from '../useLanguage';
import { RefundStatusBadge } from './document/RefundsPanel';

type Decision = 'approve' | 'reject';

/**
 * "Refunds to approve" (a screen of mode `refund-approvals`, in the menu like the others): the
 * refunds of this workflow waiting for approval, each approved or rejected with a reason after a
 * confirmation. A refund the reader asked for is shown but not theirs to approve (four eyes);
 * the server refuses it anyway (403).
 */
export function RefundApprovalsPage({
  workflow,
}: {
  workflow: WorkflowDefinition;
  screen: WorkflowScreen;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [state, setState] = useState<{ items?: RefundView[]; error?: string }>({});
  const [done, setDone] = useState<string>();
  const load = useCallback(async () => {
    const [error, items] = await api.get<RefundView[]>('payments', '/refunds/pending');
    setState(
      error
        ? { error: error.message }
        : { items: (items ?? []).filter((item) => item.documentType === workflow.id) },
    );
  }, [api, workflow.id]);
  useEffect(() => void load(), [load]);
  const { items, error } = state;
  return (
    <Stack gap="md">
      <Title order={2}>{t('refund.approvals.title')}</Title>
      {done && (
        <Alert color="green" role="status">
          {done}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {!items && !error && <Loader role="status" aria-label={t('refund.approvals.loading')} />}
      {items?.length === 0 && <Text c="dimmed">{t('refund.approvals.none')}</Text>}
      {items && items.length > 0 && (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((refund) => (
            <PendingRefund
              key={refund.id}
              refund={refund}
              onDone={async (message) => {
                setDone(message);
                await load();
              }}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function PendingRefund({
  refund,
  onDone,
}: {
  refund: RefundView;
  onDone: (message: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const language = useLanguage();
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState<Decision>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const amount = formatMoney(refund.amount, language, refund.currency);
  const params = { number: refund.refundNumber, amount };
  const decide = async (decision: Decision) => {
    setConfirming(undefined);
    setBusy(true);
    const [failure] = await api.post<RefundView>('payments', `/refunds/${refund.id}/${decision}`, {
      reason: reason.trim(),
    });
    setBusy(false);
    if (failure) return setError(failure.message);
    await onDone(
      t(decision === 'approve' ? 'refund.approvals.approved' : 'refund.approvals.rejected', params),
    );
  };
  const reasonId = `refund-reason-${refund.id}`;
  return (
    <Paper component="li" withBorder p="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text fw={600}>{refund.refundNumber}</Text>
          <RefundStatusBadge status={refund.status} />
        </Group>
        <Text size="sm">
          {t('refund.figure', { label: t('refund.document') })}
          {refund.documentNumber ?? ''} · {amount} · {t(`refund.methods.${refund.method}`)}
        </Text>
        <Text size="sm">
          {t('refund.figure', { label: t('refund.reason') })}
          {t(`refund.reasons.${refund.reason}`)}
          {refund.note ? ` — ${refund.note}` : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {t('refund.requestedAt')} {formatDateTime(refund.requestedAt)}
        </Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {refund.requestedByMe ? (
          <Text size="sm" c="dimmed">
            {t('refund.approvals.yours')}
          </Text>
        ) : (
          <>
            <Textarea
              id={reasonId}
              label={t('refund.approvals.decisionReason')}
              value={reason}
              maxLength={2000}
              autosize
              minRows={2}
              required
              onChange={(event) => setReason(event.currentTarget.value)}
              w={{ base: '100%', sm: 480 }}
            />
            <Group wrap="wrap">
              <Button
                loading={busy}
                disabled={!reason.trim()}
                onClick={() => setConfirming('approve')}
              >
                {t('refund.approvals.approve')}
              </Button>
              <Button
                color="red"
                variant="outline"
                loading={busy}
                disabled={!reason.trim()}
                onClick={() => setConfirming('reject')}
              >
                {t('refund.approvals.reject')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
      <Modal
        opened={confirming !== undefined}
        onClose={() => setConfirming(undefined)}
        title={t(confirming === 'reject' ? 'refund.approvals.reject' : 'refund.approvals.approve')}
        centered
      >
        <Stack>
          <Text>
            {t(
              confirming === 'reject'
                ? 'refund.approvals.confirmReject'
                : 'refund.approvals.confirmApprove',
              params,
            )}
          </Text>
          <Group justify="flex-end" wrap="wrap">
            <Button variant="default" onClick={() => setConfirming(undefined)}>
              {t('refund.open.cancel')}
            </Button>
            <Button
              color={confirming === 'reject' ? 'red' : undefined}
              onClick={() => confirming && void decide(confirming)}
            >
              {t(confirming === 'reject' ? 'refund.approvals.reject' : 'refund.approvals.approve')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
