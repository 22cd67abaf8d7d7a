import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DocumentView } from '../../core/documents/types';
import {
  fullRoles,
  type WorkflowDefinition,
  type WorkflowScreen,
} from '../../core/documents/workflow';
import { usePortal } from '../context';

/**
 * Where the document can go from here, for this user: each action the machine allows now that
 * another screen of the workflow takes (pay on the confirmation screen, reply on the reply
 * screen, verify on the verification screen...), as a link to that screen.
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
  const here = new Set(screen.actions ?? []);
  const seen = new Set<string>();
  const steps: Array<{ action: string; path: string }> = [];
  for (const candidate of workflow.screens) {
    if (candidate === screen || !session.hasAnyRole(fullRoles(workflow, candidate.roles))) continue;
    for (const action of candidate.actions ?? []) {
      const definition = workflow.actions[action];
      if (here.has(action) || seen.has(action) || !definition) continue;
      if (!document.allowedActions.includes(action)) continue;
      if (!session.hasAnyRole(fullRoles(workflow, definition.roles))) continue;
      seen.add(action);
      steps.push({
        action,
        path: `${workflow.prefix}${candidate.path.replace(':id', document.id)}`,
      });
    }
  }
  if (steps.length === 0) return null;
  return (
    <Group gap="xs" component="nav" aria-label={t('documents.nextSteps')}>
      <Text size="sm" fw={500}>
        {t('documents.nextSteps')}
      </Text>
      {steps.map(({ action, path }) => (
        <Button key={action} component={Link} to={path} variant="light" size="xs">
          {t(`actions.${action}`, { defaultValue: action })}
        </Button>
      ))}
    </Group>
  );
}
