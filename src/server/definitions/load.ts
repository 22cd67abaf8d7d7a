import { checkRoutes } from './check-routes';
import { createHash } from 'node:crypto';
import type { ErrorObject } from 'ajv';
import { isNode } from '../../core/definitions/json';
import {
  moduleOfPath,
  type CatalogDefinition,
  type DefinitionBundle,
  type EntityDefinition,
  type ModuleDefinition,
  type WorkflowDefinition,
} from '../../core/definitions/types';
import { LANGUAGES, missingKeys, type Language, type TextTree } from '../../core/i18n/translate';
import { escapeSegment } from '../../core/rules/registry';
import { createAjv } from './ajv';
import { acceptedOnce } from './compiled-once';
import { checkPaymentSources, crossCheckEntity, crossCheckWorkflow } from './check-documents';
import { checkRuleTexts } from './check-rule-texts';
import { checkCaseWork } from './check-case-work';
import { checkValidityPeriods } from './check-validity';
import { checkScreening } from './check-screening';
import { checkCopies } from './check-copies';
import { checkRequests } from './check-requests';
import { checkCertificateHolders } from './check-holders';
import { checkCatalogCopies } from './check-catalog-copies';
import { checkCatalogLists } from './check-catalog-lists';
import { checkProfilePrefills } from './check-prefill';
import {
  checkCatalogCopyTranslations,
  checkCatalogFields,
  checkCatalogListTranslations,
  checkFeeTranslations,
} from './check-catalog-fields';
import { checkInbox } from './check-inbox';
import { checkLinks } from './check-links';
import { checkDuties } from './check-duties';
import { checkRefunds } from './check-refunds';
import { checkRefundStages } from './check-refund-stages';
import { checkPayerConsent } from './check-payer-consent';
import { checkShareCodes } from './check-share-codes';
import { checkRetention } from './check-retention';
import { checkDelegation } from './check-delegation';
import { checkPersons } from './check-persons';
import { checkRenewals } from './check-renewals';
import { checkReconcile } from './check-reconcile';
import { checkTimers } from './check-timers';
import { checkListFilters } from './check-list-filters';
import { checkNamedReferences } from './check-references';
import { checkReachability } from './check-reachability';
import { checkGuardParameters } from './check-guard-params';
import { checkWorkflowRoles, ungrantedRoles } from './check-roles';
import { checkWorkload } from './check-workload';
import { addNamesKeyword, collectingReferences, type Reference } from './references';
import {
  catalogFile,
  DefinitionsError,
  problemOf,
  reporter,
  reportUnknown,
  said,
  workflowFile,
  wordProblems,
  checkerTextsOf,
  type DefinitionProblem,
  type ProblemText,
  type SaidProblem,
} from './problems';
import { filesIn, MODULES_FILE, readDefinitionFiles, type DefinitionFiles } from './files';
import { implementationsOf } from '../implementations';
import type { ServerModule } from '../module';
import { catalogMetaSchema } from '../../core/definitions/shapes/catalog';
import { entityMetaSchema } from '../../core/definitions/shapes/entity';
import { modulesMetaSchema, translationsMetaSchema } from '../../core/definitions/shapes/modules';
import { workflowMetaSchema } from '../../core/definitions/shapes/workflow';

export { DefinitionsError, type DefinitionProblem, type SaidProblem } from './problems';

export { DEFINITION_FOLDERS, MODULES_FILE } from './files';

const metaAjv = createAjv({ messages: true, strict: false });
addNamesKeyword(metaAjv);
const checkCatalog = metaAjv.compile(catalogMetaSchema);
const checkEntity = metaAjv.compile(entityMetaSchema);
const checkWorkflow = metaAjv.compile(workflowMetaSchema);
const checkTranslations = metaAjv.compile(translationsMetaSchema);
const checkModules = metaAjv.compile(modulesMetaSchema);
/** Compiles definitions' own JSON Schemas, to catch a schema Ajv would refuse at run time. */
const schemaAjv = createAjv({ messages: true });
/** The schema texts checkOwnSchema has accepted: a publish re-checks mostly unchanged files. */
const acceptedSchemas = acceptedOnce();

