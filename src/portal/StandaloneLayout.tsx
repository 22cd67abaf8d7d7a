import { Anchor, Box, Container, Group, SegmentedControl, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { LANGUAGES, type Language } from '../core/i18n/translate';
import { changeLanguage } from './i18n';
import { HOME_PATH } from './paths';
import { useLanguage } from './useLanguage';

/** The registration frame (specification 001): name, a way home, the language switch. */
export function StandaloneLayout() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Box>
      <Group component="header" h={64} px="md" justify="space-between" bg="brand.6">
        <Anchor component={Link} to={HOME_PATH} c="white" underline="never">
          <Title order={1} size="h3" c="white">
            {t('app.shortName')}
          </Title>
        </Anchor>
        <SegmentedControl
          aria-label={t('app.language')}
          value={language}
          onChange={(value) => void changeLanguage(value as Language)}
          data={LANGUAGES.map((lang) => ({ value: lang, label: lang.toUpperCase() }))}
          size="xs"
        />
      </Group>
      <Container component="main" size="sm" py="lg">
        <Outlet />
      </Container>
    </Box>
  );
}
