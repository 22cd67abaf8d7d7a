import { machineTransitions } from '../../core/definitions/stately';
import { escapeSegment } from '../../core/rules/registry';
import type { Implementations } from '../implementations';
import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * A guard is given the parameters it reads (GuardParameters, declared beside the guard by the
 * engine or its module): none it does not read, every one it needs, a status of the machine
 * where it reads a status, a field of the document where it reads a pointer. Misspelt, a
 * parameter would only show as a button that never appears. An engine guard declaring none
 * reads none; a module's guard declaring none is not checked (its module did not say).
 */
export function checkGuardParameters(
  { workflow, entity, report }: WorkflowScope,
  implementations: Pick<Implementations, 'guards' | 'guardParameters' | 'owners'>,
): void {
  const statuses = new Set(Object.keys(workflow.machine.states));
  for (const { from, action, guard, alternative } of machineTransitions(workflow.machine)) {
    if (typeof guard !== 'object' || !implementations.guards.has(guard.type)) continue;
    const { type, params = {} } = guard;
    const at = [
      `/machine/states/${escapeSegment(from)}/on/${escapeSegment(action)}`,
      ...(alternative === undefined ? [] : [String(alternative)]),
      'guard',
    ].join('/');
    const declared = implementations.guardParameters.get(type);
    if (!declared) {
      const engines = implementations.owners.guard.get(type) === 'engine';
      if (engines && Object.keys(params).length > 0)
        report(`${at}/params`, said('guardReadsNoParameters', { guard: type }));
      continue;
    }
    for (const name of Object.keys(params))
      if (!Object.hasOwn(declared, name))
        report(
          `${at}/params/${escapeSegment(name)}`,
          said('guardUnknownParameter', {
            guard: type,
            parameter: name,
            parameters: Object.keys(declared).join(', '),
          }),
        );
    for (const [name, { kind, required }] of Object.entries(declared)) {
      const value = params[name];
      if (value === undefined) {
        if (required)
          report(`${at}/params`, said('guardMissingParameter', { guard: type, parameter: name }));
        continue;
      }
      const where = `${at}/params/${escapeSegment(name)}`;
      const named = { guard: type, parameter: name, value: String(value) };
      if (kind === 'status' && (typeof value !== 'string' || !statuses.has(value)))
        report(where, said('guardParameterNotStatus', named));
      const field =
        typeof value === 'string' &&
        value.startsWith('/') &&
        (entity === undefined || schemaHasField(entity.schema, value));
      if (kind === 'pointer' && !field) report(where, said('guardParameterNotField', named));
    }
  }
}
