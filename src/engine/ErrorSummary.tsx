import { useEffect, useRef } from 'react';
import { Anchor, List, Paper, Text, Title } from '@mantine/core';

/** One problem the summary lists: what is wrong, and how to reach the field. */
export interface SummaryEntry {
  /** Stable key (the field's pointer). */
  key: string;
  text: string;
  /** Opens the field (its section first) and focuses it; none: the entry names no field. */
  onOpen?: () => void;
}

/**
 * The GOV.UK error summary of a form: its problems, each taking the person to its field. It takes the focus when it appears or says something new, not when
 * an entry goes as its field is corrected.
 */
export function ErrorSummary({
  title,
  description,
  entries,
}: {
  title: string;
  description?: string;
  entries: readonly SummaryEntry[];
}) {
  const ref = useRef<HTMLDivElement>(null);
  const signature = [description ?? '', ...entries.map((e) => `${e.key}:${e.text}`)].join('\n');
  // What the summary said before this change.
  const said = useRef<ReadonlySet<string> | undefined>(undefined);
  useEffect(() => {
    const box = ref.current;
    const before = said.current;
    const lines = signature.split('\n');
    said.current = new Set(lines);
    // A problem answered leaves the list shorter: the focus stays in the field being corrected.
    if (before && lines.every((line) => before.has(line))) return;
    if (!box) return;
    box.focus({ preventScroll: true });
    box.scrollIntoView?.({ block: 'start', behavior: 'auto' });
  }, [signature]);
  return (
    <Paper
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby="error-summary-title"
      withBorder
      p="md"
      data-testid="error-summary"
      // scrollMarginTop: the portal's header stays on top of the page; the summary shows below it.
      style={{
        borderColor: 'var(--mantine-color-error)',
        borderWidth: 3,
        outlineOffset: 2,
        scrollMarginTop: 88,
      }}
    >
      <Title order={2} size="h4" id="error-summary-title" mb="xs">
        {title}
      </Title>
      {description && (
        <Text size="sm" mb="xs">
          {description}
        </Text>
      )}
      {entries.length > 0 && (
        <List size="sm" spacing={4}>
          {entries.map((entry) => (
            <List.Item key={entry.key}>
              {entry.onOpen ? (
                <Anchor
                  component="button"
                  type="button"
                  c="var(--mantine-color-error)"
                  fw={600}
                  td="underline"
                  ta="start"
                  // Inline and aligned on its top: the bullet followed the last line of an
                  // inline block when an entry wrapped.
                  display="inline"
                  style={{ verticalAlign: 'top' }}
                  onClick={entry.onOpen}
                >
                  {entry.text}
                </Anchor>
              ) : (
                entry.text
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}
