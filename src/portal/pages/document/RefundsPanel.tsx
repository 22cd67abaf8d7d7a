import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DocumentView } from '../../../core/documents/types';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { formatDateTime, formatMoney } from '../../../core/format';
import { toCents } from '../../../core/payments/money';
import {
  REFUND_REASONS,
  type DocumentRefunds,
  type RefundStatus,
  type RefundView,
} from '../../../core/payments/refunds';
import { resolvePointer } from '../../../core/rules/registry';
import { downloadFromApi } from '../../download';
import { usePortal } from '../../context';
import { useLanguage } from '../../useLanguage';

const STATUS_COLOURS: Record<RefundStatus, string> = {
  PENDING_APPROVAL: 'yellow',
  REQUESTED: 'blue',
  REFUNDED: 'green',
  FAILED: 'red',
  REJECTED: 'gray',
};

/** A refund's status as words, coloured (docs/payments.md, "Refunds"). */
export function RefundStatusBadge({ status }: { status: RefundStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOURS[status]} variant="light" tt="none">
      {t(`refund.statuses.${status}`)}
    </Badge>
  );
}

/**
 * The "Refunds" panel of a paid document whose workflow declares `payment.refunds`: its refunds
 * (number, amount, status as words, receipt), and for officers holding the requesters' role, a
 * refund opened by hand (at most what is left) and a bank transfer recorded. The server decides
 * and enforces it all; the panel only offers what the answer says the caller may do.
 */
export function RefundsPanel({
  workflow,
  document,
}: {
  workflow: WorkflowDefinition;
  document: DocumentView;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const payment = workflow.payment;
  const fees = payment ? resolvePointer(document.data, payment.fees) : undefined;
  const paid =
    typeof fees === 'object' && fees !== null && 'receiptReference' in fees
      ? Boolean((fees as { receiptReference?: unknown }).receiptReference)
      : false;
  const shown = Boolean(payment?.refunds) && paid;
  const path = `/${workflow.id}/${document.id}/refunds`;
  const [state, setState] = useState<{ value?: DocumentRefunds; error?: string }>({});
  const load = useCallback(async () => {
    const [error, value] = await api.get<DocumentRefunds>('payments', path);
    setState(error ? { error: error.message } : { value });
  }, [api, path]);
  useEffect(() => {
    if (shown) void load();
  }, [shown, load]);
  if (!shown) return null;
  const { value, error } = state;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="refunds-title">
      <Stack gap="sm">
        <Title order={3} id="refunds-title" size="h4">
          {t('refund.panel')}
        </Title>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {!value && !error && <Loader size="sm" role="status" aria-label={t('refund.loading')} />}
        {value && <RefundsBody value={value} path={path} reload={load} />}
      </Stack>
    </Paper>
  );
}

