import { isEmpty, resolvePointer } from '../rules/registry';

/** The pointers of an action's `requires` that hold no value once the action is applied. */
export function missingRequires(requires: readonly string[] | undefined, data: unknown): string[] {
  return (requires ?? []).filter((pointer) => isEmpty(resolvePointer(data, pointer)));
}

/**
 * What a person must give for the action: its `requires`, and where a reconciling action
 * (`reconcile`) has the officer record the amount received and the bank's reference.
 */
export function requiredBy(action: {
  requires?: readonly string[];
  reconcile?: { received: string; reference: string };
}): string[] {
  const reconcile = action.reconcile ? [action.reconcile.received, action.reconcile.reference] : [];
  return [...(action.requires ?? []), ...reconcile];
}
