import { memo, useRef, useState } from 'react';
import { Button, CloseButton, FileButton, Group, Input, Progress, Stack } from '@mantine/core';
import type { MediaReference } from '../../../core/documents/types';
import { translate, type Language } from '../../../core/i18n/translate';
import { contextOf } from '../context';
import type { Texts } from '../texts';
import type { FormServices } from '../types';
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

/** A file field outside RJSF (a message's attachment) and inside it (FileWidget). */
export interface FileInputProps {
  /** The button's id (what an error summary focuses); the group is `<id>-field`. */
  id: string;
  label?: string;
  help?: string;
  required?: boolean;
  error?: string;
  value: unknown;
  /** The types (`accept` list) and the size in bytes the file may have. */
  accept?: string;
  maxSize?: number;
  disabled?: boolean;
  texts: Texts;
  language: Language;
  services: FormServices;
  onChange: (value: MediaReference | undefined) => void;
  testId?: string;
}

/** Uploads a file (checked against `accept`, `maxSize`) and keeps only its MediaReference. */
export function FileInput(props: FileInputProps) {
  const { id, value, accept, maxSize, texts, language, services, onChange } = props;
  const [progress, setProgress] = useState<number | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const resetRef = useRef<() => void>(null);
  const say = (key: string, params?: Record<string, unknown>) =>
    translate(texts, language, key, params);
  const wrapperId = `${id}-field`;
  const error = problem ?? props.error;
  const describedBy =
    [error && `${wrapperId}-error`, props.help && `${wrapperId}-description`]
      .filter(Boolean)
      .join(' ') || undefined;

  const upload = async (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    setProblem(undefined);
    if (!accepts(accept, file)) return setProblem(say('form.file.wrongType', { accept }));
    if (maxSize !== undefined && file.size > maxSize)
      return setProblem(say('form.file.tooLarge', { size: fileSize(texts, language, maxSize) }));
    if (!services.uploadFile) return setProblem(say('form.file.failed'));
    setProgress(0);
    try {
      const reference = await services.uploadFile(file, (percent) => setProgress(percent));
      onChange({
        id: reference.id,
        name: reference.name,
        size: reference.size,
        type: reference.type,
      });
    } catch {
      setProblem(say('form.file.failed'));
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <Input.Wrapper
      id={wrapperId}
      role="group"
      aria-labelledby={`${wrapperId}-label`}
      label={props.label}
      labelElement="div"
      description={props.help}
      withAsterisk={props.required}
      error={error}
    >
      <Stack gap={4} mt={4}>
        {isMediaReference(value) && (
          <Group gap="xs">
            <FileLink
              file={value}
              services={services}
              texts={texts}
              language={language}
              testId={props.testId}
            />
            {!props.disabled && (
              <CloseButton
                size="sm"
                aria-label={say('form.file.remove')}
                onClick={() => onChange(undefined)}
              />
            )}
          </Group>
        )}
        {!props.disabled && (
          <FileButton resetRef={resetRef} onChange={(file) => void upload(file)} accept={accept}>
            {(buttonProps) => (
              <Button
                id={id}
                variant="default"
                size="xs"
                w="fit-content"
                loading={progress !== undefined}
                aria-describedby={describedBy}
                {...buttonProps}
              >
                {say(isMediaReference(value) ? 'form.file.replace' : 'form.file.choose')}
              </Button>
            )}
          </FileButton>
        )}
        {progress !== undefined && (
          <Progress value={progress} aria-label={say('form.file.uploading')} />
        )}
      </Stack>
    </Input.Wrapper>
  );
}

/** A file field of a document form: FileInput with the options its uiSchema gives. */
export const FileWidget = memo(function FileWidget(props: EngineWidgetProps) {
  const { id, options, onChange, onBlur } = props;
  const context = contextOf(props.registry.formContext);
  return (
    <FileInput
      id={id}
      label={labelOf(props)}
      help={descriptionOf(props)}
      required={props.required}
      error={errorOf(props)}
      value={props.value}
      accept={typeof options.accept === 'string' ? options.accept : undefined}
      maxSize={typeof options.maxSize === 'number' ? options.maxSize : undefined}
      disabled={props.disabled || props.readonly}
      texts={context.texts}
      language={context.language}
      services={context.services}
      testId={`${id}-file`}
      onChange={(kept) => {
        onChange(kept);
        if (kept) onBlur(id, kept);
      }}
    />
  );
});
