import { useState } from 'react';
import {
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../core/api/client';
import type {
  DocumentPayers,
  PayableDocument,
  PayerConsent,
} from '../../core/documents/payer-consent';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { ConfirmDialog } from '../ConfirmDialog';
import { ErrorAlert } from '../ErrorAlert';
import { useApiAnswer } from '../useApiAnswer';
import { useApiMessage } from '../useApiMessage';
import { useConfirmation } from '../useConfirmation';
import { formatDateTime } from '../format';
import { formatMoney } from '../../core/format';
import { pickLanguage } from '../../core/i18n/translate';
import { StatusBadge } from './DocumentChrome';

/**
 * Paying for others (docs/payments.md, "Paying for others"): the holder of a document names who
 * may pay it and revokes them (after a confirmation); whoever else sees it reads the list. The
 * server decides who may change it and when (`mayChange`); the panel only offers what it allows.
 */

export interface PayersPanelProps {
  workflow: WorkflowDefinition;
  document: { id: string; status: string; version: number };
  api: ApiClient;
  backend: string;
}

/** Who may pay the document, for a workflow declaring `payerConsent`. */
export function PayersPanel({ workflow, document, api, backend }: PayersPanelProps) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const [payer, setPayer] = useState('');
  const [fieldError, setFieldError] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const revoking = useConfirmation<PayerConsent>((consent) => void revoke(consent));
  const base = `/${workflow.id}/${document.id}/payers`;
  // The status and version: an action taken on the document may open or close the change.
  const {
    value: payers,
    setValue: setPayers,
    failure,
    setFailure,
  } = useApiAnswer(
    () => api.get<DocumentPayers>(backend, base),
    [api, backend, base, document.status, document.version],
  );

  const name = async () => {
    setBusy('name');
    setFailure('');
    setFieldError('');
    const [error, answer] = await api.post<DocumentPayers>(backend, base, { payer });
    setBusy(null);
    if (!error) {
      setPayers(answer);
      setPayer('');
    } else if (error.fields?.some((f) => f.path === '/payer'))
      setFieldError(error.fields.find((f) => f.path === '/payer')?.message ?? error.message);
    else setFailure(messageOf(error));
  };
  const revoke = async (consent: PayerConsent) => {
    setBusy(consent.id);
    setFailure('');
    const [error, answer] = await api.delete<DocumentPayers>(backend, `${base}/${consent.id}`);
    setBusy(null);
    if (error) setFailure(messageOf(error));
    else setPayers(answer);
  };

  // Nobody was ever named and nobody may be any more (a paid or decided document): nothing to say.
  if (payers && !payers.mayChange && payers.items.length === 0 && !failure) return null;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="document-payers" data-payers>
      <Title order={3} size="h5" id="document-payers" mb="xs">
        {t('payer-consent.title')}
      </Title>
      <Stack gap="xs">
        {/* Addressed to the holder ("you may name..."): an officer reading the case sees the list. */}
        {payers?.mayChange && (
          <Text size="sm" c="dimmed">
            {t('payer-consent.help')}
          </Text>
        )}
        {payers === null && !failure && (
          <Loader size="sm" role="status" aria-label={t('payer-consent.loading')} />
        )}
        {payers !== null && payers.items.length === 0 && (
          <Text size="sm">{t('payer-consent.none')}</Text>
        )}
        {payers !== null && payers.items.length > 0 && (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {payers.items.map((consent) => (
              <Group
                key={consent.id}
                component="li"
                gap="xs"
                justify="space-between"
                wrap="wrap"
                data-payer={consent.payer.login ?? consent.payer.subject}
              >
                <Text size="sm">
                  {t('payer-consent.named', {
                    name: consent.payer.name,
                    login: consent.payer.login ?? '',
                    at: formatDateTime(consent.grantedAt),
                  })}
                </Text>
                {payers.mayChange && (
                  <Button
                    size="compact-sm"
                    variant="default"
                    color="red"
                    loading={busy === consent.id}
                    disabled={busy !== null && busy !== consent.id}
                    onClick={() => revoking.ask(consent)}
                  >
                    {t('payer-consent.revoke')}
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}
        {payers?.mayChange && (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              label={t('payer-consent.payerLabel')}
              description={t('payer-consent.payerHelp')}
              value={payer}
              error={fieldError || undefined}
              autoComplete="off"
              onChange={(e) => setPayer(e.currentTarget.value)}
              w={{ base: '100%', sm: 360 }}
            />
            <Button
              loading={busy === 'name'}
              disabled={busy !== null || payer.trim() === ''}
              onClick={() => void name()}
            >
              {t('payer-consent.name')}
            </Button>
          </Group>
        )}
        {payers !== null && !payers.mayChange && payers.items.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('payer-consent.closed')}
          </Text>
        )}
        <ErrorAlert>{failure}</ErrorAlert>
      </Stack>
      <ConfirmDialog
        {...revoking.dialog}
        title={t('payer-consent.revokeTitle')}
        message={t('payer-consent.revokeConfirm', { name: revoking.pending?.payer.name ?? '' })}
        cancelLabel={t('payer-consent.cancel')}
        confirmLabel={t('payer-consent.revoke')}
      />
    </Paper>
  );
}

export interface PayableDocumentsProps {
  api: ApiClient;
  backend: string;
  /** The numbers the form already names. */
  named: readonly string[];
  /** Adds a number to the form's items. */
  onAdd: (number: string) => void;
}

/**
 * The documents whose holders named the reader as their payer, on a payer's form whose `links`
 * accept them (`payerConsent`): each added to the form's items by its number.
 */
export function PayableDocumentsPanel({ api, backend, named, onAdd }: PayableDocumentsProps) {
  const { t, i18n } = useTranslation();
  const answer = useApiAnswer(
    () => api.get<{ items: PayableDocument[] }>(backend, '/payer-consents'),
    [api, backend],
  );
  const { failure } = answer;
  const items = answer.value?.items ?? null;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="payable-documents" data-payable>
      <Title order={3} size="h5" id="payable-documents" mb="xs">
        {t('payer-consent.payableTitle')}
      </Title>
      <Stack gap="xs">
        {items === null && !failure && (
          <Loader size="sm" role="status" aria-label={t('payer-consent.payableLoading')} />
        )}
        {items !== null && items.length === 0 && (
          <Text size="sm">{t('payer-consent.payableNone')}</Text>
        )}
        {items !== null && items.length > 0 && (
          <Table.ScrollContainer minWidth={360}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('documents.number')}</Table.Th>
                  <Table.Th>{t('payer-consent.holder')}</Table.Th>
                  <Table.Th>{t('payer-consent.amountDue')}</Table.Th>
                  <Table.Th>{t('documents.status')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('payer-consent.add')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => {
                  const added = item.number !== null && named.includes(item.number);
                  return (
                    <Table.Tr key={item.consent} data-payable-number={item.number ?? ''}>
                      <Table.Td>{item.number ?? t('payer-consent.noNumber')}</Table.Td>
                      <Table.Td>{item.holderName ?? ''}</Table.Td>
                      <Table.Td>
                        {item.amountDue
                          ? formatMoney(
                              item.amountDue,
                              pickLanguage(i18n.language),
                              item.currency ?? undefined,
                            )
                          : ''}
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={item.status} />
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="compact-sm"
                          variant="default"
                          disabled={item.number === null || added}
                          aria-label={t('payer-consent.addNumber', { number: item.number ?? '' })}
                          onClick={() => item.number && onAdd(item.number)}
                        >
                          {added ? t('payer-consent.added') : t('payer-consent.add')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <ErrorAlert>{failure}</ErrorAlert>
      </Stack>
    </Paper>
  );
}