/**
 * Loads and checks every definition under `dir`, with the engine's and `codeModules`' names;
 * any problem stops the load with every problem found, each naming its file and JSON pointer.
 */
export async function loadDefinitions(
  dir: string,
  codeModules: readonly ServerModule[],
  options: LoadOptions = {},
): Promise<DefinitionBundle> {
  return checkDefinitions(await readDefinitionFiles(dir), codeModules, options);
}

/**
 * Checks a set of definition files (files.ts: read from a folder, or kept elsewhere) as
 * `loadDefinitions` does, and gives the bundle, or throws every problem found.
 */
export async function checkDefinitions(
  files: DefinitionFiles,
  codeModules: readonly ServerModule[],
  options: LoadOptions = {},
): Promise<DefinitionBundle> {
  const implementations = implementationsOf(codeModules);
  const problems: SaidProblem[] = [];
  // What does not stop the load but should be seen, told through `options.warn` once it passes.
  const warnings: SaidProblem[] = [];
  const references = new Map<string, Reference[]>();
  const catalogs = loadFolder<CatalogDefinition>(files, 'catalogs', problems, (file, doc) =>
    checkWith(checkCatalog, file, doc, problems, references)
      ? checkCatalogSemantics(file, doc, problems)
      : false,
  );
  const schemas = loadFolder<EntityDefinition>(files, 'schemas', problems, (file, doc) =>
    checkWith(checkEntity, file, doc, problems, references)
      ? checkOwnSchema(file, '/schema', doc.schema, problems)
      : false,
  );
  const modules = loadModules(files, problems);
  const declared = loadFolder<WorkflowDefinition>(files, 'workflows', problems, (file, doc) =>
    checkWith(checkWorkflow, file, doc, problems, references),
  );
  const workflows = workflowsOfEnabledModules(declared, modules, problems);
  const translations = loadTranslations(files, problems);
  // The files refused on their own: others naming them are not reported again.
  const brokenFiles = new Set(problems.map((problem) => problem.file));
  checkUniqueIds('catalogs', catalogs, problems);
  checkReferences(catalogs, problems);
  for (const entity of schemas) {
    crossCheckEntity(entity, translations, problems, implementations);
    checkCatalogListTranslations(entity, catalogs, problems);
    checkCatalogLists(entity, catalogs, problems);
  }
  checkRuleTexts(schemas, catalogs, translations, problems);
  const loaded = { catalogs, schemas, workflows, declared, translations, references };
  const scopes = workflows.map((workflow) => ({
    ...loaded,
    workflow,
    entity: schemas.find((entity) => entity.id === workflow.document),
    report: reporter(problems, workflowFile(workflow.id)),
    problems,
  }));
  for (const scope of scopes) crossCheckWorkflow(scope, implementations);
  for (const scope of scopes) checkGuardParameters(scope, implementations);
  for (const scope of scopes) {
    const { workflow } = scope;
    checkWorkflowRoles(scope);
    checkPaymentSources(workflow, catalogs, problems, scope.entity?.schema);
    checkFeeTranslations(scope);
    checkCatalogCopyTranslations(scope);
    checkValidityPeriods(scope);
    checkCertificateHolders(scope);
    checkCatalogCopies(scope);
    checkScreening(scope);
    checkProfilePrefills(scope);
    checkLinks(scope);
    checkDuties(scope);
    checkRefunds(scope);
    checkRefundStages(scope);
    checkPayerConsent(scope);
    checkShareCodes(scope);
    checkRetention(scope);
    checkDelegation(scope);
    checkPersons(scope);
    checkRenewals(scope);
    checkReconcile(scope);
    checkTimers(scope);
    checkListFilters(workflow, schemas, problems);
    checkCaseWork(scope);
    checkCopies(scope);
    checkWorkload(scope);
    checkRequests(scope);
    checkReachability(scope, reporter(warnings, workflowFile(workflow.id)));
  }
  for (const scope of scopes) checkInbox(scope);
  checkRoutes({ modules, catalogs, workflows }, problems);
  checkNamedReferences(loaded, problems);
  // Worded in English from the set's own texts: the log's and the default language.
  const texts = checkerTextsOf(translations);
  const reported = withoutEchoes(problems, brokenFiles);
  if (reported.length > 0)
    throw new DefinitionsError(wordProblems(reported, texts, 'en'), reported);
  for (const warning of wordProblems(warnings, texts, 'en')) options.warn?.(warning);
  const granted = options.warn && (await options.grantedRoles?.(workflows));
  if (granted)
    for (const warning of wordProblems(ungrantedRoles(workflows, catalogs, granted), texts, 'en'))
      options.warn?.(warning);
  const bundle = { modules, catalogs, schemas, workflows, translations };
  const version = createHash('sha256').update(JSON.stringify(bundle)).digest('hex').slice(0, 16);
  return { ...bundle, version };
}

