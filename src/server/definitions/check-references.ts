import { catalogFieldsOf } from '../../core/definitions/catalog-fields';
import { documentChoiceFieldsOf } from '../../core/definitions/document-choices';
import type {
  CatalogDefinition,
  EntityDefinition,
  JsonSchema,
  WorkflowDefinition,
} from '../../core/definitions/types';
import { escapeSegment } from '../../core/rules/registry';
import type { RuleUse } from '../../core/rules/types';
import { LANGUAGES, lookup, type Language, type TextTree } from '../../core/i18n/translate';
import { isPointer, itemsAt, propertiesOf, schemaHasField } from './check-records';
import { checkFieldConditions } from './check-conditions';
import { checkRuleParams } from './check-rule-params';
import { checkWidgetOptions } from './check-widgets';
import {
  reporter,
  said,
  schemaFile,
  workflowFile,
  type ProblemText,
  type Report,
  type SaidProblem,
} from './problems';
import type { Reference } from './references';

/** What the reference checks look names up in: every definition that loaded. */
export interface NameScope {
  catalogs: readonly CatalogDefinition[];
  schemas: readonly EntityDefinition[];
  /** The workflows of the modules switched on. */
  workflows: readonly WorkflowDefinition[];
  /** Every workflow declared, in a module switched on or off. */
  declared: readonly WorkflowDefinition[];
  translations: Partial<Record<Language, TextTree>>;
  /** File -> what its values name, collected by the meta-schema check (references.ts). */
  references: ReadonlyMap<string, readonly Reference[]>;
}

/** What a workflow's checks read: the workflow, its document's entity if loaded, and the rest. */
export interface WorkflowScope extends NameScope {
  workflow: WorkflowDefinition;
  entity: EntityDefinition | undefined;
  /** Reports a problem in the workflow's file. */
  report: Report;
  problems: SaidProblem[];
}

/**
 * Every name a definition gives leads somewhere (texts, fields, catalogues, document types), or
 * it would show only in use. A place that already has a problem of its own is not reported again.
 */
export function checkNamedReferences(loaded: NameScope, problems: SaidProblem[]): void {
  const place = (problem: SaidProblem) => `${problem.file}#${problem.pointer}`;
  const reported = new Set(problems.map(place));
  const found: SaidProblem[] = [];
  for (const [file, references] of loaded.references) {
    const schema = schemaOfFile(file, loaded);
    for (const reference of references)
      checkReference(file, reference, schema, loaded, reporter(found, file));
  }
  for (const entity of loaded.schemas) {
    const report = reporter(found, schemaFile(entity.id));
    checkRules(entity, loaded, report);
    checkRuleParams(entity, loaded, report);
    checkUiSchema(entity, loaded, report);
    checkWidgetOptions(entity, loaded, report);
    checkFieldConditions(entity, report);
  }
  for (const workflow of loaded.workflows) {
    const report = reporter(found, workflowFile(workflow.id));
    checkWorkflowTexts(workflow, loaded.translations, report);
    checkCertificateItems(workflow, loaded, report);
  }
  problems.push(...found.filter((problem) => !reported.has(place(problem))));
}

/** The id of a schema's file, or of a workflow's. */
const schemaIdOf = (file: string) => /^schemas\/(.+)\.schema\.json$/.exec(file)?.[1];
const workflowIdOf = (file: string) => /^workflows\/(.+)\.json$/.exec(file)?.[1];

/** The schema a file's own pointers name fields of: its own, or its workflow's document's. */
function schemaOfFile(file: string, loaded: NameScope): JsonSchema | undefined {
  const workflow = loaded.workflows.find((candidate) => candidate.id === workflowIdOf(file));
  const id = schemaIdOf(file) ?? workflow?.document;
  return loaded.schemas.find((entity) => entity.id === id)?.schema;
}

function checkReference(
  file: string,
  reference: Reference,
  schema: JsonSchema | undefined,
  loaded: NameScope,
  report: Report,
): void {
  const { at: pointer, value } = reference;
  switch (reference.kind) {
    case 'text':
      return reportTexts(report, pointer, value, loaded.translations);
    case 'count':
      for (const suffix of COUNT_SUFFIXES)
        reportTexts(report, pointer, `${value}${suffix}`, loaded.translations);
      return;
    case 'pointer':
      // A workflow of a module switched off, or a schema file that failed, has no schema here.
      if (schema && !schemaHasField(schema, value))
        report(pointer, said('noFieldInDocumentSchema', { field: value }));
      return;
    case 'catalog':
      if (!loaded.catalogs.some((catalog) => catalog.id === value))
        report(pointer, said('noCatalogue', { missingDefinition: value }));
      return;
    case 'document': {
      const problem = documentTypeProblem(value, inUse(file, loaded), loaded);
      if (problem) report(pointer, problem);
      return;
    }
  }
}

