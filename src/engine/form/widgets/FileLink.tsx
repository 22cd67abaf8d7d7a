import { memo, useState } from 'react';
import { Anchor, Group, Loader, Text } from '@mantine/core';
import type { MediaReference } from '../../../core/documents/types';
import { translate, type Language } from '../../../core/i18n/translate';
import type { Texts } from '../texts';
import type { FormServices } from '../types';

/** `433 B`, `1.2 KB`, `3.5 MB` in English; `433 o`, `1,2 Ko`, `3,5 Mo` in French. */
export function fileSize(texts: Texts, language: Language, bytes: number): string {
  const [amount, unit] =
    bytes < 1024
      ? [bytes, 'B']
      : bytes < 1024 * 1024
        ? [bytes / 1024, 'KB']
        : [bytes / 1024 / 1024, 'MB'];
  const n = new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(amount);
  return translate(texts, language, `form.file.size.${unit}`, { n });
}

/** `application/pdf` -> `PDF`, `image/jpeg` -> `JPEG`: the format's usual name. */
export function fileKind(type: string): string {
  const subtype = type.split('/')[1] ?? type;
  return subtype.replace(/^x-/, '').split(/[.+;]/)[0]!.toUpperCase();
}

/**
 * Types a browser shows itself (its PDF viewer, an image) that run no script of ours: these open
 * in a new tab, anything else is saved.
 */
const SHOWN_IN_BROWSER = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/** Shows a fetched file in a new tab, else (a pop-up blocker) downloads it under its name. */
export function openBlob(blob: Blob, file: MediaReference): void {
  const url = URL.createObjectURL(blob);
  const shown = SHOWN_IN_BROWSER.has(blob.type || file.type) && window.open(url, '_blank');
  if (!shown) {
    const link = window.document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.click();
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

interface FileLinkProps {
  file: MediaReference;
  services: FormServices;
  texts: Texts;
  language: Language;
  testId?: string;
}

/**
 * An uploaded file as a link that opens it, fetched through `services.readFile` (never a token in
 * an address). Without `readFile` the name is text.
 */
export const FileLink = memo(function FileLink(props: FileLinkProps) {
  const { file, services, texts, language, testId } = props;
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const details = `${fileKind(file.type)}, ${fileSize(texts, language, file.size)}`;
  const readFile = services.readFile;
  const open = async () => {
    if (!readFile || busy) return;
    setBusy(true);
    setFailed(false);
    try {
      openBlob(await readFile(file), file);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid={testId}>
      <Group gap={6} wrap="nowrap" align="baseline">
        {readFile ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            className="engine-file-link"
            aria-label={translate(texts, language, 'form.file.open', { name: file.name, details })}
            aria-busy={busy || undefined}
            onClick={() => void open()}
          >
            {file.name}
          </Anchor>
        ) : (
          <Text size="sm" className="engine-file-link">
            {file.name}
          </Text>
        )}
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          ({details})
        </Text>
        {busy && <Loader size={12} aria-hidden />}
      </Group>
      {failed && (
        <Text size="xs" c="red" role="alert">
          {translate(texts, language, 'form.file.openFailed')}
        </Text>
      )}
    </div>
  );
});
