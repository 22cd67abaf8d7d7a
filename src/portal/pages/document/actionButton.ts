import type { ButtonProps } from '@mantine/core';
import type { WorkflowAction } from '../../../core/documents/workflow';

/**
 * How an action's button looks, from its declaration: a destructive one (`danger`) red and
 * outlined (it is taken only once confirmed), a `secondary` one plain beside the others, the
 * others (`primary`, or nothing said) filled. Three identical buttons say nothing of which is
 * the usual step and which cannot be undone.
 */
export function actionButtonLook(
  action: WorkflowAction | undefined,
): Pick<ButtonProps, 'color' | 'variant'> {
  if (action?.danger) return { color: 'red', variant: 'outline' };
  if (action?.emphasis === 'secondary') return { variant: 'default' };
  return { variant: 'filled' };
}
