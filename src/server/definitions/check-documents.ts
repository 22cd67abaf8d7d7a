import { isNode } from '../../core/definitions/json';
import type { CatalogDefinition, EntityDefinition, JsonSchema } from '../../core/definitions/types';
import { documentParam } from '../../core/documents/document-route';
import {
  declaredAction,
  type WorkflowDefinition,
  type WorkflowFeeSource,
} from '../../core/documents/workflow';
import { lookup, type Language, type TextTree } from '../../core/i18n/translate';
import { TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import { unknownRules } from '../../core/rules/registry';
import { sectionOfPath } from '../../core/rules/sections';
import type { Implementations } from '../implementations';
import {
  reporter,
  reportUnknown,
  said,
  schemaFile,
  workflowFile,
  type Report,
  type SaidProblem,
} from './problems';
import { crossCheckDashboard } from '../dashboard/check-definitions';
import { NAVIGATION_TEXTS } from '../../core/definitions/parts';
import { checkRecordDeclarations, itemsAt, schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';

/**
 * What a meta-schema cannot express: sections are the schema's properties, fields have labels,
 * named rules, guards and effects exist, a machine names only existing actions and statuses.
 */
export function crossCheckEntity(
  entity: EntityDefinition,
  translations: Partial<Record<Language, TextTree>>,
  problems: SaidProblem[],
  implementations: Pick<Implementations, 'serverRules'>,
): void {
  const report = reporter(problems, schemaFile(entity.id));
  const properties = Object.keys((entity.schema.properties ?? {}) as object);
  const sections = entity.sections.map((s) => s.id);
  sections.forEach((id, i) => {
    if (!properties.includes(id))
      report(`/sections/${i}/id`, said('sectionNotInSchema', { section: id }));
  });
  const required = Array.isArray(entity.schema.required) ? entity.schema.required : [];
  entity.sections.forEach((section, i) => {
    if (!section.when) return;
    // A section that may not apply cannot be required of every document: its own fields are.
    if (required.includes(section.id))
      report(`/sections/${i}/when`, said('sometimesSectionRequired', { section: section.id }));
    const decider = sectionOfPath(section.when.pointer);
    if (!properties.includes(decider) || decider === section.id)
      report(
        `/sections/${i}/when/pointer`,
        said('sectionConditionOutside', { pointer: section.when.pointer }),
      );
  });
  for (const property of properties)
    if (!sections.includes(property))
      report(`/schema/properties/${property}`, said('propertyWithoutSection', { property }));
  const rules = entity.rules ?? [];
  const unknown = [
    ...unknownRules(rules),
    ...rules.filter((use) => use.server && !implementations.serverRules.has(use.rule)),
  ];
  for (const use of unknown)
    report(`/rules/${rules.indexOf(use)}/rule`, said('unknownRule', { rule: use.rule }));
  for (const [language, tree] of Object.entries(translations) as Array<[Language, TextTree]>) {
    const reportText = reporter(problems, `translations/${language}/${entity.id}.json`);
    for (const path of fieldPaths(entity.schema, entity.uiSchema)) {
      const key = `${entity.id}.${path}`;
      if (lookup(tree, key) === undefined && lookup(tree, `${key}._`) === undefined)
        reportText(`/${path.replaceAll('.', '/')}`, said('missingLabel', { path }));
    }
  }
}

/**
 * Dotted paths of every property (items' under their array's path). A field drawn by a widget of
 * its own (`ui:widget`, `ui:field`) needs no labels inside, nor does `i18n`.
 */
function fieldPaths(schema: JsonSchema, uiSchema: JsonSchema | undefined): string[] {
  const paths: string[] = [];
  const visit = (node: JsonSchema, ui: JsonSchema | undefined, path: string) => {
    if (path && ui && (ui['ui:widget'] !== undefined || ui['ui:field'] !== undefined)) return;
    const properties = node.properties as Record<string, JsonSchema> | undefined;
    for (const [name, child] of Object.entries(properties ?? {})) {
      // The translations of an item's copied texts are those texts, labelled as they are.
      if (name === TRANSLATIONS_FIELD) continue;
      const childPath = path ? `${path}.${name}` : name;
      paths.push(childPath);
      visit(child, ui?.[name] as JsonSchema | undefined, childPath);
    }
    if (isNode(node.items))
      visit(node.items as JsonSchema, ui?.items as JsonSchema | undefined, path);
    for (const keyword of ['then', 'else']) {
      const branch = node[keyword] as JsonSchema | undefined;
      if (branch && typeof branch === 'object') visit(branch, ui, path);
    }
  };
  visit(schema, uiSchema, '');
  return [...new Set(paths)];
}

type Transition = string | { target?: string; guard?: string | { type: string } };

export function crossCheckWorkflow(
  scope: WorkflowScope,
  implementations: Pick<Implementations, 'effects' | 'deriving' | 'guards' | 'backends'>,
): void {
  const { workflow, entity, schemas: entities, report } = scope;
  const { guards, effects, deriving, backends } = implementations;
  if (workflow.backend !== undefined && !backends.has(workflow.backend))
    report(
      '/backend',
      said('unservedBackend', { backend: workflow.backend, served: [...backends].join(', ') }),
    );
  if (!entity) report('/document', said('noSchema', { missingDefinition: workflow.document }));
  const sections = new Set(entity?.sections.map((s) => s.id) ?? []);
  const statuses = new Set(Object.keys(workflow.machine.states));
  const actions = new Set(Object.keys(workflow.actions));
  const noSection = (name: string) => said('noSection', { section: name });
  const noStatus = (name: string) => said('noStatus', { status: name });
  const noAction = (name: string) => said('noAction', { action: name });
  const noEffect = (name: string) => said('unknownEffect', { effect: name });
  const used = new Set<string>();

  for (const [status, state] of Object.entries(workflow.machine.states)) {
    const on = (state as { on?: Record<string, Transition | Transition[]> }).on ?? {};
    for (const [event, transitions] of Object.entries(on)) {
      const pointer = `/machine/states/${status}/on/${event}`;
      used.add(event);
      if (!actions.has(event)) report(pointer, said('eventNotAction', { event }));
      for (const transition of Array.isArray(transitions) ? transitions : [transitions]) {
        const target = typeof transition === 'string' ? transition : transition.target;
        if (target !== undefined && !statuses.has(target))
          report(pointer, said('unknownTarget', { target }));
        const guard = typeof transition === 'object' ? transition.guard : undefined;
        const guardName = typeof guard === 'string' ? guard : guard?.type;
        if (guardName && !guards.has(guardName))
          report(
            pointer,
            said('unknownGuard', { guard: guardName, guards: [...guards.keys()].join(', ') }),
          );
      }
    }
  }
  // A timer's action is taken when the timer fires (check-timers.ts checks it is a system one).
  for (const timer of Object.values(workflow.timers ?? {})) used.add(timer.action);
  for (const [name, action] of Object.entries(workflow.actions)) {
    const at = `/actions/${name}`;
    if (!used.has(name)) report(at, said('unusedAction', { action: name }));
    for (const list of ['effects', 'before'] as const)
      reportUnknown(report, action[list], `${at}/${list}`, effects, noEffect);
    reportUnknown(report, action.editable, `${at}/editable`, sections, noSection);
  }
  reportUnknown(report, workflow.derive?.effects, '/derive/effects', deriving, (effect) =>
    said('notDerivingEffect', { effect }),
  );
  for (const [from, to] of Object.entries(workflow.statusMoves ?? {})) {
    const pointer = `/statusMoves/${from}`;
    if (statuses.has(from)) report(pointer, said('movedStatusExists', { status: from }));
    if (!statuses.has(to)) report(pointer, noStatus(to));
  }
  reportUnknown(
    report,
    workflow.certificate?.statuses,
    '/certificate/statuses',
    statuses,
    noStatus,
  );
  workflow.screens.forEach((screen, i) => {
    const at = `/screens/${i}`;
    const param = documentParam(screen.path);
    if (param && param !== 'id' && !workflow.key)
      report(`${at}/path`, said('keyParamWithoutKey', { param }));
    for (const pointer of Object.keys(screen.prefill ?? {}))
      if (entity && !schemaHasField(entity.schema, pointer))
        report(`${at}/prefill`, said('noField', { field: pointer }));
    reportUnknown(report, screen.actions, `${at}/actions`, actions, noAction);
    // An action the screen takes as it opens (a message becomes READ): misspelt, it never runs.
    if (screen.fire !== undefined && !actions.has(screen.fire))
      report(`${at}/fire`, said('unknownFireAction', { action: screen.fire }));
    // `open`: the sections the screen opens on; `showNotesOf`: actions that take notes (one
    // without notes would show nothing, silently).
    if (typeof screen.open === 'string' && !sections.has(screen.open))
      report(`${at}/open`, noSection(screen.open));
    reportUnknown(report, screen.open, `${at}/open`, sections, noSection);
    (screen.showNotesOf ?? []).forEach((name, j) => {
      const action = declaredAction(workflow, name);
      if (!action) report(`${at}/showNotesOf/${j}`, noAction(name));
      else if (!action.notes)
        report(`${at}/showNotesOf/${j}`, said('actionTakesNoNotes', { action: name }));
    });
    for (const key of ['editable', 'hidden'] as const)
      reportUnknown(report, screen[key], `${at}/${key}`, sections, noSection);
  });
  workflow.lists.forEach((list, i) => {
    reportUnknown(report, list.status, `/lists/${i}/status`, statuses, noStatus);
    if (!workflow.screens.some((s) => s.path === list.open))
      report(`/lists/${i}/open`, said('noScreen', { screen: list.open }));
    for (const key of ['label', 'title'] as const) {
      const text = list[key];
      if (text === undefined) continue;
      const [owner, group] = text.split('.');
      // A document's own texts reach other pages (the dashboard, the menu) only in part.
      if (owner && group && entities.some((e) => e.id === owner) && !isNavigationText(group))
        report(`/lists/${i}/${key}`, said('listTextNotShared', { text, owner }));
    }
  });
  crossCheckDashboard(workflow, entity, scope.problems);
  checkRecordDeclarations(scope);
}

function isNavigationText(group: string): boolean {
  return (NAVIGATION_TEXTS as readonly string[]).includes(group);
}

/**
 * Fee sources name existing catalogues and fields (flags boolean, amounts numbers), the payers'
 * catalogue keyed by one field: a misspelt field would otherwise charge nothing, silently.
 */
export function checkPaymentSources(
  workflow: WorkflowDefinition,
  catalogs: readonly Pick<CatalogDefinition, 'id' | 'key' | 'schema'>[],
  problems: SaidProblem[],
  schema?: JsonSchema,
): void {
  const report = reporter(problems, workflowFile(workflow.id));
  const byId = new Map(catalogs.map((catalog) => [catalog.id, catalog]));
  const checkFields = (
    catalogId: string,
    fields: ReadonlyArray<readonly [pointer: string, field: string, type?: string]>,
  ) => {
    const catalog = byId.get(catalogId);
    if (!catalog) return;
    const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [pointer, field, type] of fields) {
      if (!Object.hasOwn(properties, field))
        report(pointer, said('catalogueHasNoField', { catalogue: catalogId, field }));
      else if (type && properties[field]?.type !== type)
        report(pointer, said('catalogueFieldType', { field, catalogue: catalogId, type }));
    }
  };
  const known = (catalogId: string, pointer: string) => {
    if (byId.has(catalogId)) return true;
    report(pointer, said('noCatalogue', { missingDefinition: catalogId }));
    return false;
  };
  (workflow.payment?.sources ?? []).forEach((source, i) => {
    const at = `/payment/sources/${i}`;
    if (known(source.catalog, `${at}/catalog`))
      checkFields(source.catalog, [
        [`${at}/match/field`, source.match.field],
        ...source.when.map((f, j) => [`${at}/when/${j}`, f, 'boolean'] as const),
        ...source.amounts.map((f, j) => [`${at}/amounts/${j}`, f, 'number'] as const),
        [`${at}/code`, source.code],
        [`${at}/name`, source.name],
        ...(source.refundableUntil
          ? [[`${at}/refundableUntil`, source.refundableUntil, 'string'] as const]
          : []),
      ]);
    const payers = source.payers;
    if (schema) checkNarrations(schema, source, at, report);
    if (!payers || !known(payers.catalog, `${at}/payers/catalog`)) return;
    const keyFields = byId.get(payers.catalog)?.key ?? [];
    if (keyFields.length !== 1)
      report(
        `${at}/payers/catalog`,
        said('payersKeyNotSingle', { catalogue: payers.catalog, count: keyFields.length }),
      );
    checkFields(payers.catalog, [
      ...(payers.once?.flags ?? []).map(
        (f, j) => [`${at}/payers/once/flags/${j}`, f, 'boolean'] as const,
      ),
      ...(payers.people ?? []).flatMap((group, k) =>
        group.flags.map((f, j) => [`${at}/payers/people/${k}/flags/${j}`, f, 'boolean'] as const),
      ),
    ]);
  });
}

/**
 * A fee line charged per person names them by fields of the list's items (`narration`): a field
 * the items do not have would name every line with nothing.
 */
function checkNarrations(
  schema: JsonSchema,
  source: WorkflowFeeSource,
  at: string,
  report: Report,
): void {
  (source.payers?.people ?? []).forEach((group, k) => {
    const items = itemsAt(schema, group.list);
    // A list that is no field is reported by the references' check.
    if (!items) return;
    group.narration.forEach((fields, j) =>
      fields.forEach((field, f) => {
        if (!schemaHasField(items, `/${field}`))
          report(
            `${at}/payers/people/${k}/narration/${j}/${f}`,
            said('itemsHaveNoField', { list: group.list, field }),
          );
      }),
    );
  });
}
