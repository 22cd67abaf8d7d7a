import { itemsAt, schemaAt, schemaHasField } from './check-records';
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
    if (!items) push('/certificate/holders/list', `"${holders.list}" is not a list of objects`);
    if (!workflow.numbering)
      push(
        '/certificate/holders',
        'holders are numbered by the workflow\'s "numbering": declare it',
      );
    const charging = (workflow.payment?.sources ?? []).some((source) =>
      source.payers?.people?.some((group) => group.list === holders.list),
    );
    if (holders.charged && !charging)
      push(
        '/certificate/holders/charged',
        `no payment source charges the people of "${holders.list}" (payers.people)`,
      );
    const at = '/certificate/holders';
    const within: Array<[string, string]> = [
      [`${at}/number`, holders.number],
      ...holders.secondFactors.map((f, i): [string, string] => [`${at}/secondFactors/${i}`, f]),
      ...holders.name.map((f, i): [string, string] => [`${at}/name/${i}`, `/${f}`]),
    ];
    for (const [at, pointer] of within)
      if (items && !schemaHasField(items, pointer))
        push(at, `no field "${pointer}" in the items of "${holders.list}"`);
  }
  certificate.fields.forEach((field, i) => {
    if (field.holder !== undefined) {
      if (!holders)
        push(`/certificate/fields/${i}/holder`, 'no "holders" in the certificate to print it for');
      else if (items && !schemaHasField(items, field.holder))
        push(
          `/certificate/fields/${i}/holder`,
          `no field "${field.holder}" in the items of "${holders.list}"`,
        );
    }
    const object = field.lines ? schemaAt(schema, field.pointer) : undefined;
    (field.lines ?? []).forEach((line, j) => {
      if (!object || !schemaHasField(object, line))
        push(`/certificate/fields/${i}/lines/${j}`, `no field "${line}" in "${field.pointer}"`);
    });
  });
}
