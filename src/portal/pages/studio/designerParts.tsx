import type { ReactNode } from 'react';
import { ActionIcon, Group, Paper, SegmentedControl, Stack, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../../core/i18n/translate';
import { CheckSummary } from './CheckSummary';
import type { CheckResult } from './useStudioDraft';

/** A field's move up, move down and remove buttons. */
export function FieldButtons(props: {
  name: string;
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { name, index } = props;
  return (
    <>
      <ActionIcon
        variant="subtle"
        aria-label={t('studio.moveUp', { name })}
        disabled={index === 0}
        onClick={() => props.onMove(-1)}
      >
        <IconArrowUp size={16} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        aria-label={t('studio.moveDown', { name })}
        disabled={index === props.count - 1}
        onClick={() => props.onMove(1)}
      >
        <IconArrowDown size={16} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={t('studio.removeField', { name })}
        onClick={props.onRemove}
      >
        <IconTrash size={16} />
      </ActionIcon>
    </>
  );
}

/** A designer's preview: its heading, language switch and the check's answer above it. */
export function PreviewFrame(props: {
  id: string;
  language: Language;
  onLanguage: (language: Language) => void;
  result: CheckResult;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={props.id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id={props.id}>
            {t('studio.preview')}
          </Title>
          <SegmentedControl
            aria-label={t('studio.previewLanguage')}
            value={props.language}
            onChange={(value) => props.onLanguage(value as Language)}
            data={[
              { value: 'en', label: 'English' },
              { value: 'fr', label: 'Français' },
            ]}
          />
        </Group>
        <CheckSummary result={props.result} />
        {props.children}
      </Stack>
    </Paper>
  );
}
