import { isEmpty, resolvePointer } from '../rules/registry';

/** The pointers of an action's `requires` that hold no value once the action is applied. */
export function missingRequires(requires: readonly string[] | undefined, data: unknown): string[] {
  return (requires ?? []).filter((pointer) => isEmpty(resolvePointer(data, pointer)));
}
