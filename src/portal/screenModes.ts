import type { ScreenMode, WorkflowScreen } from '../core/documents/workflow';

/** Modes in which the applicant's sections are editable unless the screen says otherwise. */
export const EDITING_MODES: ReadonlySet<ScreenMode> = new Set<ScreenMode>([
  'new',
  'edit',
  'amendment',
  'reply-to-query',
  'drop',
  'creation',
  'change',
  'modification',
]);
/** Modes that start a new document. */
export const CREATING_MODES: ReadonlySet<ScreenMode> = new Set<ScreenMode>([
  'new',
  'drop',
  'creation',
]);

/** Whether a screen may let the user fill sections in (DocumentScreenPage decides for good). */
export function editsSections(screen: Pick<WorkflowScreen, 'mode' | 'editable'>): boolean {
  return screen.editable !== undefined || EDITING_MODES.has(screen.mode);
}
