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
import { LANGUAGES, type Language, type TextTree } from '../../core/i18n/translate';
import { schemaHasField } from './check-records';
import { checkFieldConditions } from './check-conditions';
import type { DefinitionProblem } from './problems';
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

/**
 * Every name a definition gives must lead somewhere: texts to texts in every language, pointers
 * to fields of the document's schema, catalogues and document types to loaded ones. Each
 * mistake here would otherwise show only in use: a raw key in a menu or on a button, a rule or
 * list column that silently reads nothing, a select that asks for a catalogue that is not there,
 * a reference the server can never resolve. A place that already has a problem of its own (a
 * more specific check spoke first) is not reported again.
 */
export function checkNamedReferences(loaded: NameScope, problems: DefinitionProblem[]): void {
  const reported = new Set(problems.map((problem) => `${problem.file}#${problem.pointer}`));
  const report = (problem: DefinitionProblem) => {
    const place = `${problem.file}#${problem.pointer}`;
    if (reported.has(place)) return;
    problems.push(problem);
  };
  const found: DefinitionProblem[] = [];
  const push = (problem: DefinitionProblem) => found.push(problem);
  for (const [file, references] of loaded.references) {
    const schema = schemaOfFile(file, loaded);
    for (const reference of references) checkReference(file, reference, schema, loaded, push);
  }
  for (const entity of loaded.schemas) {
    checkRules(entity, loaded, push);
    checkUiSchema(entity, loaded, push);
    checkFieldConditions(entity, push);
  }
  for (const workflow of loaded.workflows) {
    checkWorkflowTexts(workflow, loaded.translations, push);
    checkCertificateItems(workflow, loaded, push);
  }
  for (const problem of found) report(problem);
}

/** The schema a file's own pointers name fields of: its own, or its workflow's document's. */
function schemaOfFile(file: string, loaded: NameScope): JsonSchema | undefined {
  const schemaFile = /^schemas\/(.+)\.schema\.json$/.exec(file);
  if (schemaFile) return loaded.schemas.find((entity) => entity.id === schemaFile[1])?.schema;
  const workflowFile = /^workflows\/(.+)\.json$/.exec(file);
  if (!workflowFile) return undefined;
  const workflow = loaded.workflows.find((candidate) => candidate.id === workflowFile[1]);
  return loaded.schemas.find((entity) => entity.id === workflow?.document)?.schema;
}

function checkReference(
  file: string,
  reference: Reference,
  schema: JsonSchema | undefined,
  loaded: NameScope,
  push: (problem: DefinitionProblem) => void,
): void {
  const { at: pointer, value } = reference;
  switch (reference.kind) {
    case 'text':
      for (const message of textProblems(value, loaded.translations))
        push({ file, pointer, message });
      return;
    case 'count':
      for (const suffix of COUNT_SUFFIXES)
        for (const message of textProblems(`${value}${suffix}`, loaded.translations))
          push({ file, pointer, message });
      return;
    case 'pointer':
      // A workflow of a module switched off, or a schema file that failed, has no schema here.
      if (schema && !schemaHasField(schema, value))
        push({ file, pointer, message: `no field "${value}" in the document's schema` });
      return;
    case 'catalog':
      if (!loaded.catalogs.some((catalog) => catalog.id === value))
        push({ file, pointer, message: `no catalogue "${value}" in catalogs/` });
      return;
    case 'document': {
      const message = documentTypeProblem(value, inUse(file, loaded), loaded);
      if (message) push({ file, pointer, message });
      return;
    }
  }
}

/** The texts a count names: pluralised ("2 accounts"), and beyond what was counted. */
export const COUNT_SUFFIXES = ['_one', '_other', 'More_one', 'More_other'] as const;

/**
 * Why `type` cannot be the document type a definition names: no workflow declares it, or its
 * module is switched off while the definition naming it is in use.
 */
function documentTypeProblem(type: string, used: boolean, loaded: NameScope): string | undefined {
  if (!loaded.declared.some((workflow) => workflow.id === type))
    return `no document type "${type}": no workflow has that id`;
  if (used && !loaded.workflows.some((workflow) => workflow.id === type))
    return `document type "${type}" is in a module switched off`;
  return undefined;
}

/** Whether a file's definition is in use: a workflow switched on, or the schema of one. */
function inUse(file: string, loaded: NameScope): boolean {
  const workflowFile = /^workflows\/(.+)\.json$/.exec(file);
  if (workflowFile) return loaded.workflows.some((workflow) => workflow.id === workflowFile[1]);
  const schemaFile = /^schemas\/(.+)\.schema\.json$/.exec(file);
  return loaded.workflows.some((workflow) => workflow.document === schemaFile?.[1]);
}

