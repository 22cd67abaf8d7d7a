import { useState } from 'react';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StudioDraft } from './useStudioDraft';

/** A definition file as JSON, applied to the draft when it parses. */
export function JsonEditor(props: {
  file: string;
  draft: StudioDraft;
  onApplied?: (text: string) => void;
}) {
  const { t } = useTranslation();
  const current = props.draft.file(props.file) ?? '';
  const [text, setText] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const [shown, setShown] = useState(current);
  // A change made by the forms beside it replaces what is shown, unless typing is under way.
  if (current !== shown && text === shown) {
    setShown(current);
    setText(current);
  }
  const apply = () => {
    try {
      JSON.parse(text);
    } catch (failure) {
      return setError(t('studio.json.invalid', { message: (failure as Error).message }));
    }
    setError(undefined);
    props.draft.setFile(props.file, text);
    setShown(text);
    props.onApplied?.(text);
  };
  return (
    <Stack gap="xs">
      <Textarea
        label={t('studio.json.label', { file: props.file })}
        autosize
        minRows={12}
        maxRows={28}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        value={text}
        error={error}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <Group>
        <Button variant="default" onClick={apply} disabled={text === shown}>
          {t('studio.json.apply')}
        </Button>
        <Button variant="subtle" onClick={() => setText(shown)} disabled={text === shown}>
          {t('studio.json.revert')}
        </Button>
      </Group>
    </Stack>
  );
}
