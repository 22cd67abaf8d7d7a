import type { EntitySection } from '../../../core/definitions/types';
import type { WorkflowScreen } from '../../../core/documents/workflow';
import { sectionApplies } from '../../../core/rules/sections';

/** The sections a screen lets the user fill in: those it names, else the applicant's own. */
export function editableSections(
  sections: readonly EntitySection[],
  screen: Pick<WorkflowScreen, 'editable'>,
): readonly string[] | 'all' {
  return screen.editable ?? sections.filter((s) => !s.officer && !s.internal).map((s) => s.id);
}

/**
 * The section a screen opens on: the first it names (`open`: one, or several in order of
 * preference) shown and applying here, else the first the user may fill in; read-only, the first
 * holding data. Without `data` (a route preloading before the document is read), any may apply.
 */
export function openingSection(
  sections: readonly EntitySection[],
  screen: Pick<WorkflowScreen, 'open'>,
  editable: readonly string[] | 'all',
  readOnly: boolean,
  hidden: readonly string[],
  data?: unknown,
): string | undefined {
  const shown = (section: EntitySection) =>
    !hidden.includes(section.id) && (data === undefined || sectionApplies(section, data));
  for (const id of [screen.open ?? []].flat()) {
    const section = sections.find((s) => s.id === id);
    if (section && shown(section)) return id;
  }
  if (readOnly) return undefined;
  return sections.find((s) => shown(s) && (editable === 'all' || editable.includes(s.id)))?.id;
}