/**
 * Why `key` is not a text in each language: missing, or naming a group of texts (a field's
 * `{"_": label, "help": ...}`, which i18next shows as "returned an object instead of string").
 */
export function textProblems(
  key: string,
  translations: Partial<Record<Language, TextTree>>,
): string[] {
  const messages: string[] = [];
  for (const language of LANGUAGES) {
    const tree = translations[language];
    if (!tree) continue;
    const node = nodeAt(tree, key);
    if (typeof node === 'string') continue;
    messages.push(
      node !== undefined && typeof nodeAt(tree, `${key}._`) === 'string'
        ? `"${key}" names a group of texts in ${language}, not a text: use "${key}._"`
        : `no text "${key}" in ${language}`,
    );
  }
  return messages;
}

function nodeAt(tree: TextTree, key: string): TextTree | string | undefined {
  let node: TextTree | string | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}

/**
 * What every workflow shows by name without declaring a key: its statuses (`statuses.<STATUS>`)
 * on every badge, list and timeline, and its actions (`actions.<action>`) on buttons and in the
 * history. A system action (the server's own, never a button) still shows in the history.
 */
function checkWorkflowTexts(
  workflow: WorkflowDefinition,
  translations: Partial<Record<Language, TextTree>>,
  push: (problem: DefinitionProblem) => void,
): void {
  const file = `workflows/${workflow.id}.json`;
  for (const status of Object.keys(workflow.machine.states))
    for (const message of textProblems(`statuses.${status}`, translations))
      push({ file, pointer: `/machine/states/${status}`, message });
  for (const action of Object.keys(workflow.actions))
    for (const message of textProblems(`actions.${action}`, translations))
      push({ file, pointer: `/actions/${action}`, message });
}

/**
 * A certificate's list field prints, of each item of the list at `pointer`, the value at `each`
 * or a table of `columns`: those pointers are within the items.
 */
function checkCertificateItems(
  workflow: WorkflowDefinition,
  loaded: NameScope,
  push: (problem: DefinitionProblem) => void,
): void {
  const schema = loaded.schemas.find((entity) => entity.id === workflow.document)?.schema;
  if (!schema) return;
  const file = `workflows/${workflow.id}.json`;
  (workflow.certificate?.fields ?? []).forEach((field, i) => {
    const items = itemsAt(schema, field.pointer);
    const within: Array<[string, string]> = [
      ...(field.each ? [[`/certificate/fields/${i}/each`, field.each] as [string, string]] : []),
      ...(field.columns ?? []).map((column, j): [string, string] => [
        `/certificate/fields/${i}/columns/${j}/pointer`,
        column.pointer,
      ]),
    ];
    for (const [pointer, value] of within) {
      if (!items)
        push({
          file,
          pointer,
          message: `"${field.pointer}" is not a list of the document's schema`,
        });
      else if (!schemaHasField(items, value))
        push({ file, pointer, message: `no field "${value}" in the items of "${field.pointer}"` });
    }
  });
}

const isPointer = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('/');

/**
 * A rule's parameters: `path` (checked as a reference) names the value it checks. Other
 * parameters that are pointers name fields of the same document, or, for a rule about a
 * document of another type (`documentType`), of that type's schema; `fills` maps the
 * document's own fields to that type's. `field` and `when`, plain names, are properties of the
 * items of the list at `path`.
 */
