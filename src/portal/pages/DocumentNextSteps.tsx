import { documentRoute } from '../../core/documents/document-route';
import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DocumentView } from '../../core/documents/types';
import type { WorkflowDefinition, WorkflowScreen } from '../../core/documents/workflow';
import { usePortal } from '../context';
import { nextSteps } from './document/next-steps';

/**
 * Where the document can go from here for this user, one link per screen; the `primary` step is
 * the filled button, so "Initiate payment" stands out from "Cancel application".
 */
export function DocumentNextSteps({
  workflow,
  screen,
  document,
}: {
  workflow: WorkflowDefinition;
  screen: WorkflowScreen;
  document: DocumentView;
}) {
  const { t } = useTranslation();
  const { session } = usePortal();
  const steps = nextSteps(workflow, screen, document, session);
  if (steps.length === 0) return null;
  return (
    <Group gap="xs" component="nav" aria-label={t('documents.nextSteps')}>
      <Text size="sm" fw={500}>
        {t('documents.nextSteps')}
      </Text>
      {steps.map((step) => (
        <Button
          key={step.screen.path}
          component={Link}
          to={documentRoute(workflow, step.screen.path, document)}
          variant={step.primary ? 'filled' : 'default'}
          size={step.primary ? 'sm' : 'xs'}
          data-primary={step.primary || undefined}
        >
          {step.label ? t(step.label) : t(`actions.${step.action}`, { defaultValue: step.action })}
        </Button>
      ))}
    </Group>
  );
}
