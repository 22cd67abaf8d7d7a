import { memo, useRef, useState } from 'react';
import { Button, CloseButton, FileButton, Group, Input, Progress, Stack } from '@mantine/core';
import type { MediaReference } from '../../../core/documents/types';
import { contextOf, t } from '../context';
import { descriptionOf, errorOf, labelOf, type EngineWidgetProps } from './common';
import { FileLink, fileSize } from './FileLink';

export function isMediaReference(value: unknown): value is MediaReference {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.name === 'string';
}

/** Whether a file matches an `accept` list (MIME types, `type/*` or `.ext`, comma separated). */
export function accepts(accept: string | undefined, file: { name: string; type: string }): boolean {
  if (!accept) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter((a) => a.length > 0)
    .some((a) =>
      a.startsWith('.')
        ? name.endsWith(a)
        : a.endsWith('/*')
          ? type.startsWith(a.slice(0, -1))
          : type === a,
    );
}

/**
 * Uploads a file through `services.uploadFile` (checking `accept` and `maxSize` from ui:options
 * first) and keeps only its MediaReference `{id, name, size, type}`, never the content.
 */
export const FileWidget = memo(function FileWidget(props: EngineWidgetProps) {
  const { id, value, onChange, onBlur, options } = props;
  const context = contextOf(props.registry.formContext);
  const accept = typeof options.accept === 'string' ? options.accept : undefined;
  const maxSize = typeof options.maxSize === 'number' ? options.maxSize : undefined;
  const [progress, setProgress] = useState<number | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const resetRef = useRef<() => void>(null);
  const disabled = props.disabled || props.readonly;

  const upload = async (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    setProblem(undefined);
    if (!accepts(accept, file)) {
      setProblem(t(context, 'form.file.wrongType', { accept }));
      return;
    }
    if (maxSize !== undefined && file.size > maxSize) {
      setProblem(
        t(context, 'form.file.tooLarge', {
          size: fileSize(context.texts, context.language, maxSize),
        }),
      );
      return;
    }
    const uploadFile = context.services.uploadFile;
    if (!uploadFile) {
      setProblem(t(context, 'form.file.failed'));
      return;
    }
    setProgress(0);
    try {
      const reference = await uploadFile(file, (percent) => setProgress(percent));
      const kept: MediaReference = {
        id: reference.id,
        name: reference.name,
        size: reference.size,
        type: reference.type,
      };
      onChange(kept);
      onBlur(id, kept);
    } catch {
      setProblem(t(context, 'form.file.failed'));
    } finally {
      setProgress(undefined);
    }
  };

  const error = problem ?? errorOf(props);
  return (
    <Input.Wrapper
      id={id}
      label={labelOf(props)}
      description={descriptionOf(props)}
      withAsterisk={props.required}
      error={error}
    >
      <Stack gap={4} mt={4}>
        {isMediaReference(value) && (
          <Group gap="xs">
            <FileLink
              file={value}
              services={context.services}
              texts={context.texts}
              language={context.language}
              testId={`${id}-file`}
            />
            {!disabled && (
              <CloseButton
                size="sm"
                aria-label={t(context, 'form.file.remove')}
                onClick={() => onChange(undefined)}
              />
            )}
          </Group>
        )}
        {!disabled && (
          <FileButton resetRef={resetRef} onChange={(file) => void upload(file)} accept={accept}>
            {(buttonProps) => (
              <Button
                variant="default"
                size="xs"
                w="fit-content"
                loading={progress !== undefined}
                {...buttonProps}
              >
                {t(context, isMediaReference(value) ? 'form.file.replace' : 'form.file.choose')}
              </Button>
            )}
          </FileButton>
        )}
        {progress !== undefined && (
          <Progress value={progress} aria-label={t(context, 'form.file.uploading')} />
        )}
      </Stack>
    </Input.Wrapper>
  );
});
