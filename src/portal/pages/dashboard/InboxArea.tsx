import { Anchor, Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { fullRoles } from '../../../core/documents/workflow';
import { formatDateTime } from '../../../core/format';
import { usePortal } from '../../context';
import { useApiGet } from '../../useApiGet';
import { documentPath } from '../../documentLinks';
import { DEFAULT_BACKEND } from '../../../core/documents/conventions';
import { ErrorAlert } from '../../../engine/ErrorAlert';

/** A message as `GET /dashboard/inbox` gives it. */
interface InboxMessage {
  id: string;
  status: string;
  subject: string;
  body: string;
  /** The language the message was written in. */
  language: string | null;
  createdAt: string;
  /** The document the message is about, as the message keeps it (its title in `language`). */
  about: { type?: string; title?: string; number?: string; path?: string } | null;
}

interface InboxAnswer {
  unread: number;
  /** The inbox's workflow; null when the definitions have none. */
  workflow: string | null;
  items: InboxMessage[];
}

/** How many messages the area shows (the unread first, then the newest). */
const SHOWN = 5;

/** The dashboard's message area: the user's own messages, unread first, then newest. */
export function InboxArea() {
  const { t } = useTranslation();
  const { bundle, session } = usePortal();
  const { value: answer, failed } = useApiGet<InboxAnswer>(
    DEFAULT_BACKEND,
    `/dashboard/inbox?limit=${SHOWN}`,
  );

  const workflow = bundle.workflows.find((w) => w.id === answer?.workflow);
  const read = workflow?.inbox?.read;
  // The whole inbox: the first list of the inbox's workflow the user may open.
  const inboxList = workflow?.lists.find((list) =>
    session.hasAnyRole(fullRoles(workflow, list.roles)),
  );
  const unread = answer?.unread ?? 0;

  return (
    <section aria-labelledby="inbox-area-title">
      <Title id="inbox-area-title" order={3} size="h4" mb="xs">
        {t('pages.inbox.title')}
        {unread > 0 && (
          <Badge ml="sm" variant="filled" tt="none" style={{ verticalAlign: 'middle' }}>
            {t('pages.inbox.unreadCount', { count: unread })}
          </Badge>
        )}
      </Title>
      {failed ? (
        <ErrorAlert>{t('messages.unableToFetch')}</ErrorAlert>
      ) : !answer ? (
        <Loader aria-label={t('messages.loading')} role="status" />
      ) : answer.items.length === 0 ? (
        <Text c="dimmed">{t('pages.inbox.empty')}</Text>
      ) : (
        <Stack gap="xs">
          {answer.items.map((message) => {
            const isUnread = read !== undefined && message.status !== read;
            const open = workflow && documentPath(bundle, session, workflow.id, message.id);
            const about = [message.about?.title, message.about?.number].filter(Boolean).join(' ');
            const lang = message.language ?? undefined;
            const aboutPath = message.about?.path?.startsWith('/') ? message.about.path : null;
            return (
              <Card key={message.id} withBorder padding="sm" component="article">
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  {/* Unread is said in words, not by weight or colour alone. */}
                  {isUnread && (
                    <Badge variant="light" tt="none" style={{ flexShrink: 0 }}>
                      {t('pages.inbox.unread')}
                    </Badge>
                  )}
                  {/* A message reads as it was written: its language is marked for screen
                      readers (WCAG 3.1.2) when the reader has since chosen another. */}
                  <Text fw={isUnread ? 700 : 500} lang={lang}>
                    {message.subject}
                  </Text>
                </Group>
                <Text size="sm" lineClamp={3} style={{ whiteSpace: 'pre-line' }} lang={lang}>
                  {message.body}
                </Text>
                {about && (
                  <Text size="sm">
                    {t('pages.inbox.about')} <span lang={lang}>{about}</span>
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {t('pages.inbox.received')}{' '}
                  <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                </Text>
                <Group gap="md" mt={4}>
                  {open && (
                    <Anchor
                      component={Link}
                      to={open}
                      size="sm"
                      aria-label={`${t('pages.inbox.openMessage')}: ${message.subject}`}
                    >
                      {t('pages.inbox.openMessage')}
                    </Anchor>
                  )}
                  {aboutPath && (
                    <Anchor
                      component={Link}
                      to={aboutPath}
                      size="sm"
                      aria-label={`${t('pages.inbox.openDocument')}: ${about || message.subject}`}
                    >
                      {t('pages.inbox.openDocument')}
                    </Anchor>
                  )}
                </Group>
              </Card>
            );
          })}
        </Stack>
      )}
      {answer && workflow && inboxList && (
        <Text size="sm" mt="xs">
          <Anchor component={Link} to={`${workflow.prefix}${inboxList.path}`}>
            {t('pages.inbox.viewAll')}
          </Anchor>
        </Text>
      )}
    </section>
  );
}