function checkRules(
  entity: EntityDefinition,
  loaded: NameScope,
  push: (problem: DefinitionProblem) => void,
): void {
  const file = `schemas/${entity.id}.schema.json`;
  (entity.rules ?? []).forEach((use: RuleUse, index) => {
    const at = `/rules/${index}`;
    const other =
      typeof use.documentType === 'string'
        ? loaded.schemas.find(
            (schema) =>
              schema.id ===
              loaded.declared.find((workflow) => workflow.id === use.documentType)?.document,
          )
        : undefined;
    const target = typeof use.documentType === 'string' ? other?.schema : entity.schema;
    const targetName =
      typeof use.documentType === 'string'
        ? `"${use.documentType}"'s schema`
        : "the document's schema";
    const checkPointer = (pointer: string, place: string, schema = target, name = targetName) => {
      if (schema && !schemaHasField(schema, pointer))
        push({ file, pointer: place, message: `no field "${pointer}" in ${name}` });
    };
    for (const [param, value] of Object.entries(use)) {
      if (param === 'path' || param === 'fills') continue;
      if (isPointer(value)) checkPointer(value, `${at}/${param}`);
      if (Array.isArray(value))
        value.forEach((item, i) => isPointer(item) && checkPointer(item, `${at}/${param}/${i}`));
    }
    if (use.fills && typeof use.fills === 'object') {
      for (const [own, sources] of Object.entries(use.fills as Record<string, unknown>)) {
        const place = `${at}/fills/${escapeSegment(own)}`;
        checkPointer(own, place, entity.schema, "the document's schema");
        if (!Array.isArray(sources)) continue;
        sources.forEach((source, i) => {
          if (typeof source !== 'string') return;
          for (const pointer of source.split(/\s+/).filter(isPointer))
            checkPointer(pointer, `${place}/${i}`);
        });
      }
    }
    const items = itemsAt(entity.schema, use.path);
    for (const param of ['field', 'when'] as const) {
      const name = use[param];
      if (typeof name !== 'string' || isPointer(name) || !items) continue;
      if (!schemaHasField(items, `/${name}`))
        push({
          file,
          pointer: `${at}/${param}`,
          message: `no field "${name}" in the items of "${use.path}"`,
        });
    }
  });
}

/** The schema of the items of the list at `pointer`, when it is one. */
function itemsAt(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const segment of pointer.split('/').slice(1)) {
    node = (node?.properties as Record<string, JsonSchema> | undefined)?.[segment];
  }
  const items = node?.items;
  return items && typeof items === 'object' && !Array.isArray(items)
    ? (items as JsonSchema)
    : undefined;
}

/**
 * The form's own names, in the uiSchema: a catalogue select names a catalogue (and, in
 * `match`, that catalogue's fields and the document's pointers); a document choice names a
 * document type and pointers of its schema; every message named is a text.
 */
function checkUiSchema(
  entity: EntityDefinition,
  loaded: NameScope,
  push: (problem: DefinitionProblem) => void,
): void {
  const file = `schemas/${entity.id}.schema.json`;
  const uiPointer = (segments: string[], ...rest: string[]) =>
    `/uiSchema/${[...segments.map((s) => (s === '*' ? 'items' : s)), ...rest].join('/')}`;
  for (const field of catalogFieldsOf(entity)) {
    const at = uiPointer(field.segments, 'ui:options');
    const catalog = loaded.catalogs.find((candidate) => candidate.id === field.catalog);
    if (!catalog) {
      push({
        file,
        pointer: `${at}/catalog`,
        message: `no catalogue "${field.catalog}" in catalogs/`,
      });
      continue;
    }
    const fields = Object.keys((catalog.schema.properties ?? {}) as object);
    for (const [entryField, pointer] of field.match) {
      if (!fields.includes(entryField))
        push({
          file,
          pointer: `${at}/match/${entryField}`,
          message: `catalogue "${catalog.id}" has no field "${entryField}"`,
        });
      else if (!schemaHasField(entity.schema, pointer))
        push({
          file,
          pointer: `${at}/match/${entryField}`,
          message: `no field "${pointer}" in the document's schema`,
        });
    }
    for (const [entryField] of field.allowed)
      if (!fields.includes(entryField))
        push({
          file,
          pointer: `${at}/match/${entryField}`,
          message: `catalogue "${catalog.id}" has no field "${entryField}"`,
        });
    for (const message of textProblems(field.matchMessage, loaded.translations))
      push({ file, pointer: `${at}/matchMessage`, message });
  }
  for (const field of documentChoiceFieldsOf(entity)) {
    const segments = field.many ? field.segments.slice(0, -1) : field.segments;
    const at = uiPointer(segments, 'ui:options');
    const problem = documentTypeProblem(field.document, inUse(file, loaded), loaded);
    if (problem) {
      push({ file, pointer: `${at}/document`, message: problem });
      continue;
    }
    const workflow = loaded.declared.find((candidate) => candidate.id === field.document);
    const schema = loaded.schemas.find((candidate) => candidate.id === workflow?.document);
    if (!schema) continue;
    for (const key of ['code', 'label'] as const) {
      const pointer = field[key];
      if (pointer !== undefined && !schemaHasField(schema.schema, pointer))
        push({
          file,
          pointer: `${at}/${key}`,
          message: `no field "${pointer}" in "${field.document}"'s schema`,
        });
    }
    for (const message of textProblems(field.unknownMessage, loaded.translations))
      push({ file, pointer: `${at}/unknownMessage`, message });
  }
}
