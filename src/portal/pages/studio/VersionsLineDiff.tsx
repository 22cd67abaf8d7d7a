import { VisuallyHidden } from '@mantine/core';
import { diffLines } from 'diff';
import { useTranslation } from 'react-i18next';

/** The lines added and removed, with a few unchanged around each change. */
export function LineDiff({ before, after }: { before: string; after: string }) {
  const { t } = useTranslation();
  const parts = diffLines(before, after);
  return (
    <pre
      style={{ overflowX: 'auto', fontSize: 12, margin: '8px 0 0', maxHeight: 480 }}
      tabIndex={0}
      aria-label={t('studio.versions.lines')}
    >
      {parts.map((part, index) => {
        const lines = part.value.replace(/\n$/, '').split('\n');
        if (!part.added && !part.removed) {
          const shown = lines.length > 6 ? [...lines.slice(0, 3), '…', ...lines.slice(-3)] : lines;
          return (
            <span key={index} style={{ color: 'var(--mantine-color-dimmed)' }}>
              {shown.map((line) => `  ${line}\n`).join('')}
            </span>
          );
        }
        const sign = part.added ? '+' : '-';
        return (
          <span
            key={index}
            style={{
              display: 'block',
              background: part.added
                ? 'var(--mantine-color-green-light)'
                : 'var(--mantine-color-red-light)',
            }}
          >
            <VisuallyHidden>
              {part.added ? t('studio.versions.addedLines') : t('studio.versions.removedLines')}
            </VisuallyHidden>
            {lines.map((line) => `${sign} ${line}\n`).join('')}
          </span>
        );
      })}
    </pre>
  );
}
