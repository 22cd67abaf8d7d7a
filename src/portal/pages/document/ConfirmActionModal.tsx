import type { ReactNode } from 'react';
import { Alert, Button, Group, Loader, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../core/format';
import type { RefundQuote } from '../../../core/payments/types';
import { useApiGet } from '../../useApiGet';
import { useLanguage } from '../../useLanguage';

/** The document whose refund the action would open (`opensRefund`): its type and id. */
export interface RefundOf {
  type: string;
  id: string;
}

/** Asks before a destructive (`danger`) action, Go back first. */
export function ConfirmActionModal({
  action,
  entity,
  refund,
  onConfirm,
  onClose,
}: {
  /** The action waiting for the answer, or null when the dialog is closed. */
  action: string | null;
  /** The entity id, for a text of its own (`<entity>.confirm.<action>`). */
  entity: string;
  /** Set when the action refunds the fees paid: the dialog says how much before it is taken. */
  refund?: RefundOf;
  onConfirm: (action: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const label = action ? t(`actions.${action}`, { defaultValue: action }) : '';
  const body = action
    ? t(`${entity}.confirm.${action}`, {
        defaultValue: t(`confirm.${action}`, { defaultValue: t('confirm.default') }),
      })
    : '';
  return (
    <Modal
      opened={action !== null}
      onClose={onClose}
      title={label}
      centered
      // Two named buttons (and Escape) answer; a bare cross would be a third, vaguer one.
      withCloseButton={false}
    >
      <Text mb="lg">{body}</Text>
      {/* Mounted only while open: each opening quotes the refund at the status of now. */}
      {action !== null && refund ? (
        <RefundQuoteView
          refund={refund}
          label={label}
          action={action}
          {...{ onConfirm, onClose }}
        />
      ) : (
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('confirm.back')}
          </Button>
          <Button color="red" onClick={() => action && onConfirm(action)}>
            {label}
          </Button>
        </Group>
      )}
    </Modal>
  );
}

/** The refund the action would open, as the server quotes it; the action waits for the quote. */
function RefundQuoteView({
  refund,
  label,
  action,
  onConfirm,
  onClose,
}: {
  refund: RefundOf;
  label: string;
  action: string;
  onConfirm: (action: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const quote = useApiGet<RefundQuote>('payments', `/${refund.type}/${refund.id}/refund`);
  const language = useLanguage();
  const money = (amount: string, currency: string) => formatMoney(amount, language, currency);
  let said: ReactNode;
  if (quote.failed) said = <Alert color="yellow">{t('confirm.refund.failed')}</Alert>;
  else if (!quote.value)
    said = (
      <Group gap="xs">
        <Loader size="sm" role="status" aria-label={t('confirm.refund.loading')} />
        <Text size="sm">{t('confirm.refund.loading')}</Text>
      </Group>
    );
  else {
    const { paid, refund: amount, currency } = quote.value;
    const params = { paid: money(paid, currency), refund: money(amount, currency) };
    const key =
      Number(paid) === 0
        ? 'confirm.refund.nothingPaid'
        : Number(amount) === 0
          ? 'confirm.refund.none'
          : 'confirm.refund.amount';
    said = (
      <Text fw={600} data-testid="refund-quote">
        {t(key, params)}
      </Text>
    );
  }
  return (
    <>
      <div aria-live="polite" style={{ marginBottom: 'var(--mantine-spacing-lg)' }}>
        {said}
      </div>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-autofocus>
          {t('confirm.back')}
        </Button>
        {/* The holder decides knowing the refund: not before it is quoted (or cannot be). */}
        <Button
          color="red"
          disabled={!quote.value && !quote.failed}
          onClick={() => onConfirm(action)}
        >
          {label}
        </Button>
      </Group>
    </>
  );
}