function RefundsBody({
  value,
  path,
  reload,
}: {
  value: DocumentRefunds;
  path: string;
  reload: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const money = (amount: string) => formatMoney(amount, language, value.currency ?? undefined);
  return (
    <Stack gap="sm">
      {value.paid && (
        <Group gap="lg" wrap="wrap">
          <Text size="sm">
            {t('refund.figure', { label: t('refund.paid') })}
            <strong>{money(value.paid)}</strong>
          </Text>
          <Text size="sm">
            {t('refund.figure', { label: t('refund.refunded') })}
            <strong>{money(value.refunded)}</strong>
          </Text>
          <Text size="sm">
            {t('refund.figure', { label: t('refund.available') })}
            <strong>{money(value.available)}</strong>
          </Text>
        </Group>
      )}
      {value.refunds.length === 0 ? (
        <Text c="dimmed">{t('refund.none')}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {value.refunds.map((refund) => (
            <RefundItem
              key={refund.id}
              refund={refund}
              canRecordTransfer={value.canRequest}
              reload={reload}
            />
          ))}
        </Stack>
      )}
      {value.canRequest && toCents(value.available)! > 0 && (
        <OpenRefund value={value} path={path} reload={reload} />
      )}
    </Stack>
  );
}

function RefundItem({
  refund,
  canRecordTransfer,
  reload,
}: {
  refund: RefundView;
  canRecordTransfer: boolean;
  reload: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { session } = usePortal();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setBusy(true);
    const done = await downloadFromApi(
      session,
      `/payments/refunds/${refund.id}/receipt`,
      `refund-${refund.refundNumber}.pdf`,
      language,
    );
    setBusy(false);
    setFailed(!done);
  };
  return (
    <Paper component="li" withBorder p="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Text fw={600}>{refund.refundNumber}</Text>
          <Text size="sm">
            {formatMoney(refund.amount, language, refund.currency)} ·{' '}
            {t(`refund.methods.${refund.method}`)} · {t(`refund.reasons.${refund.reason}`)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('refund.requestedAt')} {formatDateTime(refund.requestedAt)}
            {refund.completedAt &&
              ` · ${t('refund.completedAt')} ${formatDateTime(refund.completedAt)}`}
          </Text>
        </Stack>
        <Group gap="xs" wrap="wrap">
          <RefundStatusBadge status={refund.status} />
          {refund.status === 'REFUNDED' && (
            <Button
              variant="default"
              size="xs"
              loading={busy}
              onClick={() => void download()}
              aria-label={t('refund.downloadOf', { number: refund.refundNumber })}
            >
              {t('refund.download')}
            </Button>
          )}
        </Group>
      </Group>
      {failed && (
        <Text c="red" size="sm" role="alert">
          {t('messages.unableToFetch')}
        </Text>
      )}
      {canRecordTransfer && refund.method === 'transfer' && refund.status === 'REQUESTED' && (
        <RecordTransfer refund={refund} reload={reload} />
      )}
    </Paper>
  );
}

function RecordTransfer({ refund, reload }: { refund: RefundView; reload: () => Promise<void> }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async () => {
    setBusy(true);
    const [failure] = await api.post<RefundView>('payments', `/refunds/${refund.id}/transfer`, {
      reference: reference.trim(),
    });
    setBusy(false);
    if (failure) return setError(failure.message);
    await reload();
  };
  return (
    <Group align="end" mt="xs" wrap="wrap">
      <TextInput
        label={t('refund.transfer.reference')}
        value={reference}
        maxLength={100}
        onChange={(event) => setReference(event.currentTarget.value)}
        error={error}
        w={{ base: '100%', sm: 260 }}
      />
      <Button loading={busy} disabled={!reference.trim()} onClick={() => void submit()}>
        {t('refund.transfer.submit')}
      </Button>
    </Group>
  );
}

/** An officer's refund by hand: amount (at most what is left), reason, note; confirmed first. */
function OpenRefund({
  value,
  path,
  reload,
}: {
  value: DocumentRefunds;
  path: string;
  reload: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const language = useLanguage();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [amount, setAmount] = useState(value.available);
  const [reason, setReason] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const money = (text: string) => formatMoney(text, language, value.currency ?? undefined);
  const cents = toCents(amount);
  const available = toCents(value.available) ?? 0;
  const amountError =
    amount && (cents === undefined || cents <= 0 || cents > available)
      ? t('refund.open.amountHint', { amount: money(value.available) })
      : undefined;
  const ready = cents !== undefined && cents > 0 && cents <= available && reason !== null;
  const submit = async () => {
    setConfirming(false);
    setBusy(true);
    const [failure, refund] = await api.post<RefundView>('payments', path, {
      amount,
      reason,
      ...(note.trim() ? { note: note.trim() } : {}),
    });
    setBusy(false);
    if (failure || !refund) return setError(failure?.message);
    setDone(
      t('refund.open.opened', {
        number: refund.refundNumber,
        status: t(`refund.statuses.${refund.status}`),
      }),
    );
    setOpen(false);
    await reload();
  };
  return (
    <>
      {done && (
        <Alert color="green" role="status">
          {done}
        </Alert>
      )}
      {!open ? (
        <Group>
          <Button variant="default" onClick={() => (setOpen(true), setError(undefined))}>
            {t('refund.open.button')}
          </Button>
        </Group>
      ) : (
        <Stack gap="xs" component="form" onSubmit={(event) => event.preventDefault()}>
          <Text fw={600}>{t('refund.open.title')}</Text>
          {value.approvalAbove && (
            <Text size="sm" c="dimmed">
              {t('refund.approvalAbove', { amount: money(value.approvalAbove) })}
            </Text>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('refund.open.amount')}
            description={t('refund.open.amountHint', { amount: money(value.available) })}
            value={amount}
            inputMode="decimal"
            onChange={(event) => setAmount(event.currentTarget.value.trim())}
            error={amountError}
            w={{ base: '100%', sm: 260 }}
            required
          />
          <Select
            label={t('refund.open.reason')}
            data={REFUND_REASONS.map((code) => ({
              value: code,
              label: t(`refund.reasons.${code}`),
            }))}
            value={reason}
            onChange={setReason}
            w={{ base: '100%', sm: 360 }}
            required
          />
          <Textarea
            label={t('refund.open.note')}
            value={note}
            maxLength={2000}
            autosize
            minRows={2}
            onChange={(event) => setNote(event.currentTarget.value)}
            w={{ base: '100%', sm: 480 }}
          />
          <Group wrap="wrap">
            <Button loading={busy} disabled={!ready} onClick={() => setConfirming(true)}>
              {t('refund.open.submit')}
            </Button>
            <Button variant="default" onClick={() => setOpen(false)} disabled={busy}>
              {t('refund.open.cancel')}
            </Button>
          </Group>
        </Stack>
      )}
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('refund.open.title')}
        centered
      >
        <Stack>
          <Text>{t('refund.open.confirm', { amount: money(amount) })}</Text>
          <Group justify="flex-end" wrap="wrap">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('refund.open.cancel')}
            </Button>
            <Button color="red" onClick={() => void submit()}>
              {t('refund.open.submit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
