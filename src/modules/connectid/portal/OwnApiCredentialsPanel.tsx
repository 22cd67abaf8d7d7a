import { useEffect, useState } from 'react';
import { Code, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { formatDateTime } from '../../../engine/format';
import { useApiMessage } from '../../../engine/useApiMessage';
import { usePortal } from '../../../portal/module';

/** A service account's own credentials as `GET /api/account/api-credentials` says them. */
export interface OwnApiCredentials {
  service: boolean;
  active: boolean;
  clientId: string;
  issuedAt: string | null;
  issuedBy: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  tokenUrl: string;
}

/**
 * On a service account's security page, its own API credentials: active or not, issued when and
 * by whom, revoked when and by whom. Issuing and revoking stay the administrators' (the account
 * screen's panel); a person's account, which holds none, shows nothing.
 */
export function OwnApiCredentialsPanel() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const messageOf = useApiMessage();
  const [status, setStatus] = useState<OwnApiCredentials | null>(null);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    let current = true;
    void api
      .get<OwnApiCredentials>('system', '/account/api-credentials')
      .then(([error, answer]) => {
        if (!current) return;
        if (error) setFailure(messageOf(error));
        else setStatus(answer);
      });
    return () => {
      current = false;
    };
  }, [api, messageOf]);

  if (status && !status.service && !status.issuedAt) return null;
  const line = (label: string, value: string) => (
    <Table.Tr>
      <Table.Th scope="row" fw={600}>
        {label}
      </Table.Th>
      <Table.Td>{value}</Table.Td>
    </Table.Tr>
  );
  const by = (date: string | null, name: string | null) =>
    date
      ? t('security.apiCredentials.onBy', { date: formatDateTime(date), name: name ?? '—' })
      : '—';
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="own-api-credentials-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="own-api-credentials-title">
          {t('security.apiCredentials.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('security.apiCredentials.help')}
        </Text>
        <ErrorAlert>{failure}</ErrorAlert>
        {!status && !failure && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('security.apiCredentials.loading')}</Text>
          </Group>
        )}
        {status && (
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              {line(
                t('security.apiCredentials.state'),
                t(
                  status.active
                    ? 'security.apiCredentials.active'
                    : status.issuedAt
                      ? 'security.apiCredentials.revoked'
                      : 'security.apiCredentials.none',
                ),
              )}
              <Table.Tr>
                <Table.Th scope="row" fw={600}>
                  {t('security.apiCredentials.clientId')}
                </Table.Th>
                <Table.Td>
                  <Code style={{ wordBreak: 'break-all' }}>{status.clientId}</Code>
                </Table.Td>
              </Table.Tr>
              {line(t('security.apiCredentials.issued'), by(status.issuedAt, status.issuedBy))}
              {status.revokedAt &&
                line(
                  t('security.apiCredentials.revokedLine'),
                  by(status.revokedAt, status.revokedBy),
                )}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
