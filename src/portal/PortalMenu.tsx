import { useId, useMemo, useState } from 'react';
import { Collapse, NavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { usePortal } from './context';
import { buildMenu, type MenuEntry, type MenuSection } from './menu';
import { useLanguage } from './useLanguage';

/**
 * The application menu's entries (the navbar of the layout holds them): links are links,
 * folders and Sign In/Sign Out are buttons, so all work with the keyboard (Tab, Enter, Space).
 * `onNavigate` runs after an entry is chosen (the layout closes the menu on small screens).
 */
export function PortalMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t, i18n } = useTranslation();
  const { bundle, session } = usePortal();
  const language = useLanguage();
  const sections = useMemo(
    () =>
      buildMenu(
        bundle,
        session,
        (key, fallback) => (fallback === undefined || i18n.exists(key) ? t(key) : fallback),
        language,
      ),
    [bundle, session, t, i18n, language],
  );
  return (
    <Stack gap="sm">
      {sections.map((section) => (
        <Section key={section.id} section={section} onNavigate={onNavigate} />
      ))}
    </Stack>
  );
}

function Section({ section, onNavigate }: { section: MenuSection; onNavigate?: () => void }) {
  const headingId = useId();
  return (
    <div role="group" aria-labelledby={section.label ? headingId : undefined}>
      {section.label && (
        <Text id={headingId} component="h2" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm">
          {section.label}
        </Text>
      )}
      {section.entries.map((entry) => (
        <Entry key={entry.id} entry={entry} onNavigate={onNavigate} />
      ))}
    </div>
  );
}

function containsPath(entry: MenuEntry, path: string): boolean {
  if (entry.kind === 'link') return entry.to === path;
  if (entry.kind === 'folder') return entry.entries.some((child) => containsPath(child, path));
  return false;
}

function Entry({ entry, onNavigate }: { entry: MenuEntry; onNavigate?: () => void }) {
  const { session } = usePortal();
  const { pathname } = useLocation();
  const [opened, setOpened] = useState(() => containsPath(entry, pathname));
  const childrenId = useId();

  switch (entry.kind) {
    case 'link': {
      const active = entry.to === pathname;
      return (
        <NavLink
          component={Link}
          to={entry.to}
          label={entry.label}
          active={active}
          aria-current={active ? 'page' : undefined}
          onClick={onNavigate}
        />
      );
    }
    case 'folder':
      return (
        <>
          <NavLink
            component="button"
            label={entry.label}
            aria-expanded={opened}
            aria-controls={childrenId}
            rightSection={<span aria-hidden>{opened ? '▾' : '▸'}</span>}
            onClick={() => setOpened((value) => !value)}
          />
          <Collapse expanded={opened} id={childrenId} pl="md">
            {entry.entries.map((child) => (
              <Entry key={child.id} entry={child} onNavigate={onNavigate} />
            ))}
          </Collapse>
        </>
      );
    case 'signIn':
      return (
        <NavLink
          component="button"
          label={entry.label}
          onClick={() => {
            onNavigate?.();
            session.login();
          }}
        />
      );
    case 'signOut':
      return (
        <NavLink
          component="button"
          label={entry.label}
          onClick={() => {
            onNavigate?.();
            session.logout();
          }}
        />
      );
  }
}
