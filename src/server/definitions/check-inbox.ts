import type { EntityDefinition } from '../../core/definitions/types';
import { declaredAction, type WorkflowDefinition } from '../../core/documents/workflow';
import { schemaHasField } from './check-records';
import type { DefinitionProblem } from './problems';

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
      file: `workflows/${extra.id}.json`,
      pointer: '/inbox',
      message: `"${inboxes[0]!.id}" already holds the inbox's messages`,
    });
  for (const workflow of workflows) {
    const file = `workflows/${workflow.id}.json`;
    const inbox = workflow.inbox;
    if (!inbox) {
      for (const [name, action] of Object.entries(workflow.actions))
        for (const effect of [...(action.before ?? []), ...(action.effects ?? [])])
          if (INBOX_EFFECTS.includes(effect))
            problems.push({
              file,
              pointer: `/actions/${name}`,
              message: `"${effect}" serves only the workflow declaring \`inbox\``,
            });
      continue;
    }
    const schema = entities.find((e) => e.id === workflow.document)?.schema;
    const { actions, read, ...pointers } = inbox;
    if (schema)
      for (const [name, pointer] of Object.entries(pointers))
        if (!schemaHasField(schema, pointer))
          problems.push({ file, pointer: `/inbox/${name}`, message: `no field "${pointer}"` });
    if (!Object.hasOwn(workflow.machine.states, read))
      problems.push({ file, pointer: '/inbox/read', message: `no status "${read}"` });
    for (const [role, name] of Object.entries(actions))
      if (!declaredAction(workflow, name)?.system)
        problems.push({
          file,
          pointer: `/inbox/actions/${role}`,
          message: `"${name}" is not a system action of the workflow`,
        });
  }
}
