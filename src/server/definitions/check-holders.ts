import { itemsAt, schemaAt, schemaHasField } from './check-records';
import { said } from './problems';
import type { WorkflowScope } from './check-references';

/**
 * `certificate.holders` and fields printed over `lines` point at fields inside an item or object;
 * holders need `numbering`, `charged` a payment charging that list, a field's `holder` holders.
 */
export function checkCertificateHolders({ workflow, entity, report: push }: WorkflowScope): void {
  const certificate = workflow.certificate;
  const schema = entity?.schema;
  if (!certificate || !schema) return;
  const holders = certificate.holders;
  const items = holders && itemsAt(schema, holders.list);
  if (holders) {
    if (!items) push('/certificate/holders/list', said('holdersNotList', { list: holders.list }));
    if (!workflow.numbering) push('/certificate/holders', said('holdersWithoutNumbering'));
    const charging = (workflow.payment?.sources ?? []).some((source) =>
      source.payers?.people?.some((group) => group.list === holders.list),
    );
    if (holders.charged && !charging)
      push('/certificate/holders/charged', said('holdersNotCharged', { list: holders.list }));
    const at = '/certificate/holders';
    const within: Array<[string, string]> = [
      [`${at}/number`, holders.number],
      ...holders.secondFactors.map((f, i): [string, string] => [`${at}/secondFactors/${i}`, f]),
      ...holders.name.map((f, i): [string, string] => [`${at}/name/${i}`, `/${f}`]),
    ];
    for (const [at, pointer] of within)
      if (items && !schemaHasField(items, pointer))
        push(at, said('noFieldInItems', { field: pointer, list: holders.list }));
  }
  certificate.fields.forEach((field, i) => {
    if (field.holder !== undefined) {
      if (!holders) push(`/certificate/fields/${i}/holder`, said('holderWithoutHolders'));
      else if (items && !schemaHasField(items, field.holder))
        push(
          `/certificate/fields/${i}/holder`,
          said('noFieldInItems', { field: field.holder, list: holders.list }),
        );
    }
    const object = field.lines ? schemaAt(schema, field.pointer) : undefined;
    (field.lines ?? []).forEach((line, j) => {
      if (!object || !schemaHasField(object, line))
        push(
          `/certificate/fields/${i}/lines/${j}`,
          said('noLineField', { field: line, pointer: field.pointer }),
        );
    });
  });
}
