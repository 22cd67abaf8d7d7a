import { useEffect, useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  CopyButton,
  Group,
  Loader,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient, ApiResult } from '../../core/api/client';
import type { ApiError } from '../../core/api/errors';
import { STATUS_CHECK_PATH } from '../../core/definitions/status-check';
import { formatDate } from '../../core/format';
import { ConfirmDialog } from '../ConfirmDialog';
import { ErrorAlert } from '../ErrorAlert';
import { useApiAnswer } from '../useApiAnswer';
import { useApiMessage } from '../useApiMessage';
import { useConfirmation } from '../useConfirmation';
import { formatDateTime } from '../format';
import type {
  MadeShareCode,
  ShareCode,
  ShareCodeList,
  ShareCodeState,
  StatusCheck,
} from './share-code-types';

/**
 * Proving one's status (docs/status-sharing.md, "In the portal"): the holder of a document whose
 * workflow declares `shareCodes` makes a code for a purpose, tells it to an employer or a
 * landlord, revokes it, and reads who checked the document (by code, by number, by its QR code).
 * The server decides who is the holder, which purposes exist and how long a code may last.
 */

export { STATUS_CHECK_PATH };

const STATE_COLOURS: Record<ShareCodeState, string> = {
  active: 'green',
  expired: 'gray',
  revoked: 'red',
};

/** The public page's address, as the holder tells it (the portal's hash routes). */
function statusCheckAddress(): string {
  const { origin, pathname } = window.location;
  return `${origin}${pathname}#${STATUS_CHECK_PATH}`;
}

export interface ShareCodesPanelProps {
  /** The workflow's id (the route's `{type}`). */
  type: string;
  document: { id: string; status: string; version: number };
  api: ApiClient;
  backend: string;
}

/** The panel's two answers, or `hidden` when the server says the reader is not the holder. */
interface ShareCodesAnswer {
  hidden: boolean;
  list: ShareCodeList | null;
  checks: StatusCheck[] | null;
}