export interface LoadOptions {
  /**
   * Every role some access unit grants, given the loaded workflows (the seed's units, read as
   * the type declaring access units says): a role the definitions name that none grants is held
   * by nobody, which is said through `warn`. Undefined: not known, nothing said.
   */
  grantedRoles?: (
    workflows: readonly WorkflowDefinition[],
  ) => Promise<ReadonlySet<string> | undefined>;
  /**
   * Told of what does not stop the load but should be seen (a role nobody holds, a status only
   * `statusMoves` leads to).
   */
  warn?: (warning: DefinitionProblem) => void;
}

function loadFolder<T extends { id: string }>(
  files: DefinitionFiles,
  folder: string,
  problems: SaidProblem[],
  check: (file: string, doc: T) => boolean,
): T[] {
  const loaded: T[] = [];
  for (const name of filesIn(files, folder)) {
    const file = `${folder}/${name}`;
    const doc = readDefinition(files, file, problems) as T | undefined;
    if (doc === undefined || !check(file, doc)) continue;
    const expectedId = name.replace(/(\.schema)?\.json$/, '');
    if (doc.id === expectedId) loaded.push(doc);
    else reporter(problems, file)('/id', said('idNotFileName', { expected: expectedId }));
  }
  return loaded;
}

/**
 * A definition file's JSON, without its `$schema`: that names the published meta-schema code
 * editors check it with (meta/, written by `npm run gen:meta`), not part of the definition.
 */
function readDefinition(files: DefinitionFiles, file: string, problems: SaidProblem[]) {
  const doc = readJson(files, file, problems);
  if (!isNode(doc) || !('$schema' in doc)) return doc;
  const { $schema: _published, ...definition } = doc;
  return definition;
}

/** The file's JSON; undefined, with a problem said, when it is missing or not JSON. */
function readJson(files: DefinitionFiles, file: string, problems: SaidProblem[]): unknown {
  const text = files.get(file);
  if (text === undefined) {
    problems.push(problemOf(file, '', said('fileMissing')));
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push(problemOf(file, '', said('notJson', { reason: (error as Error).message })));
    return undefined;
  }
}

/**
 * Checks `doc` against a meta-schema; what its values name (references.ts) is kept in `found`
 * for the cross-checks, under the file's name.
 */
function checkWith(
  validate: { (doc: unknown): boolean; errors?: ErrorObject[] | null },
  file: string,
  doc: unknown,
  problems: SaidProblem[],
  found?: Map<string, Reference[]>,
): boolean {
  const { result: valid, references } = collectingReferences(() => validate(doc));
  found?.set(file, references);
  if (valid) return true;
  const report = reporter(problems, file);
  const errors = validate.errors ?? [];
  // A bad property name (a status "SUB-MITTED") gives "property name must be valid" at the
  // object, after what is wrong with the name: said at the name instead, each thing wrong with
  // it naming it.
  const nameErrors = errors.filter((e) => e.keyword === 'propertyNames');
  const withinName = (error: ErrorObject) =>
    nameErrors.find(
      (outer) =>
        error !== outer &&
        error.instancePath === outer.instancePath &&
        error.schemaPath.startsWith(`${outer.schemaPath}/`),
    );
  for (const error of errors) {
    if (withinName(error)) continue;
    if (error.keyword === 'propertyNames') {
      const name = String(error.params.propertyName);
      const at = `${error.instancePath}/${escapeSegment(name)}`;
      const why = errors.filter((inner) => withinName(inner) === error);
      if (why.length === 0) report(at, said('nameNotAllowed', { name }));
      for (const inner of why) report(at, nameText(name, inner));
      continue;
    }
    const missing = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : '';
    const extra =
      error.keyword === 'additionalProperties' ? `/${String(error.params.additionalProperty)}` : '';
    report(
      `${error.instancePath}${missing}${extra}`,
      extra
        ? said('schemaAdditionalProperty', { property: String(error.params.additionalProperty) })
        : ajvText(error),
    );
  }
  return false;
}

