import { declaredAction } from '../../core/documents/workflow';
import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/** The engine effects only an inbox's own actions may name. */
const INBOX_EFFECTS = ['addressMessage', 'queueMessage', 'recordDelivery', 'requeueMessage'];

/**
 * One workflow at most holds the `inbox`; its pointers are fields, its read status a state, its
 * actions system actions, and its effects serve nothing else.
 */
export function checkInbox({ workflow, workflows, entity, report }: WorkflowScope): void {
  const inbox = workflow.inbox;
  if (!inbox) {
    for (const [name, action] of Object.entries(workflow.actions))
      for (const effect of [...(action.before ?? []), ...(action.effects ?? [])])
        if (INBOX_EFFECTS.includes(effect))
          report(`/actions/${name}`, said('inboxEffectOutsideInbox', { effect }));
    return;
  }
  const holder = workflows.find((w) => w.inbox);
  if (holder !== workflow)
    report('/inbox', said('inboxHeldElsewhere', { workflow: String(holder?.id) }));
  const { actions, read, ...pointers } = inbox;
  if (entity)
    for (const [name, pointer] of Object.entries(pointers))
      if (!schemaHasField(entity.schema, pointer))
        report(`/inbox/${name}`, said('noField', { field: pointer }));
  if (!Object.hasOwn(workflow.machine.states, read))
    report('/inbox/read', said('noReadStatus', { status: read }));
  for (const [role, name] of Object.entries(actions))
    if (!declaredAction(workflow, name)?.system)
      report(`/inbox/actions/${role}`, said('inboxActionNotSystem', { action: name }));
}
