import { resolvePointer, setAt } from '../../core/rules/registry';
import type { EffectContext } from './effect-context';
import { removeAt } from './reference-fills';

/** The workflow's `copies`: each target takes its source's value or loses its own. */
export function copyValues({ workflow, document }: Pick<EffectContext, 'workflow' | 'document'>) {
  for (const [target, source] of Object.entries(workflow.copies ?? {})) {
    const value = resolvePointer(document.data, source);
    if (value === undefined || value === null || value === '') removeAt(document.data, target);
    else setAt(document.data, target, structuredClone(value));
  }
}
