import { resolvePointer } from '../rules/registry';

/**
 * The pointers of an action's `requires` (docs/forms.md) that hold no value in the document as
 * the action would leave it. The server refuses the action naming each one (400 `required`);
 * the screen asks for them before sending, so the obvious needs no round trip.
 */
export function missingRequires(requires: readonly string[] | undefined, data: unknown): string[] {
  return (requires ?? []).filter((pointer) => {
    const value = resolvePointer(data, pointer);
    return value === undefined || value === null || value === '';
  });
}