/** A list of values an Ajv error names, as one value: as Ajv's message writes it. */
const listed = (value: unknown, separator = ', ') =>
  Array.isArray(value)
    ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(separator)
    : String(value);

/** A number an Ajv error names (a limit), kept a number. */
const numberOf = (value: unknown): string | number =>
  typeof value === 'number' ? value : String(value);

/**
 * What an Ajv error says, by its keyword, with the values of its `params`: in English as Ajv's
 * own message reads. A keyword not listed says Ajv's English message (`schemaInvalid`).
 */
const AJV_TEXTS: Partial<Record<string, (params: Record<string, unknown>) => ProblemText>> = {
  required: (p) => said('schemaRequired', { property: String(p.missingProperty) }),
  additionalProperties: () => said('schemaAdditionalProperties'),
  type: (p) => said('schemaType', { type: listed(p.type, ',') }),
  enum: (p) => said('schemaEnum', { allowedValues: listed(p.allowedValues) }),
  const: (p) => said('schemaConst', { allowedValue: listed([p.allowedValue]) }),
  pattern: (p) => said('schemaPattern', { pattern: String(p.pattern) }),
  format: (p) => said('schemaFormat', { format: String(p.format) }),
  minItems: (p) => said('schemaMinItems', { limit: numberOf(p.limit) }),
  maxItems: (p) => said('schemaMaxItems', { limit: numberOf(p.limit) }),
  minLength: (p) => said('schemaMinLength', { limit: numberOf(p.limit) }),
  maxLength: (p) => said('schemaMaxLength', { limit: numberOf(p.limit) }),
  minProperties: (p) => said('schemaMinProperties', { limit: numberOf(p.limit) }),
  maxProperties: (p) => said('schemaMaxProperties', { limit: numberOf(p.limit) }),
  minimum: (p) => said('schemaMinimum', { limit: numberOf(p.limit) }),
  maximum: (p) => said('schemaMaximum', { limit: numberOf(p.limit) }),
  exclusiveMinimum: (p) => said('schemaExclusiveMinimum', { limit: numberOf(p.limit) }),
  exclusiveMaximum: (p) => said('schemaExclusiveMaximum', { limit: numberOf(p.limit) }),
  multipleOf: (p) => said('schemaMultipleOf', { multipleOf: numberOf(p.multipleOf) }),
  uniqueItems: (p) => said('schemaUniqueItems', { first: numberOf(p.j), second: numberOf(p.i) }),
  oneOf: () => said('schemaOneOf'),
  anyOf: () => said('schemaAnyOf'),
  not: () => said('schemaNot'),
  if: (p) => said('schemaIf', { clause: String(p.failingKeyword) }),
  'false schema': () => said('schemaFalse'),
  dependencies: (p) => dependencyText(p),
  dependentRequired: (p) => dependencyText(p),
};

const dependencyText = (p: Record<string, unknown>) =>
  said('schemaDependencies', {
    count: numberOf(p.depsCount),
    properties: String(p.deps),
    property: String(p.property),
  });

/** An Ajv error said by its keyword (`AJV_TEXTS`), or by Ajv's English message. */
export function ajvText(error: ErrorObject): ProblemText {
  const text = AJV_TEXTS[error.keyword];
  if (text) return text(error.params as Record<string, unknown>);
  return said('schemaInvalid', { reason: error.message ?? error.keyword });
}

/** `propertyNames` keywords a name's text says: `name<Keyword>`, worded as `schema<Keyword>`. */
const NAME_KEYWORDS = ['pattern', 'format', 'minLength', 'maxLength', 'enum', 'const'];

