import { useEffect } from 'react';
import { Anchor, AppShell, Group, SegmentedControl, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { LANGUAGES, type Language } from '../core/i18n/translate';
import { usePortal } from './context';
import { changeLanguage } from './i18n';
import { useLanguage } from './useLanguage';

/** The frame of every page: header with the product name, Home link and language switch. */
export function Layout() {
  const { t } = useTranslation();
  const { session } = usePortal();
  const language = useLanguage();
  const shortName = t('app.shortName');
  const userName = session.signedIn ? (session.name ?? session.username) : undefined;

  useEffect(() => {
    document.title = userName ? `${userName} - ${shortName}` : shortName;
  }, [userName, shortName]);

  return (
    <AppShell header={{ height: 64 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="lg" wrap="nowrap">
            <Title order={1} size="h3" c="brand.6">
              {shortName}
            </Title>
            <Anchor component={Link} to="/home">
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
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
