import { useCallback, useEffect, useState } from 'react';
import {
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ApiError } from '../../../core/api/errors';
import { formatDateTime } from '../../../engine/format';
import { usePortal } from '../../context';
import { ErrorAlert } from '../../../engine/ErrorAlert';

interface OutboxItem {
  id: string;
  channel: 'sms' | 'email' | 'inbox';
  recipient: string;
  subject: string | null;
  body: string;
  /** The confirmation code the message carries, when it is one that does. */
  code: string | null;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
}

const CHANNELS = ['sms', 'email', 'inbox'] as const;

/**
 * The developer outbox (outside production): the latest queued messages, to read a code no
 * provider delivered here. Needs `outbox-read` (the server checks it); `recipient` fills the filter.
 */
export function DeveloperOutboxPage() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [search] = useSearchParams();
  const [recipient, setRecipient] = useState(search.get('recipient') ?? '');
  const [channel, setChannel] = useState<string | null>(null);
  const [items, setItems] = useState<OutboxItem[] | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (who: string, through: string | null) => {
      setBusy(true);
      setFailure(null);
      const query = new URLSearchParams();
      if (who.trim()) query.set('recipient', who.trim());
      if (through) query.set('channel', through);
      const [error, result] = await api.get<{ items: OutboxItem[] }>(
        'system',
        `/outbox${query.size ? `?${query}` : ''}`,
      );
      setBusy(false);
      if (error) setFailure(error);
      else setItems(result.items);
    },
    [api],
  );

  useEffect(() => {
    void load(search.get('recipient') ?? '', null);
  }, [load, search]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Title order={2}>{t('outbox.title')}</Title>
        <Badge color="red.9" variant="filled">
          {t('outbox.tag')}
        </Badge>
      </Group>
      <Text c="dimmed">{t('outbox.intro')}</Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void load(recipient, channel);
        }}
      >
        <Group align="flex-end">
          <TextInput
            label={t('outbox.recipient')}
            value={recipient}
            onChange={(event) => setRecipient(event.currentTarget.value)}
            w={{ base: '100%', sm: 320 }}
          />
          <Select
            label={t('outbox.channel')}
            placeholder={t('outbox.channelAll')}
            data={CHANNELS.map((value) => ({ value, label: t(`outbox.channels.${value}`) }))}
            value={channel}
            onChange={setChannel}
            clearable
            w={{ base: '100%', sm: 220 }}
          />
          <Button type="submit" loading={busy}>
            {t('outbox.show')}
          </Button>
        </Group>
      </form>
      <ErrorAlert>{failure?.message}</ErrorAlert>
      {!items && !failure ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm">{t('outbox.loading')}</Text>
        </Group>
      ) : (
        items && (
          <>
            <Text size="sm" role="status">
              {items.length === 0 ? t('outbox.none') : t('outbox.count', { count: items.length })}
            </Text>
            {items.length > 0 && (
              <Table.ScrollContainer minWidth={720}>
                <Table striped withTableBorder>
                  <Table.Thead>
                    <Table.Tr>
                      {['when', 'channel', 'to', 'code', 'message', 'status'].map((key) => (
                        <Table.Th key={key}>{t(`outbox.${key}`)}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {items.map((item) => (
                      <Table.Tr key={item.id}>
                        <Table.Td>{formatDateTime(item.created_at)}</Table.Td>
                        <Table.Td>{t(`outbox.channels.${item.channel}`)}</Table.Td>
                        <Table.Td>{item.recipient}</Table.Td>
                        <Table.Td>{item.code ? <Code fz="md">{item.code}</Code> : '-'}</Table.Td>
                        <Table.Td>
                          {item.subject && (
                            <Text size="sm" fw={600}>
                              {item.subject}
                            </Text>
                          )}
                          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} lineClamp={4}>
                            {item.body}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          {t(`outbox.statuses.${item.status}`, { defaultValue: item.status })}
                          {item.last_error && (
                            <Text size="xs" c="dimmed">
                              {item.last_error}
                            </Text>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )
      )}
    </Stack>
  );
}
