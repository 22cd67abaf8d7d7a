import type { DocumentView } from '../../../core/documents/types';
import {
  fullRoles,
  type WorkflowDefinition,
  type WorkflowScreen,
} from '../../../core/documents/workflow';
import { resolvePointer } from '../../../core/rules/registry';
import type { Session } from '../../session';

/** One link among a document's next steps. */
export interface NextStep {
  screen: WorkflowScreen;
  /** The first action the screen offers now; none on a module panels' screen. */
  action?: string;
  /** The screen's `label`, unless all the screen offers now is destructive (cancel, delete). */
  label?: string;
  /** The step the workflow expects next: the first screen offering an action of `primary` emphasis. */
  primary: boolean;
}

/** Whether the screen is for this document (its `when` holds of the data, or it has none). */
export function screenIsFor(screen: WorkflowScreen, document: Pick<DocumentView, 'data'>): boolean {
  return !screen.when || resolvePointer(document.data, screen.when.pointer) === screen.when.equals;
}

/**
 * The other screens of the workflow this user may act on now, each action once; a screen is
 * named by its `label`, else its first action (its destructive one when that is all it offers).
 * The first offering a `primary` action is listed first.
 */
export function nextSteps(
  workflow: WorkflowDefinition,
  here: WorkflowScreen,
  document: Pick<DocumentView, 'allowedActions' | 'data'>,
  session: Session,
): NextStep[] {
  const offeredHere = new Set(here.actions ?? []);
  const seen = new Set<string>();
  const steps: NextStep[] = [];
  let primaryFound = false;
  for (const candidate of workflow.screens) {
    if (candidate === here || !session.hasAnyRole(fullRoles(workflow, candidate.roles))) continue;
    if (!screenIsFor(candidate, document)) continue;
    const offered = (candidate.actions ?? []).filter((action) => {
      const definition = workflow.actions[action];
      if (offeredHere.has(action) || seen.has(action) || !definition) return false;
      if (!document.allowedActions.includes(action)) return false;
      return session.hasAnyRole(fullRoles(workflow, definition.roles));
    });
    const [first] = offered;
    // A screen of panels (API credentials) has its work in them: a step by its label.
    const panelled = Boolean(candidate.panels?.length && candidate.label);
    if (first === undefined && !panelled) continue;
    offered.forEach((action) => seen.add(action));
    const onlyDanger =
      first !== undefined && offered.every((action) => workflow.actions[action]?.danger);
    const primary: boolean =
      !primaryFound && offered.some((action) => workflow.actions[action]?.emphasis === 'primary');
    primaryFound ||= primary;
    steps.push({
      screen: candidate,
      ...(first !== undefined ? { action: first } : {}),
      ...(candidate.label && !onlyDanger ? { label: candidate.label } : {}),
      primary,
    });
  }
  // The expected step first, where the eye starts (and first on a phone's wrapped line).
  return [...steps.filter((step) => step.primary), ...steps.filter((step) => !step.primary)];
}
