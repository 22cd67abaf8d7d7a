import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../core/format';
import type { PaymentReport, PaymentReportAmounts } from '../../core/payments/report';
import { ErrorAlert } from '../../engine/ErrorAlert';
import { usePortal } from '../context';
import { downloadFromApi } from '../download';
import { useApiGet } from '../useApiGet';
import { useLanguage } from '../useLanguage';

const DAY_MS = 864e5;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The finance officers' payment report (docs/payments.md, "The payment report"): what was
 * received by day, by method and by fee, the refunds completed netted, for a range of days, and
 * its CSV. The server sums everything; the page only shows it.
 */
export function PaymentReportPage() {
  const { t } = useTranslation();
  const { session } = usePortal();
  const language = useLanguage();
  const today = isoDay(Date.now());
  const [range, setRange] = useState({ from: isoDay(Date.now() - 30 * DAY_MS), to: today });
  const [draft, setDraft] = useState(range);
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const query = `?from=${range.from}&to=${range.to}`;
  const answer = useApiGet<PaymentReport>('payments', `/report${query}`);
  const report = answer.value;
  const money = (amount: string, currency: string) => formatMoney(amount, language, currency);
  const k = (key: string) => t(`payment-report.${key}`);

  const download = async () => {
    setDownloading(true);
    setDownloadFailed(false);
    const done = await downloadFromApi(
      session,
      `/payments/report/csv${query}`,
      `payments-${range.from}-${range.to}.csv`,
      language,
    );
    setDownloading(false);
    if (!done) setDownloadFailed(true);
  };

  const amountCells = (row: PaymentReportAmounts) => (
    <>
      <Table.Td ta="right">{money(row.received, row.currency)}</Table.Td>
      <Table.Td ta="right">{money(row.refunded, row.currency)}</Table.Td>
      <Table.Td ta="right" fw={700}>
        {money(row.net, row.currency)}
      </Table.Td>
    </>
  );
  const amountHeads = (
    <>
      <Table.Th scope="col" ta="right">
        {k('columns.received')}
      </Table.Th>
      <Table.Th scope="col" ta="right">
        {k('columns.refunded')}
      </Table.Th>
      <Table.Th scope="col" ta="right">
        {k('columns.net')}
      </Table.Th>
    </>
  );
  const table = (caption: string, first: string, body: ReactNode, amounts = true) => (
    <Table.ScrollContainer minWidth={360}>
      <Table striped withTableBorder captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{first}</Table.Th>
            {amounts ? (
              amountHeads
            ) : (
              <Table.Th scope="col" ta="right">
                {k('columns.received')}
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  return (
    <Stack gap="md">
      <Title order={2}>{k('title')}</Title>
      <Text c="dimmed">{k('intro')}</Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setRange(draft);
        }}
      >
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label={k('from')}
            value={draft.from}
            max={draft.to}
            required
            onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={k('to')}
            value={draft.to}
            min={draft.from}
            required
            onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
          />
          <Button type="submit">{k('show')}</Button>
          <Button variant="default" loading={downloading} onClick={() => void download()}>
            {k('download')}
          </Button>
        </Group>
      </form>
      {downloadFailed && <ErrorAlert>{t('messages.unableToFetch')}</ErrorAlert>}
      {answer.failed && <ErrorAlert>{t('messages.unableToFetch')}</ErrorAlert>}
      {!answer.failed && !report && <Loader size="sm" role="status" aria-label={k('loading')} />}
      {report && report.totals.length === 0 && (
        <Alert color="yellow" role="status">
          {k('empty')}
        </Alert>
      )}
      {report && report.totals.length > 0 && (
        <>
          {table(
            k('total'),
            k('columns.currency'),
            report.totals.map((row) => (
              <Table.Tr key={row.currency}>
                <Table.Th scope="row">{row.currency}</Table.Th>
                {amountCells(row)}
              </Table.Tr>
            )),
          )}
          {table(
            k('byMethod'),
            k('columns.method'),
            report.methods.map((row) => (
              <Table.Tr key={`${row.method}-${row.currency}`} data-method={row.method}>
                <Table.Th scope="row">{row.label}</Table.Th>
                {amountCells(row)}
              </Table.Tr>
            )),
          )}
          {table(
            k('byDay'),
            k('columns.day'),
            report.days.map((row) => (
              <Table.Tr key={`${row.day}-${row.currency}`}>
                <Table.Th scope="row">{row.day}</Table.Th>
                {amountCells(row)}
              </Table.Tr>
            )),
          )}
          {table(
            k('byFee'),
            k('columns.fee'),
            report.fees.map((row) => (
              <Table.Tr key={`${row.code ?? ''}-${row.currency}`}>
                <Table.Th scope="row">
                  {row.code ? `${row.code} — ${row.label}` : row.label}
                </Table.Th>
                <Table.Td ta="right">{money(row.received, row.currency)}</Table.Td>
              </Table.Tr>
            )),
            false,
          )}
        </>
      )}
    </Stack>
  );
}
