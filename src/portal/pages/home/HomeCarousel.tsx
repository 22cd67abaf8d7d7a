import { useEffect, useState } from 'react';
import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TextTree } from '../../../core/i18n/translate';

/** Specification 000, section 9: the home carousel shows 1 item and turns every 10000 ms. */
export const CAROUSEL_ITEMS = 1;
export const CAROUSEL_INTERVAL_MS = 10_000;

/** The home page's carousel of texts, with a pause button (WCAG 2.2.2). */
export function HomeCarousel() {
  const { t, i18n } = useTranslation();
  const tree = i18n.getResource(
    i18n.resolvedLanguage ?? 'en',
    'translation',
    'pages.carousel.items',
  ) as TextTree | undefined;
  const ids = Object.keys(tree ?? {}).slice(0, CAROUSEL_ITEMS);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused || ids.length < 2) return undefined;
    const timer = setInterval(() => setIndex((i) => (i + 1) % ids.length), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, ids.length]);

  const id = ids[index % Math.max(ids.length, 1)];
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
      <div aria-live={paused ? 'polite' : 'off'}>
        <Title order={3} c="white">
          {t(`pages.carousel.items.${id}.title`)}
        </Title>
        <Text>{t(`pages.carousel.items.${id}.text`)}</Text>
      </div>
      {ids.length > 1 && (
        <Group mt="sm">
          <Button variant="white" size="xs" onClick={() => setPaused((p) => !p)}>
            {t(paused ? 'pages.carousel.play' : 'pages.carousel.pause')}
          </Button>
        </Group>
      )}
    </Paper>
  );
}
