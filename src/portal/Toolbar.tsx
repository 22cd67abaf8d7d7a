import { ActionIcon, Group, Menu, Tooltip, useMantineColorScheme } from '@mantine/core';
import { useFullscreenDocument } from '@mantine/hooks';
import {
  IconArrowLeft,
  IconArrowRight,
  IconDotsVertical,
  IconHome,
  IconLanguage,
  IconMaximize,
  IconMinimize,
  IconMoon,
  IconSun,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LANGUAGES, type Language } from '../core/i18n/translate';
import { useLanguage } from './useLanguage';
import { useSmallScreen } from './smallScreen';

/** Actions shown in the header itself on a small screen; the rest go in an overflow menu. */
export const HEADER_ACTIONS_LIMIT = 1;

/**
 * The toolbar (specification 000, section 1); on a small screen only the first
 * HEADER_ACTIONS_LIMIT stay in the header.
 */
export function Toolbar({
  onLanguage,
  busy = false,
}: {
  onLanguage: (language: Language) => void;
  /** A choice made here (the language) is still being kept. */
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useLanguage();
  const { colorScheme, toggleColorScheme } = useMantineColorScheme();
  const fullscreen = useFullscreenDocument();
  const smallScreen = useSmallScreen();
  const dark = colorScheme === 'dark';
  const other = LANGUAGES.find((lang) => lang !== language) ?? 'en';

  // `pressed`: the state a toggle button is in (full screen, dark mode), for screen readers.
  const actions = [
    { id: 'back', label: t('toolbar.back'), icon: <IconArrowLeft />, run: () => navigate(-1) },
    { id: 'home', label: t('toolbar.home'), icon: <IconHome />, run: () => navigate('/') },
    {
      id: 'forward',
      label: t('toolbar.forward'),
      icon: <IconArrowRight />,
      run: () => navigate(1),
    },
    {
      id: 'fullscreen',
      label: t('toolbar.fullScreen'),
      icon: fullscreen.fullscreen ? <IconMinimize /> : <IconMaximize />,
      run: () => void fullscreen.toggle(),
      pressed: fullscreen.fullscreen,
    },
    {
      id: 'colorScheme',
      label: t('toolbar.darkMode'),
      icon: dark ? <IconSun /> : <IconMoon />,
      run: toggleColorScheme,
      pressed: dark,
    },
    {
      id: 'language',
      label: t('toolbar.language', { language: t(`toolbar.languages.${other}`) }),
      icon: <IconLanguage />,
      run: () => onLanguage(other),
    },
  ];
  const inHeader = smallScreen ? actions.slice(0, HEADER_ACTIONS_LIMIT) : actions;
  const inMenu = smallScreen ? actions.slice(HEADER_ACTIONS_LIMIT) : [];

  return (
    <Group
      gap={4}
      wrap="nowrap"
      role="toolbar"
      aria-label={t('toolbar.label')}
      aria-busy={busy || undefined}
    >
      {inHeader.map((action) => (
        <Tooltip key={action.id} label={action.label} openDelay={300}>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={action.label}
            aria-pressed={action.pressed}
            data-action={action.id}
            onClick={action.run}
          >
            {action.icon}
          </ActionIcon>
        </Tooltip>
      ))}
      {inMenu.length > 0 && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" size="lg" aria-label={t('toolbar.more')}>
              <IconDotsVertical />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {inMenu.map((action) => (
              <Menu.Item
                key={action.id}
                leftSection={action.icon}
                data-action={action.id}
                onClick={action.run}
              >
                {action.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}
