import { useEffect, useState } from 'react';
import { Alert, Anchor, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../core/format';
import { usePortal } from '../../context';
import { documentPath } from '../../documentLinks';

interface InboxMessage {
  id: string;
  subject: string;
  body: string;
  /** The language the message was written in. */
  language?: string | null;
  documentId: string | null;
  /** The workflow of the document the message is about, if any. */
  workflow?: string | null;
  createdAt: string;
}

/**
 * The dashboard's message area: the user's newest inbox messages (queries, decisions...), each
 * about a document with a link to it, on the screen the user may open.
 */
export function InboxArea() {
  const { t } = useTranslation();
  const { api, bundle, session } = usePortal();
  const [messages, setMessages] = useState<InboxMessage[]>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    void api.get<{ items: InboxMessage[] }>('evisa', '/inbox/latest').then(([error, result]) => {
      if (!current) return;
      if (error) setFailed(true);
      else setMessages(result.items);
    });
    return () => {
      current = false;
    };
  }, [api]);

  return (
    <section aria-labelledby="inbox-area-title">
      <Title id="inbox-area-title" order={3} size="h4" mb="xs">
        {t('pages.inbox.title')}
      </Title>
      {failed ? (
        <Alert color="red" role="alert">
          {t('messages.unableToFetch')}
        </Alert>
      ) : !messages ? (
        <Loader aria-label={t('messages.loading')} role="status" />
      ) : messages.length === 0 ? (
        <Text c="dimmed">{t('pages.inbox.empty')}</Text>
      ) : (
        <Stack gap="xs">
          {messages.map((message) => {
            const path =
              message.documentId && message.workflow
                ? documentPath(bundle, session, message.workflow, message.documentId)
                : undefined;
            return (
              <Card key={message.id} withBorder padding="sm" component="article">
                {/* A message reads as it was written: its language is marked for screen
                    readers (WCAG 3.1.2) when the reader has since chosen another. */}
                <Text fw={600} lang={message.language ?? undefined}>
                  {message.subject}
                </Text>
                <Text
                  size="sm"
                  style={{ whiteSpace: 'pre-line' }}
                  lang={message.language ?? undefined}
                >
                  {message.body}
                </Text>
                {path && (
                  <Anchor
                    component={Link}
                    to={path}
                    size="sm"
                    aria-label={`${t('pages.inbox.openDocument')}: ${message.subject}`}
                  >
                    {t('pages.inbox.openDocument')}
                  </Anchor>
                )}
                <Text size="xs" c="dimmed">
                  {formatDateTime(message.createdAt)}
                </Text>
              </Card>
            );
          })}
        </Stack>
      )}
    </section>
  );
}
