import { useState, type ChangeEvent, type ReactNode } from 'react';
import {
  ActionIcon,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  type TextInputProps,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../../core/i18n/translate';
import { CheckSummary } from './CheckSummary';
import { LANGUAGE_NAMES, TEXT_LANGUAGES } from './TextFields';
import type { CheckResult } from './useStudioDraft';

/** The keys of a design that hold a text. */
type TextKey<D> = { [K in keyof D]-?: D[K] extends string | undefined ? K : never }[keyof D];

/** A text input's value and change bound to a key of a design; a name is kept `trim`med. */
export const textBinding =
  <D,>(design: D, set: (change: Partial<D>) => void) =>
  (key: TextKey<D>, trim = false) => ({
    value: (design[key] ?? '') as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const text = event.currentTarget.value;
      set({ [key]: trim ? text.trim() : text } as Partial<D>);
    },
  });

/** The stems of a design's text pairs: `label` where it holds `labelEn` and `labelFr`. */
type TextStem<D> = {
  [K in TextKey<D>]: K extends `${infer S}En` ? (`${S}Fr` extends TextKey<D> ? S : never) : never;
}[TextKey<D>];

/** The inputs of a design's `<stem>En` and `<stem>Fr`, labelled `<labels>.<stem>En` and `…Fr`. */
export function TextPair<D>(props: {
  text: ReturnType<typeof textBinding<D>>;
  stem: TextStem<D>;
  labels: string;
  required?: boolean;
  style?: TextInputProps['style'];
}) {
  const { t } = useTranslation();
  return (['En', 'Fr'] as const).map((suffix) => (
    <TextInput
      key={suffix}
      label={t(`${props.labels}.${props.stem}${suffix}`)}
      required={props.required}
      style={props.style}
      lang={suffix.toLowerCase()}
      {...props.text(`${props.stem}${suffix}` as TextKey<D>)}
    />
  ));
}

/** A field's move up, move down and remove buttons. */
export function FieldButtons(props: {
  name: string;
  index: number;
  count: number;
  wrap?: 'nowrap';
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { name, index } = props;
  return (
    <Group gap={4} wrap={props.wrap}>
      {[
        { label: 'studio.moveUp', Icon: IconArrowUp, disabled: index === 0, by: -1 as const },
        {
          label: 'studio.moveDown',
          Icon: IconArrowDown,
          disabled: index === props.count - 1,
          by: 1 as const,
        },
        { label: 'studio.removeField', Icon: IconTrash, color: 'red' },
      ].map(({ label, Icon, by, ...rest }) => (
        <ActionIcon
          key={label}
          variant="subtle"
          aria-label={t(label, { name })}
          onClick={() => (by ? props.onMove(by) : props.onRemove())}
          {...rest}
        >
          <Icon size={16} />
        </ActionIcon>
      ))}
    </Group>
  );
}

/** A designer's preview in the language switched to, under its heading and the check's answer. */
export function PreviewFrame(props: {
  id: string;
  result: CheckResult;
  /** A newer check is under way: the older result is hidden, not shown as if it were current. */
  checking?: boolean;
  children: (language: Language) => ReactNode;
}) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<Language>('en');
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby={props.id}
      aria-busy={props.checking || undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id={props.id}>
            {t('studio.preview')}
          </Title>
          <SegmentedControl
            aria-label={t('studio.previewLanguage')}
            value={language}
            onChange={(value) => setLanguage(value as Language)}
            data={TEXT_LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
          />
        </Group>
        {props.checking ? (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('studio.previewChecking')}</Text>
          </Group>
        ) : (
          <>
            <CheckSummary result={props.result} />
            {props.children(language)}
          </>
        )}
      </Stack>
    </Paper>
  );
}
