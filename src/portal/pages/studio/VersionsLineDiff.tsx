import { useState, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Text,
  useComputedColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { diffLines } from 'diff';
import { useTranslation } from 'react-i18next';

type Files = ReadonlyMap<string, string | null>;

/**
 * Files that differ from `before` to `after`, each named with what happened to it and its lines
 * shown on demand, one file at a time. `kinds` words the happenings; `controls` go beside the
 * show button.
 */
export function FileDiffs(props: {
  paths: readonly string[];
  before: Files;
  after: Files;
  kinds: 'kinds' | 'folderKinds';
  controls?: (path: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | undefined>();
  const badgeColor = useComputedColorScheme('light') === 'dark' ? 'blue.3' : 'blue.9';
  const { controls } = props;
  return props.paths.map((path) => {
    const before = props.before.get(path);
    const after = props.after.get(path) ?? undefined;
    const kind = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
    const toggle = (
      <Button
        size="xs"
        variant="subtle"
        aria-expanded={open === path}
        onClick={() => setOpen(open === path ? undefined : path)}
      >
        {open === path ? t('studio.versions.hide') : t('studio.versions.show')}
      </Button>
    );
    return (
      <Paper key={path} withBorder p="xs">
        <Group
          justify="space-between"
          wrap={controls ? 'wrap' : 'nowrap'}
          gap={controls ? 'xs' : undefined}
        >
          <Text size="sm">
            <Code>{path}</Code>{' '}
            <Badge color={badgeColor} size="sm" variant="outline">
              {t(`studio.versions.${props.kinds}.${kind}`)}
            </Badge>
          </Text>
          {controls ? (
            <Group gap="xs" wrap="wrap">
              {controls(path)}
              {toggle}
            </Group>
          ) : (
            toggle
          )}
        </Group>
        {open === path && <LineDiff before={before ?? ''} after={after ?? ''} />}
      </Paper>
    );
  });
}

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
