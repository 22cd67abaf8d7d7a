import type { EntityDefinition } from '../../core/definitions/types';
import { declaredAction, type WorkflowDefinition } from '../../core/documents/workflow';
import { schemaHasField } from './check-records';
import { reporter, workflowFile, type DefinitionProblem } from './problems';

/** The engine effects only an inbox's own actions may name. */
const INBOX_EFFECTS = ['addressMessage', 'queueMessage', 'recordDelivery', 'requeueMessage'];

/**
 * A workflow's `inbox` (src/core/documents/workflow.ts, WorkflowInbox): one workflow at most
 * holds the messages; its pointers are fields of its schema, its read status a state, and the
 * actions the engine takes on a message are system actions it declares. The inbox's effects
 * are named by nothing else. A slip would otherwise surface as a visa action refused because
 * its notice could not be posted.
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
