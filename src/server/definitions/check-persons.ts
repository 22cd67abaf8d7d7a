import { itemsAt, schemaHasField } from './check-records';
import { said } from './problems';
import type { WorkflowScope } from './check-references';

/** What each decision holds: the engine writes and reads these fields of every item. */
const DECISION_FIELDS = ['/person', '/outcome', '/conditions', '/reason'];

/**
 * `persons` (a decision per person): its actions are the workflow's, take the data and may
 * write the decisions' section; the list is a list of objects with the name fields; the
 * decisions a list of objects with the decision's fields; a refund needs a payment.
 */
export function checkPersons({ workflow, entity, report }: WorkflowScope): void {
  const persons = workflow.persons;
  if (!persons) return;
  const section = persons.decisions.split('/')[1] ?? '';
  persons.actions.forEach((name, i) => {
    const action = workflow.actions[name];
    if (!action) return report(`/persons/actions/${i}`, said('noAction', { action: name }));
    const editable = action.editable === 'all' || action.editable?.includes(section) === true;
    if (action.payload !== 'data' || !editable)
      report(`/persons/actions/${i}`, said('personsNotWritten', { action: name, section }));
  });
  if (persons.refund && !workflow.payment) report('/persons/refund', said('personsRefundUnpaid'));
  const schema = entity?.schema;
  if (!schema) return;
  const items = itemsAt(schema, persons.list);
  if (!items) report('/persons/list', said('holdersNotList', { list: persons.list }));
  else
    persons.name.forEach((field, i) => {
      if (!schemaHasField(items, `/${field}`))
        report(`/persons/name/${i}`, said('noFieldInItems', { field, list: persons.list }));
    });
  const decisions = itemsAt(schema, persons.decisions);
  if (!decisions) report('/persons/decisions', said('holdersNotList', { list: persons.decisions }));
  else
    for (const field of DECISION_FIELDS)
      if (!schemaHasField(decisions, field))
        report('/persons/decisions', said('noFieldInItems', { field, list: persons.decisions }));
}
