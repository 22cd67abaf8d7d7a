import { Alert, Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** A page that only says something: not found, unauthorised, offline. */
export function MessagePage({ textKey }: { textKey: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" maw={700}>
      <Alert color="brand">{t(textKey)}</Alert>
      <Anchor component={Link} to="/home">
        {t('app.home')}
      </Anchor>
    </Stack>
  );
}

export const NotFoundPage = () => <MessagePage textKey="pages.notFound" />;
export const UnauthorizedPage = () => <MessagePage textKey="pages.unauthorized" />;
export const OfflinePage = () => <MessagePage textKey="pages.offline" />;
