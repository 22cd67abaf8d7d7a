import { useEffect, useRef } from 'react';
import { Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { successText } from './actionButton';
import type { Audience } from './audience';

/** What a screen hands the view after an action (text keys, so a language switch follows). */
export interface Confirmation {
  /** The success message's key (the action's `success`, else `success.<action>`) and action. */
  success: { key: string; action: string };
  /** The document's reference number, when it has one. */
  number?: string | null;
  /** The number the document is known by once granted (the workflow's `reference`). */
  reference?: { label: string; value: string };
  /** The status the document is in now: `<entity>.whatNext.<status>` says what happens next. */
  status: string;
  /** Whom it addresses; each `whatNext` text may be a group with one text per audience. */
  audience: Audience;
}

/** The GOV.UK confirmation after an action; it takes the focus when it appears. */
export function ConfirmationPanel({
  confirmation,
  entity,
}: {
  confirmation: Confirmation;
  entity: string;
}) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
    window.scrollTo?.({ top: 0 });
  }, [confirmation]);
  const { audience } = confirmation;
  // What happens next: one text, or a group of them with one per audience.
  const nextKey = `${entity}.whatNext.${confirmation.status}`;
  const texts: unknown = i18n.exists(nextKey) ? t(nextKey, { returnObjects: true }) : undefined;
  const next =
    typeof texts === 'object' && texts ? (texts as Record<string, unknown>)[audience] : texts;
  return (
    <Paper
      ref={ref}
      tabIndex={-1}
      role="status"
      aria-labelledby="confirmation-title"
      p="lg"
      radius="md"
      // GOV.UK green: white text on it reads at 6.2:1, in light and dark schemes alike.
      bg="#00703c"
      c="white"
      data-testid="confirmation"
    >
      <Title order={2} id="confirmation-title" c="white" mb="xs">
        {successText(t, confirmation.success.key, confirmation.success.action)}
      </Title>
      {confirmation.number && (
        <Text size="lg" c="white">
          {t(audience === 'owner' ? 'documents.referenceNumber' : 'confirmation.referenceNumber')}{' '}
          <Text component="strong" fw={700} size="xl" c="white">
            {confirmation.number}
          </Text>
        </Text>
      )}
      {confirmation.reference && (
        <Text size="lg" c="white">
          {t(confirmation.reference.label)}:{' '}
          <Text component="strong" fw={700} size="xl" c="white">
            {confirmation.reference.value}
          </Text>
        </Text>
      )}
      {typeof next === 'string' && next && (
        <>
          <Title order={3} size="h5" c="white" mt="md">
            {t('documents.whatNext')}
          </Title>
          <Text c="white">{next}</Text>
        </>
      )}
    </Paper>
  );
}
