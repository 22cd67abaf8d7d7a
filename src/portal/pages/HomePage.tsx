import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePortal } from '../context';
import { HomeLinks } from './HomeLinks';

/** The public landing page: what the portal is, a way to sign in, and what the user may open. */
export function HomePage() {
  const { t } = useTranslation();
  const { session } = usePortal();

  return (
    <Stack gap="md" maw={900}>
      <Title order={2}>{t('app.name')}</Title>
      <Text>{t('pages.homeIntro')}</Text>
      {!session.signedIn ? (
        <>
          <Text c="dimmed">{t('app.signedOut')}</Text>
          <Group>
            <Button onClick={() => session.login()}>{t('menu.signIn')}</Button>
            <Button component={Link} to="/register" variant="default">
              {t('register.title')}
            </Button>
          </Group>
        </>
      ) : (
        <HomeLinks />
      )}
    </Stack>
  );
}
