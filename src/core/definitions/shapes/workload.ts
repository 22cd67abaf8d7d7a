/** A workflow's team view: who holds how many open documents, by status (docs/workflows.md). */
import { filled, some, strict, textKey, Type, type Static } from './kit';

export const WorkflowWorkload = strict({
  /**
   * The assigning action (`payload: "assignee"`): those who may take it open the page, and the
   * accounts holding its `assignees` roles are the team it counts.
   */
  action: filled,
  /** Route below the workflow's prefix, e.g. `/workload`. */
  path: Type.String({ pattern: '^(/[a-z0-9-]+)+$' }),
  /** The statuses counted, in this order; default: every status of the machine but final ones. */
  statuses: Type.Optional(some(Type.String(), { uniqueItems: true })),
  /** Translation key of the menu entry and the page's title (default: the engine's "Team workload"). */
  label: Type.Optional(textKey),
});
export type WorkflowWorkload = Static<typeof WorkflowWorkload>;
