import type { EntitySection } from '../../../core/definitions/types';
import type { WorkflowScreen } from '../../../core/documents/workflow';
import { sectionApplies } from '../../../core/rules/sections';

/** The sections a screen names to open on (`open`: one, or several in order of preference). */
export function namedOpenings(screen: Pick<WorkflowScreen, 'open'>): string[] {
  const { open } = screen;
  if (open === undefined) return [];
  return typeof open === 'string' ? [open] : open;
}

/** The sections a screen lets the user fill in: those it names, else the applicant's own. */
export function editableSections(
  sections: readonly EntitySection[],
  screen: Pick<WorkflowScreen, 'editable'>,
): readonly string[] | 'all' {
  return screen.editable ?? sections.filter((s) => !s.officer && !s.internal).map((s) => s.id);
}

/**
 * The section a screen opens on: the first it names (`open`) shown and applying here, else the
 * first the user may fill in; read-only, the first holding data.
 */
export function openingSection(
  sections: readonly EntitySection[],
  screen: Pick<WorkflowScreen, 'open'>,
  editable: readonly string[] | 'all',
  readOnly: boolean,
  hidden: readonly string[],
  data: unknown,
): string | undefined {
  const shown = (section: EntitySection) =>
    !hidden.includes(section.id) && sectionApplies(section, data);
  for (const id of namedOpenings(screen)) {
    const section = sections.find((s) => s.id === id);
    if (section && shown(section)) return id;
  }
  if (readOnly) return undefined;
  return sections.find((s) => shown(s) && (editable === 'all' || editable.includes(s.id)))?.id;
}
