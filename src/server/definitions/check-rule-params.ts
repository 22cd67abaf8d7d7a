import type { EntityDefinition } from '../../core/definitions/types';
import type { NameScope } from './check-references';
import { regExpOf } from '../../core/rules/registry';
import { said, type Report } from './problems';

/**
 * The parameters the engine's server rules (src/server/documents/server-rules.ts) cannot do
 * without: missing, the rule fails every value it is given, refusing every submission with a
 * message that cannot say why. The checker text saying each missing, explaining what it is.
 */
const NEEDED_PARAMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  catalogEntryExists: { catalog: 'ruleNeedsCatalog' },
  documentReference: { documentType: 'ruleNeedsDocumentType', status: 'ruleNeedsStatus' },
  matches: { pattern: 'ruleNeedsPattern' },
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
    for (const [param, key] of Object.entries(NEEDED_PARAMS[use.rule] ?? {}))
      if (use[param] === undefined) report(at, said(key, { rule: use.rule }));
    if (use.catalog !== undefined) {
      const name = use.catalog;
      const catalog = loaded.catalogs.find((candidate) => candidate.id === name);
      if (typeof name !== 'string') report(`${at}/catalog`, said('catalogParamNotText'));
      else if (!catalog) report(`${at}/catalog`, said('noCatalogue', { missingDefinition: name }));
      else if (use.rule === NAMES_ENTRY_BY_KEY && catalog.key.length !== 1)
        report(
          `${at}/catalog`,
          said('ruleCatalogueKeyedBySeveral', {
            catalogue: name,
            size: catalog.key.length,
            fields: catalog.key.join(', '),
          }),
        );
    }
    checkStatuses(use.documentType, use.status, at, loaded, report);
    // A pattern the browser and server cannot compile would let every value through, unsaid.
    if (use.rule === 'matches' && use.pattern !== undefined)
      if (typeof use.pattern !== 'string' || !regExpOf(use.pattern))
        report(`${at}/pattern`, said('rulePatternInvalid', { pattern: String(use.pattern) }));
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
    report(`${at}/status`, said('statusParamNotList', { type }));
    return;
  }
  statuses.forEach((status, i) => {
    if (typeof status !== 'string' || !Object.hasOwn(workflow.machine.states, status))
      report(
        `${at}/status/${i}`,
        said('noStatusInMachine', { status: JSON.stringify(status), type }),
      );
  });
}
