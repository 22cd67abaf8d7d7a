import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePortal } from '../context';
import { useSelfRegistration } from '../useSelfRegistration';
import { HomeLinks } from './HomeLinks';
import { DocumentCheck } from './home/DocumentCheck';
import { HomeCarousel } from './home/HomeCarousel';

/**
 * The public landing page (/home): the carousel, the electronic-document check anyone may use,
 * a way to sign in or register, and what a signed-in user may open.
 */
export function HomePage() {
  const { t } = useTranslation();
  const { session } = usePortal();
  // Offered only where the server lets visitors register (and while it has not said).
  const registration = useSelfRegistration(!session.signedIn);

  return (
    <Stack gap="lg" maw={960}>
      <Title order={2}>{t('app.name')}</Title>
      <HomeCarousel />
      <Text>{t('pages.homeIntro')}</Text>
      <DocumentCheck />
      {!session.signedIn ? (
        <Stack gap="xs">
          <Text c="dimmed">{t('app.signedOut')}</Text>
          <Group>
            <Button onClick={() => session.login()}>{t('menu.signIn')}</Button>
            {registration !== false && (
              <Button component={Link} to="/register" variant="default">
                {t('register.title')}
              </Button>
            )}
          </Group>
        </Stack>
      ) : (
        <HomeLinks />
      )}
    </Stack>
  );
}
