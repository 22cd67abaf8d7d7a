import type { EntityDefinition } from '../../core/definitions/types';
import type { NameScope } from './check-references';
import type { Report } from './problems';

/**
 * The parameters the engine's server rules (src/server/documents/server-rules.ts) cannot do
 * without: missing, the rule fails every value it is given, refusing every submission with a
 * message that cannot say why. What each parameter is, as the problem explains it.
 */
const NEEDED_PARAMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  catalogEntryExists: { catalog: 'the id of the catalogue whose entries the value names' },
  documentReference: {
    documentType: 'the document type (a workflow id) whose documents the value names',
    status: 'the list of statuses the named document must be in',
  },
};

/** The rule whose value names a catalogue entry by its key, as the catalogue's finder keys it. */
const NAMES_ENTRY_BY_KEY = 'catalogEntryExists';

/**
 * A rule's parameters naming a catalogue or statuses lead somewhere: `catalog` is a catalogue
 * (keyed by one field when the value names an entry), `status` of a rule about `documentType`
 * lists statuses of that type's machine. Pointers and document types are checked with every
 * other name (check-references.ts).
 */
export function checkRuleParams(entity: EntityDefinition, loaded: NameScope, report: Report): void {
  (entity.rules ?? []).forEach((use, index) => {
    const at = `/rules/${index}`;
    for (const [param, meaning] of Object.entries(NEEDED_PARAMS[use.rule] ?? {}))
      if (use[param] === undefined)
        report(
          at,
          `rule "${use.rule}" needs "${param}", ${meaning}: without it every value fails the rule`,
        );
    if (use.catalog !== undefined) {
      const name = use.catalog;
      const catalog = loaded.catalogs.find((candidate) => candidate.id === name);
      if (typeof name !== 'string')
        report(`${at}/catalog`, '"catalog" names a catalogue by its id, a text');
      else if (!catalog) report(`${at}/catalog`, `no catalogue "${name}" in catalogs/`);
      else if (use.rule === NAMES_ENTRY_BY_KEY && catalog.key.length !== 1)
        report(
          `${at}/catalog`,
          `catalogue "${name}" has a key of ${catalog.key.length} fields (${catalog.key.join(', ')}); a value names an entry by a single key field: name a catalogue keyed by one field`,
        );
    }
    checkStatuses(use.documentType, use.status, at, loaded, report);
  });
}

/** `status` of a rule about another document type: statuses of that type's machine. */
function checkStatuses(
  type: unknown,
  statuses: unknown,
  at: string,
  loaded: NameScope,
  report: Report,
): void {
  if (statuses === undefined || typeof type !== 'string') return;
  // A document type that does not exist is reported by the references' check.
  const workflow = loaded.declared.find((candidate) => candidate.id === type);
  if (!workflow) return;
  if (!Array.isArray(statuses)) {
    report(`${at}/status`, `"status" is a list of statuses of "${type}", such as ["GRANTED"]`);
    return;
  }
  statuses.forEach((status, i) => {
    if (typeof status !== 'string' || !Object.hasOwn(workflow.machine.states, status))
      report(
        `${at}/status/${i}`,
        `no status ${JSON.stringify(status)} in the machine of "${type}", so no document of it would ever be accepted: name one of its statuses`,
      );
  });
}
