import { documentRoute } from '../../core/documents/document-route';
import { resolvePointer } from '../../core/rules/registry';
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

/** Whether the screen is for this document (its `when` holds of the data, or it has none). */
export function screenIsFor(screen: WorkflowScreen, document: DocumentView): boolean {
  return !screen.when || resolvePointer(document.data, screen.when.pointer) === screen.when.equals;
}

/**
 * Where the document can go from here, for this user: each other screen of the workflow that
 * takes an action the machine allows now (pay on the confirmation screen, reply on the reply
 * screen, verify on the verification screen...), as one link named by what it does: the
 * screen's `label` ("Edit application"), else its first such action ("Initiate payment"); and
 * each labelled screen of a module's panels (API credentials).
 * A screen declaring `when` is offered only for the documents it is for.
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
  const steps: Array<{ key: string; label: string; path: string }> = [];
  for (const candidate of workflow.screens) {
    if (candidate === screen || !session.hasAnyRole(fullRoles(workflow, candidate.roles))) continue;
    if (!screenIsFor(candidate, document)) continue;
    const offered = (candidate.actions ?? []).filter((action) => {
      const definition = workflow.actions[action];
      if (here.has(action) || seen.has(action) || !definition) return false;
      if (!document.allowedActions.includes(action)) return false;
      return session.hasAnyRole(fullRoles(workflow, definition.roles));
    });
    const first = offered[0];
    // A screen of panels (API credentials) has its work in them: a step by its label.
    const panelled = Boolean(candidate.panels?.length && candidate.label);
    if (first === undefined && !panelled) continue;
    offered.forEach((action) => seen.add(action));
    steps.push({
      key: candidate.path,
      label: candidate.label
        ? t(candidate.label)
        : t(`actions.${first ?? ''}`, { defaultValue: first }),
      path: documentRoute(workflow, candidate.path, document),
    });
  }
  if (steps.length === 0) return null;
  return (
    <Group gap="xs" component="nav" aria-label={t('documents.nextSteps')}>
      <Text size="sm" fw={500}>
        {t('documents.nextSteps')}
      </Text>
      {steps.map(({ key, label, path }) => (
        <Button key={key} component={Link} to={path} variant="light" size="xs">
          {label}
        </Button>
      ))}
    </Group>
  );
}