function reportTexts(
  report: Report,
  pointer: string,
  key: string,
  translations: Partial<Record<Language, TextTree>>,
): void {
  for (const problem of textProblems(key, translations)) report(pointer, problem);
}

/** The texts a count names: pluralised ("2 accounts"), and beyond what was counted. */
export const COUNT_SUFFIXES = ['_one', '_other', 'More_one', 'More_other'] as const;

/**
 * Why `type` cannot be the document type a definition names: no workflow declares it, or its
 * module is switched off while the definition naming it is in use.
 */
function documentTypeProblem(
  type: string,
  used: boolean,
  loaded: NameScope,
): ProblemText | undefined {
  if (!loaded.declared.some((workflow) => workflow.id === type))
    return said('noDocumentType', { missingDefinition: type });
  if (used && !loaded.workflows.some((workflow) => workflow.id === type))
    return said('documentTypeSwitchedOff', { type });
  return undefined;
}

/** Whether a file's definition is in use: a workflow switched on, or the schema of one. */
function inUse(file: string, loaded: NameScope): boolean {
  const workflowId = workflowIdOf(file);
  if (workflowId) return loaded.workflows.some((workflow) => workflow.id === workflowId);
  return loaded.workflows.some((workflow) => workflow.document === schemaIdOf(file));
}

/**
 * Why `key` is not a text in each language: missing, or naming a group of texts (a field's
 * `{"_": label, "help": ...}`, which i18next shows as "returned an object instead of string").
 */
export function textProblems(
  key: string,
  translations: Partial<Record<Language, TextTree>>,
): ProblemText[] {
  const problems: ProblemText[] = [];
  for (const language of LANGUAGES) {
    const tree = translations[language];
    if (!tree || lookup(tree, key) !== undefined) continue;
    problems.push(
      said(lookup(tree, `${key}._`) !== undefined ? 'textIsGroup' : 'noText', { key, language }),
    );
  }
  return problems;
}

/**
 * What every workflow shows by name without declaring a key: its statuses (`statuses.<STATUS>`)
 * on every badge, list and timeline, and its actions (`actions.<action>`) on buttons and in the
 * history. A system action (the server's own, never a button) still shows in the history.
 */
function checkWorkflowTexts(
  workflow: WorkflowDefinition,
  translations: Partial<Record<Language, TextTree>>,
  report: Report,
): void {
  for (const status of Object.keys(workflow.machine.states))
    reportTexts(report, `/machine/states/${status}`, `statuses.${status}`, translations);
  for (const action of Object.keys(workflow.actions))
    reportTexts(report, `/actions/${action}`, `actions.${action}`, translations);
}

/**
 * A certificate's list field prints, of each item of the list at `pointer`, the value at `each`
 * or a table of `columns`: those pointers are within the items.
 */
function checkCertificateItems(
  workflow: WorkflowDefinition,
  loaded: NameScope,
  report: Report,
): void {
  const schema = loaded.schemas.find((entity) => entity.id === workflow.document)?.schema;
  if (!schema) return;
  (workflow.certificate?.fields ?? []).forEach((field, i) => {
    const items = itemsAt(schema, field.pointer);
    const at = `/certificate/fields/${i}`;
    const within = [
      ...(field.each ? [[`${at}/each`, field.each] as const] : []),
      ...(field.columns ?? []).map((column, j) => [`${at}/columns/${j}/pointer`, column.pointer]),
    ];
    for (const [pointer, value] of within) {
      if (!items) report(pointer, said('notAListInDocumentSchema', { list: field.pointer }));
      else if (!schemaHasField(items, value))
        report(pointer, said('noFieldInItems', { field: value, list: field.pointer }));
    }
  });
}

/**
 * A rule's pointer parameters name fields of the document, or of `documentType`'s schema; `fills`
 * maps own fields to that type's; plain `field` and `when` are properties of the items at `path`.
 */
