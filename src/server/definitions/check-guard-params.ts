import { escapeSegment } from '../../core/rules/registry';
import type { Implementations } from '../implementations';
import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/** A transition as the machine states it: a target, or an object that may name a guard. */
type Transition = string | { guard?: string | { type?: unknown; params?: unknown } };

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
  for (const [status, state] of Object.entries(workflow.machine.states)) {
    const on = (state as { on?: Record<string, Transition | Transition[]> }).on ?? {};
    for (const [event, transitions] of Object.entries(on)) {
      const list = Array.isArray(transitions) ? transitions : [transitions];
      list.forEach((transition, index) => {
        if (typeof transition === 'string' || typeof transition.guard !== 'object') return;
        const { type, params } = transition.guard;
        if (typeof type !== 'string' || !implementations.guards.has(type)) return;
        const at = [
          `/machine/states/${escapeSegment(status)}/on/${escapeSegment(event)}`,
          ...(Array.isArray(transitions) ? [String(index)] : []),
          'guard',
        ].join('/');
        const given =
          params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
        const declared = implementations.guardParameters.get(type);
        if (!declared) {
          const engines = implementations.owners.guard.get(type) === 'engine';
          if (engines && Object.keys(given).length > 0)
            report(`${at}/params`, said('guardReadsNoParameters', { guard: type }));
          return;
        }
        for (const name of Object.keys(given))
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
          const value = given[name];
          if (value === undefined) {
            if (required)
              report(
                `${at}/params`,
                said('guardMissingParameter', { guard: type, parameter: name }),
              );
            continue;
          }
          const where = `${at}/params/${escapeSegment(name)}`;
          if (kind === 'status' && (typeof value !== 'string' || !statuses.has(value)))
            report(
              where,
              said('guardParameterNotStatus', {
                guard: type,
                parameter: name,
                value: String(value),
              }),
            );
          if (
            kind === 'pointer' &&
            (typeof value !== 'string' ||
              !value.startsWith('/') ||
              (entity !== undefined && !schemaHasField(entity.schema, value)))
          )
            report(
              where,
              said('guardParameterNotField', {
                guard: type,
                parameter: name,
                value: String(value),
              }),
            );
        }
      });
    }
  }
}
