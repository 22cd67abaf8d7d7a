import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../core/api/errors';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { downloadFromApi, useLanguage, usePortal } from '../../../portal/module';

/** The person's own account as the account workflow answers it: what the page needs of it. */
interface OwnAccount {
  id: string;
  version: number;
  status: string;
  allowedActions: string[];
}

/** The status an account waits for a decision on its closure in (workflows/account.json). */
export const CLOSURE_REQUESTED = 'CLOSURE REQUESTED';
const REQUEST_CLOSURE = 'request-closure';
/** What the archive holds, in the order its README says it. */
const ARCHIVE_PARTS = ['account', 'documents', 'messages', 'uploads', 'readme'] as const;

/**
 * "My data" (docs/identity.md): the person downloads everything the service keeps about them as
 * one archive, and asks for their account to be closed, which the identity administrators
 * decide. The request is the account workflow's `request-closure` action on their own account.
 */
export function MyDataPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { api, session } = usePortal();
  const k = (key: string, params?: Record<string, unknown>) => t(`my-data.${key}`, params);
  const [downloading, setDownloading] = useState(false);
  const [downloaded, setDownloaded] = useState<boolean | null>(null);
  const [account, setAccount] = useState<OwnAccount | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonMissing, setReasonMissing] = useState(false);
  const [sending, setSending] = useState(false);
  const [requested, setRequested] = useState(false);
  const path = `/account/${encodeURIComponent(session.subject ?? '')}`;

  const load = useCallback(async () => {
    const [error, result] = await api.get<OwnAccount>('connectid', path);
    if (error) setFailure(error);
    else setAccount(result);
  }, [api, path]);

  useEffect(() => {
    void load();
  }, [load]);

  const download = async () => {
    setDownloading(true);
    setDownloaded(null);
    const day = new Date().toISOString().slice(0, 10);
    setDownloaded(
      await downloadFromApi(session, '/account/archive', `my-data-${day}.zip`, language),
    );
    setDownloading(false);
  };

  const requestClosure = async () => {
    if (!account) return;
    if (!reason.trim()) {
      setReasonMissing(true);
      return;
    }
    setSending(true);
    setFailure(null);
    const [error, result] = await api.post<OwnAccount>(
      'connectid',
      `${path}/actions/${REQUEST_CLOSURE}`,
      { version: account.version, notes: reason.trim() },
    );
    setSending(false);
    if (error) {
      setFailure(error);
      return;
    }
    setAsking(false);
    setReason('');
    setRequested(true);
    setAccount(result);
  };

  const closing = account?.status === CLOSURE_REQUESTED;
  const mayRequest = account?.allowedActions.includes(REQUEST_CLOSURE) ?? false;

  return (
    <Stack maw={880} gap="lg">
      <Title order={2}>{t('menu.myData')}</Title>
      <Paper withBorder p="md" component="section" aria-labelledby="my-data-archive">
        <Stack gap="sm">
          <Title order={3} size="h4" id="my-data-archive">
            {k('archive.title')}
          </Title>
          <Text size="sm">{k('archive.intro')}</Text>
          <List size="sm" spacing={4}>
            {ARCHIVE_PARTS.map((part) => (
              <List.Item key={part}>{k(`archive.parts.${part}`)}</List.Item>
            ))}
          </List>
          <Group>
            <Button loading={downloading} onClick={() => void download()}>
              {k('archive.download')}
            </Button>
          </Group>
          <div aria-live="polite">
            {downloading && <Text size="sm">{k('archive.preparing')}</Text>}
            {downloaded === true && (
              <Alert color="green" role="status">
                {k('archive.done')}
              </Alert>
            )}
          </div>
          {downloaded === false && <ErrorAlert>{k('archive.failed')}</ErrorAlert>}
        </Stack>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="my-data-closure">
        <Stack gap="sm">
          <Title order={3} size="h4" id="my-data-closure">
            {k('closure.title')}
          </Title>
          <Text size="sm">{k('closure.intro')}</Text>
          <ErrorAlert>{failure?.message}</ErrorAlert>
          {!account && !failure && (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm">{k('closure.loading')}</Text>
            </Group>
          )}
          <div aria-live="polite">
            {closing && (
              <Alert color="yellow" role="status" title={k('closure.pendingTitle')}>
                {k(requested ? 'closure.sent' : 'closure.pending')}
              </Alert>
            )}
          </div>
          {account && !closing && !mayRequest && (
            <Text size="sm" c="dimmed">
              {k('closure.unavailable', { status: t(`statuses.${account.status}`) })}
            </Text>
          )}
          {mayRequest && (
            <Group>
              <Button color="red" variant="outline" onClick={() => setAsking(true)}>
                {k('closure.request')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        title={k('closure.confirmTitle')}
        centered
      >
        <Stack gap="md">
          <Text size="sm">{k('closure.confirm')}</Text>
          <Textarea
            label={k('closure.reason')}
            description={k('closure.reasonHelp')}
            required
            rows={4}
            maxLength={2000}
            value={reason}
            error={reasonMissing ? k('closure.reasonRequired') : undefined}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setReasonMissing(false);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              {k('closure.keep')}
            </Button>
            <Button color="red" loading={sending} onClick={() => void requestClosure()}>
              {k('closure.send')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
