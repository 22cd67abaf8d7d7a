import { Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TextTree } from '../../../core/i18n/translate';

/**
 * The home page's carousel of texts. Specification 000, section 9 has it show one item (turning
 * every 10000 ms): with nothing to turn to, it holds no timer and needs no pause button.
 */
export function HomeCarousel() {
  const { t, i18n } = useTranslation();
  const tree = i18n.getResource(
    i18n.resolvedLanguage ?? 'en',
    'translation',
    'pages.carousel.items',
  ) as TextTree | undefined;
  const [id] = Object.keys(tree ?? {});
  if (!id) return null;
  return (
    <Paper
      component="section"
      aria-roledescription={t('pages.carousel.role')}
      aria-label={t('pages.carousel.label')}
      p="lg"
      radius="md"
      bg="brand.6"
      c="white"
    >
      <div aria-live="off">
        <Title order={3} c="white">
          {t(`pages.carousel.items.${id}.title`)}
        </Title>
        <Text>{t(`pages.carousel.items.${id}.text`)}</Text>
      </div>
    </Paper>
  );
}
