import type { ButtonProps } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { WorkflowAction } from '../../../core/documents/workflow';

/** The success message's key of an action: its own `success`, else `success.<action>`. */
export const successKey = (name: string, action?: WorkflowAction) =>
  action?.success ?? `success.${name}`;

/** What a done action says: the text of `key`, else "<action> done". */
export function successText(t: TFunction, key: string, action: string): string {
  return t(key, { defaultValue: t('documents.done', { action: t(`actions.${action}`) }) });
}

/** How an action's button looks: `danger` red and outlined, `secondary` plain, others filled. */
export function actionButtonLook(
  action: WorkflowAction | undefined,
): Pick<ButtonProps, 'color' | 'variant'> {
  if (action?.danger) return { color: 'red', variant: 'outline' };
  if (action?.emphasis === 'secondary') return { variant: 'default' };
  return { variant: 'filled' };
}