/**
 * What is wrong with a property's name, by the keyword of `propertyNames` it fails: in English
 * `the name "<name>"` and Ajv's message.
 */
export function nameText(name: string, error: ErrorObject): ProblemText {
  if (!NAME_KEYWORDS.includes(error.keyword))
    return said('nameInvalid', { name, reason: error.message ?? error.keyword });
  const { key, params } = ajvText(error);
  return said(key.replace(/^schema/, 'name'), { name, ...params });
}

/**
 * A definition refused on its own is missing from what the others are checked against, so
 * every file naming it would also say it is not there: that echo (a problem whose
 * `missingDefinition` is the broken definition's id) is dropped, the file's own problem names
 * the mistake.
 */
function withoutEchoes(problems: SaidProblem[], brokenFiles: ReadonlySet<string>): SaidProblem[] {
  const brokenIds = new Set(
    [...brokenFiles].flatMap((file) => {
      const id = /^(?:catalogs|schemas|workflows)\/(.+?)(?:\.schema)?\.json$/.exec(file)?.[1];
      return id === undefined ? [] : [id];
    }),
  );
  const echoing = (problem: SaidProblem) => {
    const missing = problem.params?.missingDefinition;
    return missing !== undefined && brokenIds.has(String(missing));
  };
  return problems.filter((problem) => brokenFiles.has(problem.file) || !echoing(problem));
}

function checkOwnSchema(
  file: string,
  pointer: string,
  schema: unknown,
  problems: SaidProblem[],
): boolean {
  if (acceptedSchemas.has(schema as object)) return true;
  const report = reporter(problems, file);
  if (!schemaAjv.validateSchema(schema as object)) {
    for (const error of schemaAjv.errors ?? [])
      report(`${pointer}${error.instancePath}`, ajvText(error));
    return false;
  }
  try {
    schemaAjv.compile(schema as object);
    schemaAjv.removeSchema(schema as object);
  } catch (error) {
    report(pointer, said('schemaNotCompiled', { reason: (error as Error).message }));
    return false;
  }
  acceptedSchemas.add(schema as object);
  return true;
}

function checkCatalogSemantics(
  file: string,
  catalog: CatalogDefinition,
  problems: SaidProblem[],
): boolean {
  const before = problems.length;
  const report = reporter(problems, file);
  const properties = Object.keys((catalog.schema.properties ?? {}) as object);
  const known = (field: string) => properties.includes(field);
  const notField = (key: string) => (field: string) => said(key, { field });
  reportUnknown(report, catalog.key, '/key', known, notField('keyFieldNotInSchema'));
  reportUnknown(report, catalog.columns, '/columns', known, notField('columnNotInSchema'));
  for (const field of Object.keys(catalog.references ?? {}))
    if (!known(field)) report(`/references/${field}`, notField('referenceNotInSchema')(field));
  for (const language of LANGUAGES)
    for (const field of properties)
      if (!catalog.labels[language].fields[field])
        report(`/labels/${language}/fields/${field}`, said('missingFieldLabel', { field }));
  checkCatalogFields(file, catalog, problems);
  checkOwnSchema(file, '/schema', catalog.schema, problems);
  return problems.length === before;
}

function checkUniqueIds(folder: string, docs: Array<{ id: string }>, problems: SaidProblem[]) {
  const seen = new Set<string>();
  for (const doc of docs) {
    if (seen.has(doc.id))
      problems.push(
        problemOf(`${folder}/${doc.id}.json`, '/id', said('duplicateId', { id: doc.id })),
      );
    seen.add(doc.id);
  }
}

/**
 * A reference names an entry by the value of the referenced catalogue's key, so that
 * catalogue must exist and have a single key field; `byField` must be a field of the entry.
 */
