import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../core/api/errors';
import type { ScreenPanelProps } from '../../../engine/module';
import { formatDateTime } from '../../../engine/format';
import { ErrorAlert } from '../../../engine/ErrorAlert';

interface CredentialStatus {
  clientId: string;
  service: boolean;
  active: boolean;
  issuedAt: string | null;
  revokedAt: string | null;
  tokenUrl: string;
}

interface IssuedCredentials extends Pick<CredentialStatus, 'clientId' | 'tokenUrl'> {
  clientSecret: string;
  issuedAt: string;
}

type Asking = 'issue' | 'revoke';

/**
 * A service account's API credentials (specification 001) and the administrator's Issue and
 * Revoke, both asked first. The secret is shown once; the server keeps only its hash.
 */
export function ApiCredentialsPanel({ document, api }: ScreenPanelProps) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<CredentialStatus | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [asking, setAsking] = useState(false);
  // What the dialog asks stays written while it fades out after the answer.
  const [asked, setAsked] = useState<Asking>('revoke');
  const ask = (what: Asking) => {
    setAsked(what);
    setAsking(true);
  };
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<IssuedCredentials | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const path = `/account/${encodeURIComponent(document.id)}/api-credentials`;

  const load = useCallback(async () => {
    const [error, result] = await api.get<CredentialStatus>('connectid', path);
    if (error) setFailure(error);
    else setStatus(result);
  }, [api, path]);

  useEffect(() => {
    void load();
  }, [load]);

  const act = async (what: Asking) => {
    setAsking(false);
    setBusy(true);
    setFailure(null);
    setDone(null);
    const [error, result] =
      what === 'issue'
        ? await api.post<IssuedCredentials>('connectid', path)
        : await api.delete<null>('connectid', path);
    setBusy(false);
    if (error) setFailure(error);
    else if (what === 'issue') setIssued(result as IssuedCredentials);
    else setDone(t('account.apiCredentials.revoked'));
    await load();
  };

  // A person's account holds no credentials: nothing to show unless some were left active.
  if (status && !status.service && !status.active) return null;
  const activeText = status?.active
    ? t('account.apiCredentials.active', { date: formatDateTime(status.issuedAt) })
    : status?.revokedAt
      ? t('account.apiCredentials.revokedOn', { date: formatDateTime(status.revokedAt) })
      : t('account.apiCredentials.none');

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="api-credentials-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="api-credentials-title">
          {t('account.apiCredentials.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('account.apiCredentials.help')}
        </Text>
        <ErrorAlert>{failure?.message}</ErrorAlert>
        {done && (
          <Alert color="green" role="status">
            {done}
          </Alert>
        )}
        {!status && !failure ? (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('account.apiCredentials.loading')}</Text>
          </Group>
        ) : (
          status && (
            <>
              <Text fw={600}>{activeText}</Text>
              <Group>
                {status.service && (
                  <Button
                    loading={busy}
                    onClick={() => (status.active ? ask('issue') : void act('issue'))}
                  >
                    {t(
                      status.active
                        ? 'account.apiCredentials.replace'
                        : 'account.apiCredentials.issue',
                    )}
                  </Button>
                )}
                {status.active && (
                  <Button
                    color="red"
                    variant="outline"
                    loading={busy}
                    onClick={() => ask('revoke')}
                  >
                    {t('account.apiCredentials.revoke')}
                  </Button>
                )}
              </Group>
            </>
          )
        )}
      </Stack>
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        title={t(`account.apiCredentials.${asked === 'issue' ? 'replace' : 'revoke'}`)}
        centered
        withCloseButton={false}
      >
        <Text mb="lg">{t(`account.apiCredentials.confirm.${asked}`)}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
            {t('confirm.back')}
          </Button>
          <Button color="red" onClick={() => asking && void act(asked)}>
            {t(`account.apiCredentials.${asked === 'issue' ? 'replace' : 'revoke'}`)}
          </Button>
        </Group>
      </Modal>
      <Modal
        opened={issued !== null}
        onClose={() => setIssued(null)}
        title={t('account.apiCredentials.issuedTitle')}
        centered
        size="lg"
        // One named button (and Escape) closes it: the person says they have the secret.
        withCloseButton={false}
      >
        {issued && (
          <Stack gap="sm">
            <Alert color="yellow" role="alert">
              {t('account.apiCredentials.onlyOnce')}
            </Alert>
            <SecretLine label={t('account.apiCredentials.clientId')} value={issued.clientId} />
            <SecretLine
              label={t('account.apiCredentials.clientSecret')}
              value={issued.clientSecret}
            />
            <SecretLine label={t('account.apiCredentials.tokenUrl')} value={issued.tokenUrl} />
            <Text size="sm">{t('account.apiCredentials.howTo')}</Text>
            <Group justify="flex-end">
              <Button onClick={() => setIssued(null)}>{t('account.apiCredentials.close')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}

/** One value of the issued credentials, selectable and with a copy button naming it. */
function SecretLine({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant="default"
              onClick={copy}
              aria-label={`${t('account.apiCredentials.copy')} ${label}`}
            >
              {t(copied ? 'account.apiCredentials.copied' : 'account.apiCredentials.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
