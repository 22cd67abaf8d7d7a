import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { DocumentView } from '../../core/documents/types';
import type { ScreenMode, WorkflowDefinition, WorkflowScreen } from '../../core/documents/workflow';
import { formatDateTime, formatMoney } from '../../core/format';
import { translate } from '../../core/i18n/translate';
import { localizedText } from '../../core/i18n/localized';
import { resolvePointer } from '../../core/rules/registry';
import type { FeeLine, PaymentOrderView } from '../../core/payments/types';
import { downloadFromApi } from '../download';
import { usePortal } from '../context';
import { useLanguage } from '../useLanguage';
import { NotFoundPage } from './MessagePage';
import { PaymentWayOut } from './document/PaymentWayOut';
import { backendOf } from '../../core/documents/conventions';
import { ErrorAlert } from '../../engine/ErrorAlert';
import { PageLoading } from '../lazyPage';
import { StatusBadge } from '../../engine/documents/DocumentChrome';

interface PaymentState {
  documentStatus: string;
  order: PaymentOrderView | null;
}

const FAILED = ['DECLINED', 'CANCELLED', 'TIMED_OUT'];
const PAYING_MODES: ReadonlySet<ScreenMode> = new Set<ScreenMode>([
  'confirmation',
  'initiate',
  'payment',
]);
/** How long the return page waits for the gateway's word before offering to check again. */
const POLL_MS = 2000;
const POLL_TIMES = 15;

/**
 * The payment screens of a payable workflow (specification 000, section 2): confirmation,
 * finalisation, error and print. Amounts are the server's decimal strings.
 */
