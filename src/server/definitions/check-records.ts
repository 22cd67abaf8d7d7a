import { isNode } from '../../core/definitions/json';
import { escapeSegment } from '../../core/rules/registry';
import type { JsonSchema } from '../../core/definitions/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { WorkflowScope } from './check-references';
import { reportUnknown, said } from './problems';

/**
 * Record declarations (core/documents/record-declarations.ts): pointers name fields, sign-in
 * statuses exist, records found by key declare `key`; else nobody could sign in, silently.
 */
export function checkRecordDeclarations(scope: WorkflowScope): void {
  const { workflow, entity, report } = scope;
  checkTypedChecks(scope);
  const declared = recordPointers(workflow);
  if (declared.length === 0) return;
  if (!workflow.key && (workflow.account || workflow.userGroup || workflow.passwordPolicy))
    report('', said('recordsWithoutKey'));
  if (entity)
    for (const [at, pointer] of declared)
      if (!schemaHasField(entity.schema, pointer))
        report(at, said('notFieldOfSchema', { pointer, schema: entity.id }));
  reportUnknown(
    report,
    workflow.account?.signIn.statuses,
    '/account/signIn/statuses',
    (status) => Object.hasOwn(workflow.machine.states, status),
    (status) => said('noStatus', { status }),
  );
}

/**
 * An account's user and identity types name an entry of their catalogue whose flags (`checks`,
 * flag -> field) say which fields apply: a flag the catalogue lacks is never on, so its field is
 * silently never asked.
 */
function checkTypedChecks({ workflow, catalogs, report }: WorkflowScope): void {
  for (const name of ['userType', 'identityType'] as const) {
    const typed = workflow.account?.[name];
    // An unknown catalogue is reported by the references' check.
    const catalog = typed && catalogs.find((candidate) => candidate.id === typed.catalog);
    if (!catalog) continue;
    const fields = propertiesOf(catalog.schema);
    for (const flag of Object.keys(typed.checks))
      if (!Object.hasOwn(fields, flag))
        report(
          `/account/${name}/checks/${escapeSegment(flag)}`,
          said('checkFlagNotInCatalogue', { catalogue: catalog.id, field: flag }),
        );
  }
}

/** Every data pointer of the declarations, with where it is declared (a pointer into the file). */
export function recordPointers(workflow: WorkflowDefinition): Array<[at: string, pointer: string]> {
  const found: Array<[string, string]> = [];
  const { key, account, userGroup, passwordPolicy, accessUnit } = workflow;
  if (key) found.push(['/key/pointer', key.pointer]);
  if (account) {
    account.name.forEach((rule, i) => {
      if (rule.when) found.push([`/account/name/${i}/when/pointer`, rule.when.pointer]);
      rule.fields.forEach((field, j) => found.push([`/account/name/${i}/fields/${j}`, field]));
    });
    found.push(
      ['/account/email', account.email],
      ['/account/mobile', account.mobile],
      ['/account/signIn/active/pointer', account.signIn.active.pointer],
      ['/account/group', account.group],
      ['/account/accessUnits', account.accessUnits],
      ['/account/security/forcePasswordChange', account.security.forcePasswordChange],
      ['/account/security/forceTotp', account.security.forceTotp],
    );
    if (account.service) found.push(['/account/service/pointer', account.service.pointer]);
    for (const [channel, field] of Object.entries(account.confirmationCodes ?? {}))
      found.push([`/account/confirmationCodes/${channel}`, field]);
    for (const name of ['userType', 'identityType'] as const) {
      const typed = account[name];
      if (!typed) continue;
      found.push([`/account/${name}/pointer`, typed.pointer]);
      for (const [check, field] of Object.entries(typed.checks))
        found.push([`/account/${name}/checks/${check}`, field]);
    }
  }
  if (userGroup)
    for (const name of ['parent', 'accessUnits', 'passwordPolicy'] as const)
      found.push([`/userGroup/${name}`, userGroup[name]]);
  if (userGroup) found.push(['/userGroup/inactive/pointer', userGroup.inactive.pointer]);
  if (passwordPolicy) found.push(['/passwordPolicy/rules', passwordPolicy.rules]);
  if (accessUnit) found.push(['/accessUnit/roles', accessUnit.roles]);
  return found;
}

/**
 * Whether a data pointer names a property of the schema: followed through `properties`, the
 * branches of conditionals and combinators (`then`, `else`, `allOf`, `anyOf`, `oneOf`), and
 * an array's `items` for a numeric segment.
 */
export function schemaHasField(schema: JsonSchema, pointer: string): boolean {
  return nodesAt(schema, pointer).length > 0;
}

/** The schema nodes a data pointer leads to, as `schemaHasField` follows it. */
export function nodesAt(schema: JsonSchema, pointer: string): JsonSchema[] {
  let nodes: JsonSchema[] = [schema];
  for (const segment of pointer.split('/').slice(1)) {
    nodes = nodes.flatMap(alternatives).flatMap((node) => {
      const property = propertiesOf(node)[segment];
      if (property) return [property];
      const items = node.items as JsonSchema | undefined;
      return /^\d+$/.test(segment) && items && typeof items === 'object' ? [items] : [];
    });
    if (nodes.length === 0) return [];
  }
  return nodes;
}

/** A schema node and the nodes its conditionals and combinators may add properties from. */
export function alternatives(node: JsonSchema): JsonSchema[] {
  const conditional = [node.then, node.else].filter(isNode);
  const combined = [node.allOf, node.anyOf, node.oneOf].flatMap((list) =>
    Array.isArray(list) ? list : [],
  );
  return [node, ...([...conditional, ...combined] as JsonSchema[]).flatMap(alternatives)];
}

export const propertiesOf = (schema: JsonSchema | undefined) =>
  (schema?.properties ?? {}) as Record<string, JsonSchema>;

export const isPointer = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('/');

/** The schema at a data pointer of plain names, through `properties` only. */
export function schemaAt(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const segment of pointer.split('/').slice(1)) node = propertiesOf(node)[segment];
  return node;
}

/** The items' schema of the list at `pointer` (as `schemaAt` finds it), when it is one. */
export function itemsAt(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  const items = schemaAt(schema, pointer)?.items;
  return isNode(items) ? (items as JsonSchema) : undefined;
}
