import type { ButtonProps } from '@mantine/core';
import type { WorkflowAction } from '../../../core/documents/workflow';

/** How an action's button looks: `danger` red and outlined, `secondary` plain, others filled. */
export function actionButtonLook(
  action: WorkflowAction | undefined,
): Pick<ButtonProps, 'color' | 'variant'> {
  if (action?.danger) return { color: 'red', variant: 'outline' };
  if (action?.emphasis === 'secondary') return { variant: 'default' };
  return { variant: 'filled' };
}