export function PaymentScreenPage({
  workflow,
  screen,
}: {
  workflow: WorkflowDefinition;
  screen: WorkflowScreen;
}) {
  const { id = '' } = useParams();
  const { api, bundle, session } = usePortal();
  const language = useLanguage();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const payment = workflow.payment;
  const [document, setDocument] = useState<DocumentView | null>(null);
  const [state, setState] = useState<PaymentState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);
  const [termsError, setTermsError] = useState(false);
  const [busy, setBusy] = useState(false);
  const [polls, setPolls] = useState(0);
  const backend = backendOf(workflow);
  const paying = PAYING_MODES.has(screen.mode);
  const view = paying
    ? 'confirmation'
    : screen.path.startsWith('/error')
      ? 'error'
      : screen.mode === 'print'
        ? 'print'
        : 'finalisation';
  const screenPath = (mode: string, path?: string) => {
    const target = workflow.screens.find(
      (s) => s.mode === mode && (!path || s.path.startsWith(path)),
    );
    return target ? `${workflow.prefix}${target.path.replace(':id', id)}` : undefined;
  };

  const load = useCallback(async () => {
    const [error, loaded] = await api.get<DocumentView>(backend, `/${workflow.id}/${id}`);
    if (error) return setFailure(error.status === 404 ? t('pages.notFound') : error.message);
    setDocument(loaded);
    if (paying) return;
    const [stateError, current] = await api.get<PaymentState>('payments', `/${workflow.id}/${id}`);
    if (stateError) return setFailure(stateError.message);
    setState(current);
  }, [api, backend, workflow.id, id, paying, t]);

  useEffect(() => {
    void load();
  }, [load]);

  // Back from the gateway before its notification: ask again for a while.
  const pending = state?.order?.status === 'PENDING' || state?.order?.status === 'CREATED';
  useEffect(() => {
    if (paying || !pending || polls >= POLL_TIMES) return undefined;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      void load();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, polls, load, paying]);

  // A failed payment on the finalisation screen is the error screen's business.
  const failed = state?.order ? FAILED.includes(state.order.status) : false;
  const errorPath = screenPath('finalisation', '/error');
  useEffect(() => {
    if (failed && errorPath && !screen.path.startsWith('/error'))
      navigate(errorPath, { replace: true });
  }, [failed, errorPath, screen.path, navigate]);

  const pay = async () => {
    if (!document) return;
    if (!accepted) return setTermsError(true);
    const fail = (message: string) => {
      setBusy(false);
      setFailure(message);
    };
    setBusy(true);
    setFailure(null);
    if (document.status !== 'PURCHASE INITIATED') {
      const [error, initiated] = await api.post<DocumentView>(
        backend,
        `/${workflow.id}/${id}/actions/initiate`,
        { version: document.version, data: { termsAccepted: true } },
      );
      if (error) return fail(error.message);
      setDocument(initiated);
    }
    const [error, purchase] = await api.post<{ redirectUrl: string }>(
      'payments',
      `/${workflow.id}/${id}/purchase`,
    );
    if (error) return fail(error.message);
    // The gateway's own page takes the card: the portal never sees it.
    window.location.assign(purchase.redirectUrl);
  };

  const downloadReceipt = async () => {
    setFailure(null);
    const done = await downloadFromApi(
      session,
      `/payments/${workflow.id}/${id}/receipt`,
      `receipt-${state?.order?.receiptReference ?? id}.pdf`,
      language,
    );
    if (!done) setFailure(t('messages.unableToFetch'));
  };

  if (!payment) return <NotFoundPage />;
  if (failure && !document) return <ErrorAlert>{failure}</ErrorAlert>;
  if (!document || (!paying && !state)) return <PageLoading />;

  const title = translate(bundle.translations, language, payment.title);
  const fees = resolvePointer(document.data, payment.fees) as
    { lines?: FeeLine[]; total?: string } | undefined;
  const order = state?.order ?? null;
  const items = order?.items ?? fees?.lines ?? [];
  const total = order?.total ?? fees?.total ?? '0.00';
  const money = (amount: string) => formatMoney(amount, language);
  const feeTable = (
    <Table withTableBorder captionSide="top">
      {/* Once paid (the receipt), the lines are what was paid, not what is due. */}
      <Table.Caption>
        {t(order?.status === 'APPROVED' ? 'payment.feesPaid' : 'payment.fees')}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('payment.code')}</Table.Th>
          <Table.Th scope="col">{t('payment.fee')}</Table.Th>
          <Table.Th scope="col" ta="right">
            {t('payment.amount')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((line, index) => (
          <Table.Tr key={`${line.code}-${index}`}>
            <Table.Td>{line.code}</Table.Td>
            <Table.Td>
              {localizedText(line, 'name', language) ?? line.name}
              {line.narration ? ` (${line.narration})` : ''}
            </Table.Td>
            <Table.Td ta="right">{money(line.amount)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th scope="row" colSpan={2}>
            {t('payment.total')}
          </Table.Th>
          <Table.Td ta="right" fw={700}>
            {money(total)}
          </Table.Td>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
  const status = state?.documentStatus ?? document.status;
  const confirmation = screenPath('confirmation');

  return (
    <Stack gap="md" maw={720}>
      <Group justify="space-between">
        <Title order={2}>
          {t(`payment.screens.${view}`)}
          {' - '}
          {title} {document.number ?? ''}
        </Title>
        <StatusBadge status={status} size="lg" />
      </Group>
      <ErrorAlert>{failure}</ErrorAlert>
      {paying && (
        <>
          {feeTable}
          {document.status === 'SUBMITTED' || document.status === 'PURCHASE INITIATED' ? (
            <>
              <Checkbox
                label={t('payment.terms')}
                checked={accepted}
                onChange={(event) => {
                  setAccepted(event.currentTarget.checked);
                  setTermsError(false);
                }}
                error={termsError ? t('validation.accepted') : undefined}
              />
              {busy && (
                <Alert color="blue" role="status">
                  {t('messages.processing')}
                </Alert>
              )}
              <Group>
                <Button onClick={() => void pay()} loading={busy}>
                  {t('payment.pay', { amount: money(total) })}
                </Button>
              </Group>
            </>
          ) : (
            <Alert color="blue" role="note">
              {t('payment.notPayable')}
            </Alert>
          )}
        </>
      )}
      {!paying && order && (
        <>
          {order.status === 'APPROVED' && (
            <Alert color="green" role="status">
              {t('success.pay')}
            </Alert>
          )}
          {pending && (
            <Alert color="blue" role="status">
              {polls >= POLL_TIMES ? t('payment.stillPending') : t('payment.pending')}
              {polls >= POLL_TIMES && (
                <Button variant="subtle" onClick={() => setPolls(0)}>
                  {t('payment.checkAgain')}
                </Button>
              )}
            </Alert>
          )}
          {failed && <ErrorAlert>{t(`payment.outcomes.${order.status}`)}</ErrorAlert>}
          <Table withTableBorder>
            <Table.Tbody>
              {(
                [
                  ['orderReference', order.orderReference],
                  ['receiptReference', order.receiptReference],
                  ['amountPaid', order.amountPaid ? money(order.amountPaid) : null],
                  ['card', order.maskedCard],
                  ['paidAt', order.paidAt ? formatDateTime(order.paidAt) : null],
                ] as const
              )
                .filter(([, value]) => value)
                .map(([key, value]) => (
                  <Table.Tr key={key}>
                    <Table.Th scope="row">{t(`payment.${key}`)}</Table.Th>
                    <Table.Td>{value}</Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
          {feeTable}
          <Group>
            {order.status === 'APPROVED' && (
              <Button onClick={() => void downloadReceipt()}>{t('payment.downloadReceipt')}</Button>
            )}
            {failed && confirmation && (
              <Button component={Link} to={confirmation}>
                {t('payment.tryAgain')}
              </Button>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t('payment.noCardKept')}
          </Text>
        </>
      )}
      {!paying && !order && (
        <Alert color="blue" role="note">
          {t('payment.noOrder')}
        </Alert>
      )}
      <PaymentWayOut workflow={workflow} document={document} />
    </Stack>
  );
}