/** The holder's share codes and check log; nothing for anyone the server says is not the holder. */
export function ShareCodesPanel({ type, document, api, backend }: ShareCodesPanelProps) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const [making, setMaking] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const revoking = useConfirmation<ShareCode>((code) => void revoke(code));
  const base = `/${type}/${document.id}`;

  // The status and version: a grant or an expiry opens or closes the making of codes.
  const answer = useApiAnswer(async (): Promise<ApiResult<ShareCodesAnswer>> => {
    const [[listError, codes], [checksError, log]] = await Promise.all([
      api.get<ShareCodeList>(backend, `${base}/share-codes`),
      api.get<{ items: StatusCheck[] }>(backend, `${base}/status-checks`),
    ]);
    // Not the holder (an officer reading the case): the codes are not theirs to see.
    if (listError && (listError.status === 403 || listError.status === 404))
      return [null, { hidden: true, list: null, checks: null }];
    if (listError) return [listError, null];
    if (checksError) return [checksError, null];
    return [null, { hidden: false, list: codes, checks: log.items }];
  }, [api, backend, base, document.status, document.version]);
  const { failure, setFailure, reload } = answer;
  const { hidden, list, checks } = answer.value ?? { hidden: false, list: null, checks: null };

  const revoke = async (code: ShareCode) => {
    setBusy(code.id);
    setFailure('');
    const [error] = await api.post<ShareCode>(backend, `${base}/share-codes/${code.id}/revoke`, {});
    setBusy(null);
    if (error) setFailure(messageOf(error));
    else reload();
  };

  const purposeLabel = (id: string | null) => {
    if (id === null) return '';
    const purpose = list?.purposes.find((p) => p.id === id);
    return purpose ? t(purpose.label, { defaultValue: id }) : id;
  };

  if (hidden) return null;
  // Never any code, never a check, and none may be made (a draft): nothing to say yet.
  if (list && !list.mayCreate && list.items.length === 0 && checks?.length === 0 && !failure)
    return null;
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-labelledby="share-codes-title"
      data-share-codes
    >
      <Title order={3} size="h5" id="share-codes-title" mb="xs">
        {t('status-proof.title')}
      </Title>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('status-proof.help')}
        </Text>
        {list === null && !failure && (
          <Loader size="sm" role="status" aria-label={t('status-proof.loading')} />
        )}
        {list !== null && list.items.length === 0 && (
          <Text size="sm">{t('status-proof.none')}</Text>
        )}
        {list !== null && list.items.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table striped captionSide="top" data-share-code-list>
              <Table.Caption style={{ textAlign: 'start' }}>
                {t('status-proof.codesCaption')}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('status-proof.purpose')}</Table.Th>
                  <Table.Th>{t('status-proof.madeOn')}</Table.Th>
                  <Table.Th>{t('status-proof.validUntil')}</Table.Th>
                  <Table.Th>{t('status-proof.state')}</Table.Th>
                  <Table.Th>{t('status-proof.checks')}</Table.Th>
                  <Table.Th>{t('status-proof.change')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.items.map((code) => (
                  <Table.Tr key={code.id} data-share-code={code.id} data-state={code.state}>
                    <Table.Td>{purposeLabel(code.purpose)}</Table.Td>
                    <Table.Td>{formatDate(code.createdAt)}</Table.Td>
                    <Table.Td>{formatDate(code.expiresAt)}</Table.Td>
                    <Table.Td>
                      <Badge color={STATE_COLOURS[code.state]} variant="light" tt="none">
                        {t(`status-proof.states.${code.state}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{code.checks}</Table.Td>
                    <Table.Td>
                      {code.state === 'active' && (
                        <Button
                          size="compact-sm"
                          variant="default"
                          loading={busy === code.id}
                          disabled={busy !== null && busy !== code.id}
                          aria-label={t('status-proof.revokeOne', {
                            purpose: purposeLabel(code.purpose),
                            until: formatDate(code.expiresAt),
                          })}
                          onClick={() => revoking.ask(code)}
                        >
                          {t('status-proof.revoke')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {list?.mayCreate && (
          <Group>
            <Button onClick={() => setMaking(true)}>{t('status-proof.make')}</Button>
          </Group>
        )}
        <ErrorAlert>{failure}</ErrorAlert>
        <CheckLog checks={checks} purposeLabel={purposeLabel} />
      </Stack>
      {list && (
        <MakeCodeDialog
          opened={making}
          list={list}
          onMade={reload}
          onClose={() => setMaking(false)}
          make={(purpose, days) =>
            api.post<MadeShareCode>(backend, `${base}/share-codes`, { purpose, days })
          }
        />
      )}
      <ConfirmDialog
        {...revoking.dialog}
        title={t('status-proof.revokeTitle')}
        message={t('status-proof.revokeConfirm', {
          purpose: purposeLabel(revoking.pending?.purpose ?? null),
          until: revoking.pending ? formatDate(revoking.pending.expiresAt) : '',
        })}
        cancelLabel={t('status-proof.cancel')}
        confirmLabel={t('status-proof.revoke')}
      />
    </Paper>
  );
}

/** Who checked the document, newest first: when, how, for what, from where, and the outcome. */
function CheckLog({
  checks,
  purposeLabel,
}: {
  checks: StatusCheck[] | null;
  purposeLabel: (id: string | null) => string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" component="section" aria-labelledby="status-checks-title">
      <Title order={4} size="h6" id="status-checks-title">
        {t('status-proof.logTitle')}
      </Title>
      {checks === null && (
        <Loader size="sm" role="status" aria-label={t('status-proof.logLoading')} />
      )}
      {checks !== null && checks.length === 0 && <Text size="sm">{t('status-proof.logNone')}</Text>}
      {checks !== null && checks.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-status-checks>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('status-proof.checkedAt')}</Table.Th>
                <Table.Th>{t('status-proof.method')}</Table.Th>
                <Table.Th>{t('status-proof.purpose')}</Table.Th>
                <Table.Th>{t('status-proof.from')}</Table.Th>
                <Table.Th>{t('status-proof.result')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {checks.map((check) => (
                <Table.Tr key={check.reference} data-status-check={check.reference}>
                  <Table.Td>{formatDateTime(check.checkedAt)}</Table.Td>
                  <Table.Td>{t(`status-proof.methods.${check.method}`)}</Table.Td>
                  <Table.Td>{check.purpose ? purposeLabel(check.purpose) : '-'}</Table.Td>
                  <Table.Td>
                    {check.addressClass === 'local'
                      ? t('status-proof.localAddress')
                      : check.addressClass}
                  </Table.Td>
                  <Table.Td>{t(`status-proof.results.${check.result}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

interface MakeCodeDialogProps {
  opened: boolean;
  list: ShareCodeList;
  make: (purpose: string, days: number) => Promise<[ApiError, null] | [null, MadeShareCode]>;
  onMade: () => void;
  onClose: () => void;
}

/**
 * Making a code: a purpose and a number of days (the workflow's default, at most its maximum);
 * then the code, shown this once, large and grouped, and what to tell whoever checks it.
 */
function MakeCodeDialog({ opened, list, make, onMade, onClose }: MakeCodeDialogProps) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const [purpose, setPurpose] = useState('');
  const [days, setDays] = useState<number | string>(list.defaultDays);
  const [errors, setErrors] = useState<{ purpose?: string; days?: string }>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<MadeShareCode | null>(null);

  // Each opening starts afresh: a code shown once is never shown again.
  useEffect(() => {
    if (!opened) return;
    setPurpose('');
    setDays(list.defaultDays);
    setErrors({});
    setFailure('');
    setMade(null);
  }, [opened, list.defaultDays]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: { purpose?: string; days?: string } = {};
    if (purpose === '') found.purpose = t('status-proof.purposeMissing');
    const count = typeof days === 'number' ? days : Number.NaN;
    if (!Number.isInteger(count) || count < 1 || count > list.maxDays)
      found.days = t('status-proof.daysRange', { max: list.maxDays });
    setErrors(found);
    setFailure('');
    if (found.purpose || found.days) return;
    setBusy(true);
    const [error, answer] = await make(purpose, count);
    setBusy(false);
    if (error?.fields?.length) {
      // The server checks the same rules: its answer marks the same fields, in its words.
      const marked: { purpose?: string; days?: string } = {};
      for (const field of error.fields)
        if (field.path === '/purpose' || field.path === '/days')
          marked[field.path.slice(1) as 'purpose' | 'days'] = field.message;
      setErrors(marked);
      if (!marked.purpose && !marked.days) setFailure(messageOf(error));
    } else if (error) setFailure(messageOf(error));
    else {
      setMade(answer);
      onMade();
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={made ? t('status-proof.madeTitle') : t('status-proof.makeTitle')}
      size="lg"
    >
      {made ? (
        <MadeCode
          made={made}
          purpose={list.purposes.find((p) => p.id === made.purpose)?.label}
          onClose={onClose}
        />
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <NativeSelect
              label={t('status-proof.purposeLabel')}
              description={t('status-proof.purposeHelp')}
              value={purpose}
              required
              error={errors.purpose}
              onChange={(event) => {
                setPurpose(event.currentTarget.value);
                setErrors((current) => ({ ...current, purpose: undefined }));
              }}
              data={[
                { value: '', label: t('status-proof.purposeChoose') },
                ...list.purposes.map((p) => ({ value: p.id, label: t(p.label) })),
              ]}
            />
            <NumberInput
              label={t('status-proof.daysLabel')}
              description={t('status-proof.daysHelp', {
                default: list.defaultDays,
                max: list.maxDays,
              })}
              value={days}
              min={1}
              max={list.maxDays}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              required
              error={errors.days}
              onChange={(value) => {
                setDays(value);
                setErrors((current) => ({ ...current, days: undefined }));
              }}
            />
            <ErrorAlert>{failure}</ErrorAlert>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('status-proof.cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('status-proof.makeSubmit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** The code just made: large, grouped, to copy; and what the checker does with it. */
function MadeCode({
  made,
  purpose,
  onClose,
}: {
  made: MadeShareCode;
  purpose: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const address = statusCheckAddress();
  return (
    <Stack data-made-code>
      <Text>
        {t('status-proof.madeIntro', {
          purpose: purpose ? t(purpose) : made.purpose,
          until: formatDate(made.expiresAt),
        })}
      </Text>
      <Paper withBorder p="md" radius="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text
            component="p"
            m={0}
            ff="monospace"
            fz={{ base: 28, sm: 36 }}
            fw={700}
            style={{ letterSpacing: '0.12em', whiteSpace: 'nowrap' }}
            data-code
          >
            {made.code}
          </Text>
          <CopyButton value={made.code.replace(/\s+/g, '')}>
            {({ copied, copy }) => (
              <Button
                variant={copied ? 'light' : 'default'}
                color={copied ? 'green' : undefined}
                onClick={copy}
              >
                {copied ? t('status-proof.copied') : t('status-proof.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Paper>
      <Text size="sm" fw={500}>
        {t('status-proof.onceOnly')}
      </Text>
      <Text size="sm">{t('status-proof.tellChecker', { address })}</Text>
      <Text size="sm" component="p" m={0} style={{ overflowWrap: 'anywhere' }}>
        {address}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onClose} data-autofocus>
          {t('status-proof.done')}
        </Button>
      </Group>
    </Stack>
  );
}
