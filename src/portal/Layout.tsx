import { useEffect, useRef } from 'react';
import {
  Anchor,
  AppShell,
  Burger,
  Group,
  ScrollArea,
  SegmentedControl,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { LANGUAGES, type Language } from '../core/i18n/translate';
import { usePortal } from './context';
import { changeLanguage } from './i18n';
import { HOME_PATH } from './paths';
import { PortalMenu } from './PortalMenu';
import { useLanguage } from './useLanguage';

const MENU_ID = 'portal-menu';

/**
 * The frame of every page: header with the application menu's burger, the product name, Home
 * link, the user's name and the language switch; the menu (navbar) the burger opens and closes.
 */
export function Layout() {
  const { t } = useTranslation();
  const { session } = usePortal();
  const language = useLanguage();
  const [menuOpened, menu] = useDisclosure(false);
  const smallScreen = useMediaQuery('(max-width: 48em)');
  const burger = useRef<HTMLButtonElement>(null);
  const shortName = t('app.shortName');
  const userName = session.signedIn ? (session.name ?? session.username) : undefined;

  useEffect(() => {
    document.title = userName ? `${userName} - ${shortName}` : shortName;
  }, [userName, shortName]);

  const closeMenu = () => {
    menu.close();
    burger.current?.focus();
  };

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{
        width: { base: 266, md: 336, lg: 366, xl: 396 },
        breakpoint: 'sm',
        collapsed: { mobile: !menuOpened, desktop: !menuOpened },
      }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap">
            <Burger
              ref={burger}
              opened={menuOpened}
              onClick={menu.toggle}
              size="sm"
              aria-label={t('menu.toggle')}
              aria-expanded={menuOpened}
              aria-controls={MENU_ID}
            />
            <Title order={1} size="h3" c="brand.6">
              {shortName}
            </Title>
            <Anchor component={Link} to={HOME_PATH} visibleFrom="xs">
              {t('app.home')}
            </Anchor>
          </Group>
          <Group gap="md" wrap="nowrap">
            {userName && (
              <Text size="sm" c="dimmed" visibleFrom="sm">
                {userName}
              </Text>
            )}
            <SegmentedControl
              aria-label={t('app.language')}
              value={language}
              onChange={(value) => void changeLanguage(value as Language)}
              data={LANGUAGES.map((lang) => ({ value: lang, label: lang.toUpperCase() }))}
              size="xs"
            />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        id={MENU_ID}
        aria-label={t('menu.toggle')}
        p="xs"
        // Closed, the menu is out of sight: keep it out of the keyboard's and readers' way too.
        inert={!menuOpened}
        onKeyDown={(event) => {
          if (event.key === 'Escape') closeMenu();
        }}
      >
        <AppShell.Section grow component={ScrollArea}>
          <PortalMenu onNavigate={smallScreen ? menu.close : undefined} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
