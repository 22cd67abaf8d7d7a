import { useContext } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePortal } from '../context';
import { ModulesContext } from '../../engine/modules-context';
import { moduleLinks } from '../menu';
import { useModuleSwitches } from '../moduleSwitches';
import { HomeLinks } from './HomeLinks';
import { DocumentCheck } from './home/DocumentCheck';
import { HomeCarousel } from './home/HomeCarousel';
import { StatusCheckLink } from './home/StatusCheckLink';

/**
 * The public landing page (/home): the carousel, the electronic-document check anyone may use,
 * a way to sign in (and the modules' `home` links: registration), and what a signed-in user
 * may open.
 */
export function HomePage() {
  const { t } = useTranslation();
  const { bundle, session } = usePortal();
  const links = moduleLinks(bundle, useContext(ModulesContext), session).filter(
    ({ link }) => link.home,
  );
  // Offered unless the server said the link's switch is off (also while it has not said).
  const switches = useModuleSwitches(links.flatMap(({ link }) => (link.when ? [link.when] : [])));

  return (
    <Stack gap="lg" maw={960}>
      <Title order={2}>{t('app.name')}</Title>
      <HomeCarousel />
      <Text>{t('pages.homeIntro')}</Text>
      <DocumentCheck />
      <StatusCheckLink />
      {!session.signedIn ? (
        <Stack gap="xs">
          <Text c="dimmed">{t('app.signedOut')}</Text>
          <Group>
            <Button onClick={() => session.login()}>{t('menu.signIn')}</Button>
            {links
              .filter(({ link }) => !link.when || switches[link.when] !== false)
              .map(({ link }) => (
                <Button key={link.id} component={Link} to={link.to} variant="default">
                  {t(link.home ?? link.label)}
                </Button>
              ))}
          </Group>
        </Stack>
      ) : (
        <HomeLinks />
      )}
    </Stack>
  );
}