function checkReferences(catalogs: CatalogDefinition[], problems: SaidProblem[]) {
  const byId = new Map(catalogs.map((c) => [c.id, c]));
  for (const catalog of catalogs) {
    const report = reporter(problems, catalogFile(catalog.id));
    const fields = new Set(Object.keys((catalog.schema.properties ?? {}) as object));
    for (const [field, reference] of Object.entries(catalog.references ?? {})) {
      if (reference.byField && !fields.has(reference.byField))
        report(
          `/references/${field}/byField`,
          said('notAFieldOfSchema', { field: reference.byField }),
        );
      const targets: Array<[string, string]> = [
        [`/references/${field}/catalog`, reference.catalog],
        ...Object.entries(reference.catalogs ?? {}).map(([value, target]): [string, string] => [
          `/references/${field}/catalogs/${value}`,
          target,
        ]),
      ];
      for (const [pointer, target] of targets) {
        const referenced = byId.get(target);
        // A catalogue whose own file is broken is not said missing again (withoutEchoes).
        if (!referenced)
          report(pointer, said('noReferencedCatalogue', { missingDefinition: target }));
        else if (referenced.key.length !== 1)
          report(
            pointer,
            said('referencedKeyNotSingle', { catalogue: target, fields: referenced.key.length }),
          );
      }
    }
  }
}

function loadModules(files: DefinitionFiles, problems: SaidProblem[]): ModuleDefinition[] {
  const doc = readJson(files, MODULES_FILE, problems);
  if (doc === undefined || !checkWith(checkModules, MODULES_FILE, doc, problems)) return [];
  const modules = (doc as { modules: ModuleDefinition[] }).modules.map(
    ({ id, prefix, enabled }) => ({ id, prefix, enabled }),
  );
  const report = reporter(problems, MODULES_FILE);
  modules.forEach((module, index) => {
    const clash = modules.findIndex((m) => m.id === module.id || m.prefix === module.prefix);
    if (clash !== index)
      report(
        `/modules/${index}`,
        said('repeatedModule', { module: module.id, prefix: module.prefix, index: clash }),
      );
  });
  return modules;
}

/**
 * Every workflow must sit under a declared module's prefix (a typo in a prefix would otherwise
 * make pages no module owns); those of a module switched off are left out of the bundle.
 */
function workflowsOfEnabledModules(
  workflows: WorkflowDefinition[],
  modules: ModuleDefinition[],
  problems: SaidProblem[],
): WorkflowDefinition[] {
  if (modules.length === 0) return workflows;
  return workflows.filter((workflow) => {
    const module = moduleOfPath(modules, workflow.prefix);
    if (!module)
      reporter(problems, workflowFile(workflow.id))(
        '/prefix',
        said('prefixOutsideModules', { prefix: workflow.prefix, file: MODULES_FILE }),
      );
    return module?.enabled ?? false;
  });
}

function loadTranslations(
  files: DefinitionFiles,
  problems: SaidProblem[],
): Record<Language, TextTree> {
  const result = {} as Record<Language, TextTree>;
  for (const language of LANGUAGES) {
    const file = `translations/${language}.json`;
    const doc = readDefinition(files, file, problems);
    if (doc !== undefined && checkWith(checkTranslations, file, doc, problems))
      result[language] = doc as TextTree;
    // translations/<lang>/<namespace>.json: the texts of one entity, under its id.
    for (const name of filesIn(files, `translations/${language}`)) {
      const nsFile = `translations/${language}/${name}`;
      const nsDoc = readDefinition(files, nsFile, problems);
      const namespace = name.slice(0, -'.json'.length);
      if (nsDoc === undefined || !checkWith(checkTranslations, nsFile, nsDoc, problems)) continue;
      const tree = (result[language] ??= {});
      if (tree[namespace] === undefined) tree[namespace] = nsDoc as TextTree;
      else reporter(problems, nsFile)('', said('namespaceRepeated', { namespace, language }));
    }
  }
  const [reference, ...others] = LANGUAGES;
  if (!reference || !result[reference]) return result;
  for (const language of others) {
    if (!result[language]) continue;
    for (const [from, to] of [
      [reference, language],
      [language, reference],
    ] as const) {
      const report = reporter(problems, `translations/${to}.json`);
      for (const key of missingKeys(result[from], result[to]))
        report(`/${key.replaceAll('.', '/')}`, said('missingTranslation', { language: from }));
    }
  }
  return result;
}
