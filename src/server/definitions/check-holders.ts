import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { schemaHasField } from './check-records';
import type { DefinitionProblem } from './problems';

/** The schema of the value at a data pointer of plain names, if the schema has one there. */
function schemaAt(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const segment of pointer.split('/').slice(1))
    node = (node?.properties as Record<string, JsonSchema> | undefined)?.[segment];
  return node;
}

/** The items' schema of the list at `pointer`, if it is a list of objects. */
function itemsOf(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  const items = schemaAt(schema, pointer)?.items;
  return items && typeof items === 'object' && !Array.isArray(items)
    ? (items as JsonSchema)
    : undefined;
}

/**
 * A certificate's people of a list (`certificate.holders`) and the fields printed over several
 * lines (`lines`): what they point at inside an item or an object must be fields there, a
 * holder's number comes from the workflow's `numbering`, `charged` needs a payment charging
 * that list's people, and a field's `holder` pointer needs holders to print it for.
 */
export function checkCertificateHolders(
  workflow: WorkflowDefinition,
  schemas: readonly EntityDefinition[],
  problems: DefinitionProblem[],
): void {
  const certificate = workflow.certificate;
  const schema = schemas.find((entity) => entity.id === workflow.document)?.schema;
  if (!certificate || !schema) return;
  const file = `workflows/${workflow.id}.json`;
  const push = (pointer: string, message: string) => problems.push({ file, pointer, message });
  const holders = certificate.holders;
  const items = holders && itemsOf(schema, holders.list);
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
    const within: Array<[string, string]> = [
      ['/certificate/holders/number', holders.number],
      ...holders.secondFactors.map((f, i): [string, string] => [
        `/certificate/holders/secondFactors/${i}`,
        f,
      ]),
      ...holders.name.map((f, i): [string, string] => [`/certificate/holders/name/${i}`, `/${f}`]),
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