function checkRules(entity: EntityDefinition, loaded: NameScope, report: Report): void {
  (entity.rules ?? []).forEach((use: RuleUse, index) => {
    const at = `/rules/${index}`;
    const type = typeof use.documentType === 'string' ? use.documentType : undefined;
    const document = loaded.declared.find((workflow) => workflow.id === type)?.document;
    const target =
      type === undefined
        ? entity.schema
        : loaded.schemas.find((schema) => schema.id === document)?.schema;
    const notInOwn = (field: string) => said('noFieldInDocumentSchema', { field });
    const notInTarget = (field: string) =>
      type === undefined ? notInOwn(field) : said('noFieldInTypeSchema', { field, type });
    const checkPointer = (
      pointer: string,
      place: string,
      schema = target,
      noField = notInTarget,
    ) => {
      if (schema && !schemaHasField(schema, pointer)) report(place, noField(pointer));
    };
    for (const [param, value] of Object.entries(use)) {
      if (param === 'path' || param === 'fills') continue;
      if (isPointer(value)) checkPointer(value, `${at}/${param}`);
      if (Array.isArray(value))
        value.forEach((item, i) => isPointer(item) && checkPointer(item, `${at}/${param}/${i}`));
    }
    if (use.fills && typeof use.fills === 'object')
      for (const [own, sources] of Object.entries(use.fills as Record<string, unknown>)) {
        const place = `${at}/fills/${escapeSegment(own)}`;
        checkPointer(own, place, entity.schema, notInOwn);
        if (!Array.isArray(sources)) continue;
        sources.forEach((source, i) => {
          if (typeof source !== 'string') return;
          for (const pointer of source.split(/\s+/).filter(isPointer))
            checkPointer(pointer, `${place}/${i}`);
        });
      }
    const items = itemsAt(entity.schema, use.path);
    for (const param of ['field', 'when'] as const) {
      const name = use[param];
      if (typeof name !== 'string' || isPointer(name) || !items) continue;
      if (!schemaHasField(items, `/${name}`))
        report(`${at}/${param}`, said('noFieldInItems', { field: name, list: use.path }));
    }
  });
}

/**
 * The form's own names, in the uiSchema: a catalogue select names a catalogue (and, in
 * `match`, that catalogue's fields and the document's pointers); a document choice names a
 * document type and pointers of its schema; every message named is a text.
 */
function checkUiSchema(entity: EntityDefinition, loaded: NameScope, report: Report): void {
  const file = schemaFile(entity.id);
  const uiPointer = (segments: string[], ...rest: string[]) =>
    `/uiSchema/${[...segments.map((s) => (s === '*' ? 'items' : s)), ...rest].join('/')}`;
  for (const field of catalogFieldsOf(entity)) {
    const at = uiPointer(field.segments, 'ui:options');
    const catalog = loaded.catalogs.find((candidate) => candidate.id === field.catalog);
    if (!catalog) {
      report(`${at}/catalog`, said('noCatalogue', { missingDefinition: field.catalog }));
      continue;
    }
    const fields = propertiesOf(catalog.schema);
    const noField = (entryField: string) =>
      report(
        `${at}/match/${entryField}`,
        said('catalogueHasNoField', { catalogue: catalog.id, field: entryField }),
      );
    for (const [entryField, pointer] of field.match) {
      if (!Object.hasOwn(fields, entryField)) noField(entryField);
      else if (!schemaHasField(entity.schema, pointer))
        report(`${at}/match/${entryField}`, said('noFieldInDocumentSchema', { field: pointer }));
    }
    for (const [entryField] of field.allowed)
      if (!Object.hasOwn(fields, entryField)) noField(entryField);
    reportTexts(report, `${at}/matchMessage`, field.matchMessage, loaded.translations);
  }
  for (const field of documentChoiceFieldsOf(entity)) {
    const segments = field.many ? field.segments.slice(0, -1) : field.segments;
    const at = uiPointer(segments, 'ui:options');
    const problem = documentTypeProblem(field.document, inUse(file, loaded), loaded);
    if (problem) {
      report(`${at}/document`, problem);
      continue;
    }
    const workflow = loaded.declared.find((candidate) => candidate.id === field.document);
    const schema = loaded.schemas.find((candidate) => candidate.id === workflow?.document);
    if (!schema) continue;
    for (const key of ['code', 'label'] as const) {
      const pointer = field[key];
      if (pointer !== undefined && !schemaHasField(schema.schema, pointer))
        report(
          `${at}/${key}`,
          said('noFieldInTypeSchema', { field: pointer, type: field.document }),
        );
    }
    reportTexts(report, `${at}/unknownMessage`, field.unknownMessage, loaded.translations);
  }
}
