import { useContext, useEffect, useRef, useState } from 'react';
import { Anchor, AppShell, Burger, Group, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import type { Language } from '../core/i18n/translate';
import { usePortal } from './context';
import { changeLanguage, currentLanguage } from './i18n';
import { HOME_PATH } from './paths';
import { PortalMenu } from './PortalMenu';
import { ModulesContext } from '../engine/modules-context';
import { BRAND_TEXT } from './theme';
import { Toolbar } from './Toolbar';
import { UpdatedDefinitionsBanner } from './UpdatedDefinitionsBanner';
import { useSmallScreen } from './smallScreen';

const MENU_ID = 'portal-menu';

/** The frame of every page: the header with the menu's burger, and the menu it opens. */
export function Layout() {
  const { t } = useTranslation();
  const { session, api } = usePortal();
  const [menuOpened, menu] = useDisclosure(false);
  // The menu is built the first time it opens, then kept: it was a good part of every page's start.
  const [menuMade, setMenuMade] = useState(false);
  const toggleMenu = () => {
    setMenuMade(true);
    menu.toggle();
  };
  const smallScreen = useSmallScreen();
  const burger = useRef<HTMLButtonElement>(null);
  const shortName = t('app.shortName');
  const userName = session.signedIn ? (session.name ?? session.username) : undefined;

  useDocumentTitle(userName ? `${userName} - ${shortName}` : shortName);

  // The first module keeping preferences (`languagePreferences`) keeps the language.
  const preferences = useContext(ModulesContext).find(
    (module) => module.languagePreferences,
  )?.languagePreferences;
  // Signed in: the profile's language, else `locale`; one picked while the profile loads stays.
  const subject = session.signedIn ? session.subject : undefined;
  const locale = session.signedIn ? session.locale : undefined;
  const choices = useRef(0);
  useEffect(() => {
    let current = true;
    const choicesBefore = choices.current;
    if (subject && preferences)
      void preferences.read(api, subject).then((stored) => {
        const wanted = stored ?? (locale === 'en' || locale === 'fr' ? locale : undefined);
        const chosenMeanwhile = choices.current !== choicesBefore;
        if (current && !chosenMeanwhile && wanted && wanted !== currentLanguage())
          void changeLanguage(wanted);
      });
    return () => {
      current = false;
    };
  }, [api, subject, locale, preferences]);

  // Applies at once; kept in the profile, one save after another: two quick switches whose
  // saves crossed kept the first, the second refused as based on an old version.
  // Saves still running make the toolbar busy, for screen readers (and a test waiting on them).
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const [unsaved, setUnsaved] = useState(0);
  const chooseLanguage = (next: Language) => {
    choices.current += 1;
    void changeLanguage(next);
    if (!subject || !preferences) return;
    setUnsaved((count) => count + 1);
    const save = () => preferences.save(api, subject, next);
    saving.current = saving.current
      .then(save)
      .catch(() => undefined)
      .finally(() => setUnsaved((count) => count - 1));
  };

  // Opened, the menu takes the keyboard's focus (its first entry); Escape gives it back.
  const navbar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!menuOpened) return;
    const first = navbar.current?.querySelector<HTMLElement>('a[href], button');
    // After the navbar stops being inert (the same commit), so the entry can take focus.
    requestAnimationFrame(() => first?.focus());
  }, [menuOpened]);

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
          <Group gap="md" wrap="nowrap" miw={0}>
            <Burger
              ref={burger}
              opened={menuOpened}
              onClick={toggleMenu}
              size="sm"
              aria-label={t('menu.toggle')}
              aria-expanded={menuOpened}
              aria-controls={MENU_ID}
            />
            {/* One line in the 64 px bar: a phone shows the name smaller, cut if it must be
                (the window title keeps it whole). */}
            <Title order={1} size="h3" fz={{ base: 'md', xs: 'h3' }} lineClamp={1} c={BRAND_TEXT}>
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
            <Toolbar onLanguage={chooseLanguage} busy={unsaved > 0} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        id={MENU_ID}
        aria-label={t('menu.toggle')}
        p="xs"
        // Closed, the menu is out of sight: keep it out of the keyboard's and readers' way too.
        ref={navbar}
        inert={!menuOpened}
        onKeyDown={(event) => {
          if (event.key === 'Escape') closeMenu();
        }}
      >
        {menuMade && (
          <AppShell.Section grow component={ScrollArea}>
            <PortalMenu onNavigate={smallScreen ? menu.close : undefined} />
          </AppShell.Section>
        )}
        {menuMade && session.signedIn && (
          // Who is signed in, as the identity server knows them: how the service reaches them.
          <AppShell.Section
            component="section"
            aria-label={t('menu.signedInAs')}
            px="sm"
            pt="xs"
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Text size="sm" fw={600}>
              {userName}
            </Text>
            {session.username && session.username !== userName && (
              <Text size="xs" c="dimmed">
                {session.username}
              </Text>
            )}
            {session.email && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {session.email}
              </Text>
            )}
            {session.phoneNumber && (
              <Text size="xs" c="dimmed">
                {session.phoneNumber}
              </Text>
            )}
          </AppShell.Section>
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        <UpdatedDefinitionsBanner />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
