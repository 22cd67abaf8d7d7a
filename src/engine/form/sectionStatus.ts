/**
 * Where each section of a long form stands, as a task list says it (GOV.UK task list pattern):
 * not started, in progress (errors left) or completed; read-only sections have no status.
 */
export type SectionStatus = 'notStarted' | 'inProgress' | 'completed';

/** Nothing given: undefined, null, '', an empty list, or an object whose every value is blank. */
export function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.values(value as object).every(isBlank))
  );
}

/** A section's status from its value and the number of errors it holds (shown or not yet). */
export function sectionStatus(value: unknown, errors: number): SectionStatus {
  if (isBlank(value)) return 'notStarted';
  return errors > 0 ? 'inProgress' : 'completed';
}
