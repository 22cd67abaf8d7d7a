import { resolvePointer, setAt } from '../../core/rules/registry';
import type { EffectContext } from './effect-context';
import { removeAt } from './reference-fills';

/**
 * The workflow's `copies` applied to the document (effect `copyValues`): each target takes the
 * value at its source, and loses its own when the source has none, so what it shows is always
 * what the source holds (the visa type the applicant chose, in the officers' issuance section),
 * whatever the request sent for it.
 */
export function copyValues({ workflow, document }: Pick<EffectContext, 'workflow' | 'document'>) {
  for (const [target, source] of Object.entries(workflow.copies ?? {})) {
    const value = resolvePointer(document.data, source);
    if (value === undefined || value === null || value === '') removeAt(document.data, target);
    else setAt(document.data, target, structuredClone(value));
  }
}
