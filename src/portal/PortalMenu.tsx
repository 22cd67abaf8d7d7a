import { useContext, useEffect, useId, useMemo, useState } from 'react';
import { Badge, Collapse, NavLink, Stack, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { FilterCondition } from '../core/search/protocol';
import { usePortal } from './context';
import { ModulesContext } from '../engine/modules-context';
import { buildMenu, moduleLinks, type MenuBadge, type MenuEntry, type MenuSection } from './menu';
import { useModuleSwitches } from './moduleSwitches';
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
  const modules = useContext(ModulesContext);
  // Only the switches of links this person could see are asked (a visitor's Register link).
  const switches = useModuleSwitches(
    moduleLinks(bundle, modules, session).flatMap(({ link }) => (link.when ? [link.when] : [])),
  );
  const sections = useMemo(
    () =>
      buildMenu(
        bundle,
        session,
        (key, fallback) => (fallback === undefined || i18n.exists(key) ? t(key) : fallback),
        language,
        { modules, switches },
      ),
    [bundle, session, t, i18n, language, modules, switches],
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
    case 'link':
      return <MenuLink entry={entry} onNavigate={onNavigate} />;
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
    case 'signOut':
      return (
        <NavLink
          component="button"
          label={entry.label}
          onClick={() => {
            onNavigate?.();
            if (entry.kind === 'signIn') session.login();
            else session.logout();
          }}
        />
      );
  }
}

/** The event that asks every menu count to be fetched again (see refreshMenuBadges). */
const MENU_BADGES_EVENT = 'portal:menu-badges';

/**
 * Asks the menu's counts to be fetched again now, for a page that changed what they count
 * without the location changing (a message marked read as its screen opens).
 */
export function refreshMenuBadges(): void {
  window.dispatchEvent(new Event(MENU_BADGES_EVENT));
}

/**
 * How many documents of a list meet its badge's condition: one search asking for the total,
 * again whenever the location changes (reading a message, then going on, updates it) or a page
 * asks (refreshMenuBadges); never on a timer. Undefined until known, or when it cannot be.
 */
function useBadgeCount(badge: MenuBadge | undefined): number | undefined {
  const { api } = usePortal();
  const { pathname } = useLocation();
  const [count, setCount] = useState<number>();
  const [asked, setAsked] = useState(0);
  const { workflow, backend, list, owner } = badge ?? {};
  // The condition by value: a menu built again holds an equal one, not a new search.
  const condition = badge && JSON.stringify(badge.condition);

  useWindowEvent(MENU_BADGES_EVENT, () => condition && setAsked((n) => n + 1));

  useEffect(() => {
    if (!workflow || !backend || !condition) return undefined;
    let current = true;
    // One item is the least a page may hold (a size of 1 or less means the default 10).
    void api
      .search<unknown>(backend, `/${encodeURIComponent(workflow)}`, {
        list,
        filter: [
          JSON.parse(condition) as FilterCondition,
          ...(owner ? [{ field: 'owner', criterion: 'equals' as const, value: owner }] : []),
        ],
        options: { page: 1, itemsPerPage: 2 },
      })
      .then(([error, result]) => {
        // A failed count shows nothing rather than a wrong number.
        if (current) setCount(error ? undefined : result.total);
      });
    return () => {
      current = false;
    };
  }, [api, backend, workflow, list, condition, owner, pathname, asked]);
  return count;
}

/** A menu link, with a count beside it when it has a badge (the inbox's unread messages). */
function MenuLink({
  entry,
  onNavigate,
}: {
  entry: { label: string; to: string; badge?: MenuBadge };
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const count = useBadgeCount(entry.badge);
  const active = entry.to === pathname;
  const shown = count !== undefined && count > 0;
  return (
    <NavLink
      component={Link}
      to={entry.to}
      label={entry.label}
      // The number alone would be read as "Inbox 2": the name says what it counts.
      aria-label={shown ? `${entry.label}, ${t('menu.badge', { count })}` : undefined}
      rightSection={
        shown ? (
          <Badge size="sm" variant="filled" aria-hidden>
            {count}
          </Badge>
        ) : undefined
      }
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}
