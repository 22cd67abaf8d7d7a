import type { EntityDefinition } from '../../core/definitions/types';
import { declaredAction, type WorkflowDefinition } from '../../core/documents/workflow';
import { schemaHasField } from './check-records';
import { reporter, workflowFile, type DefinitionProblem } from './problems';

/** The engine effects only an inbox's own actions may name. */
const INBOX_EFFECTS = ['addressMessage', 'queueMessage', 'recordDelivery', 'requeueMessage'];

/**
 * One workflow at most holds the `inbox`; its pointers are fields, its read status a state, its
 * actions system actions, and its effects serve nothing else.
 */
export function checkInbox(
  workflows: readonly WorkflowDefinition[],
  entities: readonly EntityDefinition[],
  problems: DefinitionProblem[],
): void {
  const inboxes = workflows.filter((w) => w.inbox);
  for (const extra of inboxes.slice(1))
    problems.push({
      file: workflowFile(extra.id),
      pointer: '/inbox',
      message: `"${inboxes[0]!.id}" already holds the inbox's messages`,
    });
  for (const workflow of workflows) {
    const report = reporter(problems, workflowFile(workflow.id));
    const inbox = workflow.inbox;
    if (!inbox) {
      for (const [name, action] of Object.entries(workflow.actions))
        for (const effect of [...(action.before ?? []), ...(action.effects ?? [])])
          if (INBOX_EFFECTS.includes(effect))
            report(`/actions/${name}`, `"${effect}" serves only the workflow declaring \`inbox\``);
      continue;
    }
    const schema = entities.find((e) => e.id === workflow.document)?.schema;
    const { actions, read, ...pointers } = inbox;
    if (schema)
      for (const [name, pointer] of Object.entries(pointers))
        if (!schemaHasField(schema, pointer)) report(`/inbox/${name}`, `no field "${pointer}"`);
    if (!Object.hasOwn(workflow.machine.states, read)) report('/inbox/read', `no status "${read}"`);
    for (const [role, name] of Object.entries(actions))
      if (!declaredAction(workflow, name)?.system)
        report(`/inbox/actions/${role}`, `"${name}" is not a system action of the workflow`);
  }
}
