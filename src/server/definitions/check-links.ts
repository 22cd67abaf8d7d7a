import {
  declaredAction,
  type LinkValue,
  type WorkflowDefinition,
} from '../../core/documents/workflow';
import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/** The values only a payable document (a workflow with `payment`) offers. */
const PAYMENT_VALUES: readonly LinkValue[] = ['amountDue', 'amountPaid', 'currency'];

/**
 * A workflow's `links` and actions' `fires`: fields exist, linked types are enabled workflows
 * with a prefix of their own, fired actions are their system actions, payment values come from
 * payable types (the note is a text: references.ts). A slip would otherwise show as a refused
 * invoice.
 */
export function checkLinks(scope: WorkflowScope): void {
  const { workflow, workflows, schemas: entities, report } = scope;
  const links = workflow.links;
  if (!links) {
    for (const [name, action] of Object.entries(workflow.actions))
      if (action.fires) report(`/actions/${name}/fires`, said('firesWithoutLinks'));
    return;
  }
  const schema = scope.entity?.schema;
  if (schema) {
    if (!schemaHasField(schema, links.items))
      report('/links/items', said('noField', { field: links.items }));
    for (const property of [links.number, ...Object.keys(links.fill ?? {})])
      if (!schemaHasField(schema, `${links.items}/0/${property}`))
        report(
          property === links.number ? '/links/number' : `/links/fill/${property}`,
          said('itemsHaveNoField', { list: links.items, field: property }),
        );
    for (const pointer of Object.keys(links.totals ?? {}))
      if (!schemaHasField(schema, pointer))
        report(`/links/totals${pointer}`, said('noField', { field: pointer }));
  }

  const prefixes = new Map<string, string>();
  const linked: WorkflowDefinition[] = [];
  links.types.forEach((type, i) => {
    const target = workflows.find((w) => w.id === type);
    const pointer = `/links/types/${i}`;
    if (!target) return report(pointer, said('noEnabledWorkflow', { missingDefinition: type }));
    linked.push(target);
    if (!target.numbering) return report(pointer, said('linkedTypeWithoutNumbering', { type }));
    const other = prefixes.get(target.numbering.prefix);
    if (other)
      report(
        pointer,
        said('linkedTypesShareOnePrefix', { type, other, prefix: target.numbering.prefix }),
      );
    prefixes.set(target.numbering.prefix, type);
  });

  const values = [...Object.values(links.fill ?? {}), ...Object.values(links.totals ?? {})].filter(
    (value): value is LinkValue => typeof value === 'string',
  );
  // A value read from the linked documents' data names a field of at least one linked type
  // (once every type is there: a type refused on its own is reported once, by its own file).
  for (const [property, value] of Object.entries(links.fill ?? {})) {
    if (typeof value === 'string' || linked.length < links.types.length) continue;
    value.data.forEach((source, i) => {
      for (const pointer of source.split(' ')) {
        const known = linked.some((target) => {
          const other = entities.find((e) => e.id === target.document)?.schema;
          return other !== undefined && schemaHasField(other, pointer);
        });
        if (!known)
          report(
            `/links/fill/${property}/data/${i}`,
            said('noLinkedTypeField', { field: pointer }),
          );
      }
    });
  }
  for (const target of linked)
    if (!target.payment && values.some((value) => PAYMENT_VALUES.includes(value)))
      report(
        '/links',
        said('linkedTypeNotPayable', { type: target.id, values: PAYMENT_VALUES.join(', ') }),
      );
  for (const [name, action] of Object.entries(workflow.actions))
    for (const [which, fired] of Object.entries(action.fires ?? {}))
      for (const target of linked)
        if (!declaredAction(target, fired)?.system)
          report(
            `/actions/${name}/fires/${which}`,
            said('notASystemAction', { action: fired, type: target.id }),
          );
}
