import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../engine/ConfirmDialog';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { formatDateTime } from '../../../engine/format';
import { useApiMessage } from '../../../engine/useApiMessage';
import { useConfirmation } from '../../../engine/useConfirmation';
import { usePortal } from '../../../portal/module';
import type { AccountSession } from '../../../core/identity/sessions';

export type { AccountSession };

/** Ending one session, or every session but this one. */
type Ending = AccountSession | 'others';

/** A phone's width: the table becomes one block per session, nothing scrolls sideways. */
const NARROW = '(max-width: 48em)';

/**
 * The person's sign-in sessions on their security page: each one's device, network, sign-in
 * and last use, this device marked; signing one out, or every other one, after a question. The
 * server ends the session's tokens at once, on every process.
 */
export function SessionsPanel() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const messageOf = useApiMessage();
  const narrow = useMediaQuery(NARROW, undefined, { getInitialValueInEffect: false }) ?? false;
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const ending = useConfirmation<Ending>((what) => void end(what));

  const load = useCallback(async () => {
    const [error, answer] = await api.get<{ items: AccountSession[] }>(
      'system',
      '/account/sessions',
    );
    if (error) setFailure(messageOf(error));
    else setSessions(answer.items);
  }, [api, messageOf]);

  useEffect(() => {
    void load();
  }, [load]);

  const end = async (what: Ending) => {
    const others = what === 'others';
    setBusy(others ? 'others' : what.id);
    setFailure('');
    setDone('');
    const [error, answer] = others
      ? await api.post<{ ended: number }>('system', '/account/sessions/end-others')
      : await api.delete<null>('system', `/account/sessions/${encodeURIComponent(what.id)}`);
    setBusy(null);
    if (error) setFailure(messageOf(error));
    else
      setDone(
        others
          ? t('security.sessions.endedOthers', { count: answer?.ended ?? 0 })
          : t('security.sessions.ended', { device: deviceOf(what) }),
      );
    await load();
  };

  const word = (group: 'browsers' | 'systems', value: string) =>
    t(`security.sessions.${group}.${value}`, { defaultValue: value });
  const deviceOf = (session: AccountSession) =>
    t('security.sessions.device', {
      browser: word('browsers', session.browser),
      os: word('systems', session.os),
    });
  const whereOf = (session: AccountSession) =>
    session.addressClass === 'local'
      ? t('security.sessions.localNetwork')
      : t('security.sessions.network', { network: session.addressClass });
  const others = sessions?.filter((session) => !session.current) ?? [];
  const asked = ending.pending;

  const signOutButton = (session: AccountSession) =>
    session.current ? (
      <Badge color="gray" variant="light" tt="none" style={{ flexShrink: 0 }}>
        {t('security.sessions.thisDevice')}
      </Badge>
    ) : (
      <Button
        size="xs"
        variant="outline"
        color="red"
        style={{ flexShrink: 0 }}
        loading={busy === session.id}
        onClick={() => ending.ask(session)}
        aria-label={t('security.sessions.signOutNamed', { device: deviceOf(session) })}
      >
        {t('security.sessions.signOut')}
      </Button>
    );
  const methodOf = (session: AccountSession) =>
    t(`security.sessions.methods.${session.method}`, { defaultValue: session.method });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sessions-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="sessions-title">
          {t('security.sessions.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('security.sessions.help')}
        </Text>
        <ErrorAlert>{failure}</ErrorAlert>
        <div aria-live="polite">
          {done && (
            <Alert color="green" role="status">
              {done}
            </Alert>
          )}
        </div>
        {sessions === null && !failure && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('security.sessions.loading')}</Text>
          </Group>
        )}
        {sessions !== null && narrow && (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {sessions.map((session) => (
              <Paper key={session.id} withBorder p="sm" component="li" data-session={session.id}>
                <Stack gap={4}>
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Text fw={600}>{deviceOf(session)}</Text>
                    {signOutButton(session)}
                  </Group>
                  <Text size="sm">{whereOf(session)}</Text>
                  <Text size="sm">
                    {t('security.sessions.signedInOn', {
                      date: formatDateTime(session.signedInAt),
                      method: methodOf(session),
                    })}
                  </Text>
                  <Text size="sm">
                    {t('security.sessions.lastUsedOn', {
                      date: formatDateTime(session.lastUsedAt),
                    })}
                  </Text>
                </Stack>
              </Paper>
            ))}
          </Stack>
        )}
        {sessions !== null && !narrow && (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('security.sessions.columns.device')}</Table.Th>
                <Table.Th>{t('security.sessions.columns.where')}</Table.Th>
                <Table.Th>{t('security.sessions.columns.signedIn')}</Table.Th>
                <Table.Th>{t('security.sessions.columns.lastUsed')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('security.sessions.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((session) => (
                <Table.Tr key={session.id} data-session={session.id}>
                  <Table.Td>{deviceOf(session)}</Table.Td>
                  <Table.Td>{whereOf(session)}</Table.Td>
                  <Table.Td>
                    {formatDateTime(session.signedInAt)}
                    <Text size="xs" c="dimmed">
                      {methodOf(session)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(session.lastUsedAt)}</Table.Td>
                  <Table.Td>{signOutButton(session)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {others.length > 0 && (
          <Group>
            <Button
              color="red"
              variant="light"
              loading={busy === 'others'}
              onClick={() => ending.ask('others')}
            >
              {t('security.sessions.endOthers')}
            </Button>
          </Group>
        )}
      </Stack>
      <ConfirmDialog
        {...ending.dialog}
        title={t(
          asked === 'others' ? 'security.sessions.endOthers' : 'security.sessions.confirmTitle',
        )}
        message={
          asked === 'others'
            ? t('security.sessions.confirmOthers', { count: others.length })
            : asked
              ? t('security.sessions.confirmOne', { device: deviceOf(asked) })
              : ''
        }
        cancelLabel={t('confirm.back')}
        confirmLabel={t(
          asked === 'others' ? 'security.sessions.endOthers' : 'security.sessions.signOut',
        )}
      />
    </Paper>
  );
}
