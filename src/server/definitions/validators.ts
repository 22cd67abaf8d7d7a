import fs from 'node:fs/promises';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { RJSFSchema } from '@rjsf/utils';
import type { Plugin } from 'esbuild';
import { catalogEntrySchema } from '../../core/definitions/catalog-entry';
import type { CatalogDefinition, DefinitionBundle, JsonSchema } from '../../core/definitions/types';
import { sectionSchema, sectionsOf, type EntityFormDefinition } from '../../core/rules/sections';
import { AJV_OPTIONS, createAjv } from './ajv';
import {
  cacheKey,
  importCachedModule,
  readCachedModules,
  writeCachedModules,
  type CachedModules,
} from './validator-cache';
import { PROJECT_ROOT } from '../config';

export type ValidatorKind = 'catalog' | 'schema';

/**
 * A validator as the server calls it: true when the data is valid, `errors` set otherwise. Ajv's
 * compiled functions are, and so are the exports of the generated modules.
 */
export interface DefinitionValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Validators for every definition: compiled in process for the server, and as browser modules. */
export interface ValidatorSet {
  get(kind: ValidatorKind, id: string): DefinitionValidator | undefined;
  /**
   * Self-contained ES module the browser imports, exporting `validate` (also the default):
   * a catalogue entry's validator, or an entity's whole document.
   */
  module(kind: ValidatorKind, id: string): string | undefined;
  /** The ES module of one section of an entity: see `entityValidatorModules`. */
  sectionModule(entityId: string, sectionId: string): string | undefined;
}

export interface CompileOptions {
  /**
   * Where the generated modules are kept between starts (validator-cache.ts): a start whose
   * definitions, libraries and generator are those of a kept folder imports its modules instead
   * of compiling. Without it, everything is compiled.
   */
  cacheDir?: string;
}

/**
 * Compiles each definition's schema once at start, the bundle checked by the loader (which
 * refuses unknown rules). The browser cannot compile under its CSP: it imports the standalone
 * code generated here, which the server runs too (compiled or cached).
 */
export async function compileValidators(
  bundle: DefinitionBundle,
  { cacheDir }: CompileOptions = {},
): Promise<ValidatorSet> {
  const key = cacheDir && (await validatorsKey(bundle));
  if (cacheDir && key) {
    const cached = await readCachedModules(cacheDir, key);
    const imported = cached && (await importValidators(cached).catch(() => undefined));
    if (cached && imported) return validatorSet(imported, cached.sources);
  }
  const { validators, modules } = await compileAll(bundle);
  // A folder that cannot be written (read-only) costs the next start its time, nothing else.
  if (cacheDir && key) await writeCachedModules(cacheDir, key, modules).catch(() => undefined);
  return validatorSet(validators, modules);
}

function validatorSet(
  validators: ReadonlyMap<string, DefinitionValidator>,
  modules: ReadonlyMap<string, string>,
): ValidatorSet {
  return {
    get: (kind, id) => validators.get(`${kind}/${id}`),
    module: (kind, id) => modules.get(`${kind}/${id}`),
    sectionModule: (entityId, sectionId) => modules.get(`section/${entityId}/${sectionId}`),
  };
}

async function compileAll(bundle: DefinitionBundle) {
  const validators = new Map<string, DefinitionValidator>();
  const modules = new Map<string, string>();
  const catalogs = bundle.catalogs.map(async (c) => {
    const { validate, module } = await catalogValidatorModule(c);
    validators.set(`catalog/${c.id}`, validate);
    modules.set(`catalog/${c.id}`, module);
  });
  const schemas = bundle.schemas.map(async (s) => {
    const { validate, document, sections } = await entityValidatorModules(s);
    validators.set(`schema/${s.id}`, validate);
    modules.set(`schema/${s.id}`, document);
    for (const [sectionId, source] of sections) modules.set(`section/${s.id}/${sectionId}`, source);
  });
  await Promise.all([...catalogs, ...schemas]);
  return { validators, modules };
}

/**
 * A catalogue entry's validator, compiled in process for the server and as the browser's module
 * (exporting `validate`, also the default).
 */
export async function catalogValidatorModule(
  catalog: CatalogDefinition,
): Promise<{ validate: DefinitionValidator; module: string }> {
  const schema = catalogEntrySchema(catalog);
  return compiledOnce(['catalog', schema], () => compileCatalog(schema));
}

async function compileCatalog(schema: JsonSchema) {
  const tools = await generatorLibraries();
  const { validate, code } = compileWhole(schema, tools);
  const entry = `export { default, default as validate } from 'virtual:code';`;
  const built = await bundleModules({ 'virtual:code': code }, { validate: entry }, tools);
  return { validate, module: built.validate ?? '' };
}

/** The server's validators from kept modules: each document's and catalogue's `validate`. */
async function importValidators(cached: CachedModules): Promise<Map<string, DefinitionValidator>> {
  const validators = new Map<string, DefinitionValidator>();
  const names = [...cached.sources.keys()].filter((name) => !name.startsWith('section/'));
  await Promise.all(
    names.map(async (name) => {
      const { validate } = await importCachedModule(cached, name);
      if (typeof validate !== 'function') throw new Error(`${name} exports no validate`);
      validators.set(name, validate as DefinitionValidator);
    }),
  );
  return validators;
}

/**
 * The cache key of the generated modules: the schemas compiled, the generating code and its
 * options, and the locked versions of every library.
 */
async function validatorsKey(bundle: DefinitionBundle): Promise<string> {
  const lock = await fs
    .readFile(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8')
    .catch(() => 'no lockfile');
  const generator = [
    compileWhole,
    compileSection,
    catalogValidatorModule,
    compileCatalog,
    entityValidatorModules,
    compileEntity,
    bundleModules,
    virtualFiles,
  ]
    .map(String)
    .concat(createAjv.toString(), JSON.stringify([AJV_OPTIONS, CHECKED_AT_LOAD]));
  return cacheKey([
    lock,
    generator,
    bundle.catalogs.map((c) => [c.id, catalogEntrySchema(c)]),
    bundle.schemas.map((s) => [
      s.id,
      s.schema,
      sectionsOf(s).map((section) => [section.id, sectionSchema(s.schema, section.id)]),
    ]),
  ]);
}

/**
 * What was compiled in this process, by what it was compiled from: a publish, a restart's second
 * set or a studio preview recompiles only the schemas that changed (a few seconds each on a
 * loaded machine), not every one. The validators are stateless functions, safe to share.
 */
const compiled = new Map<string, Promise<unknown>>();
/** Definitions kept compiled: every one of a few versions of a large set. */
const KEPT_COMPILED = 400;

function compiledOnce<T>(parts: readonly unknown[], compile: () => Promise<T>): Promise<T> {
  const key = cacheKey(parts);
  let pending = compiled.get(key) as Promise<T> | undefined;
  // Used again: the most recent, the last dropped.
  if (pending) compiled.delete(key);
  else {
    pending = compile();
    pending.catch(() => compiled.delete(key));
  }
  compiled.set(key, pending);
  for (const oldest of compiled.keys()) {
    if (compiled.size <= KEPT_COMPILED) break;
    compiled.delete(oldest);
  }
  return pending;
}

/**
 * The definitions loader has checked every schema against its meta-schema (load.ts): checking
 * it again here would compile the meta-schema once per Ajv instance, one per document, catalogue
 * and section, about a second of every start.
 */
const CHECKED_AT_LOAD = { validateSchema: false } as const;

/**
 * The libraries that generate the modules (Ajv's standalone code, RJSF's schema hashes, esbuild),
 * loaded when something is to be generated: a start that finds its modules kept never loads
 * them (a few hundred milliseconds of a start).
 */
const loadLibraries = () =>
  Promise.all([
    import('ajv/dist/standalone/index.js'),
    import('@rjsf/utils'),
    import('esbuild'),
  ]).then(([standalone, rjsf, esbuild]) => ({
    standaloneCode: standalone.default,
    rjsf,
    build: esbuild.build,
  }));
type GeneratorLibraries = Awaited<ReturnType<typeof loadLibraries>>;

let libraries: Promise<GeneratorLibraries> | undefined;
const generatorLibraries = () => (libraries ??= loadLibraries());

/** The whole-document validator: in process, and its standalone ES module code. */
function compileWhole(
  schema: JsonSchema,
  { standaloneCode }: GeneratorLibraries,
): { validate: ValidateFunction; code: string } {
  const ajv = createAjv({ code: { source: true, esm: true }, ...CHECKED_AT_LOAD });
  const { $id: _ignored, ...withoutId } = schema;
  const validate = ajv.compile(withoutId);
  return { validate, code: standaloneCode(ajv, validate) };
}

/**
 * The precompiled functions RJSF needs for one section (the section schema itself and every
 * sub-schema it resolves conditions and options with), keyed by RJSF's schema hash, as the
 * source of one ES module exporting `v0`, `v1`... plus the hash of each export.
 */
function compileSection(
  schema: JsonSchema,
  { standaloneCode, rjsf }: GeneratorLibraries,
): { code: string; hashes: Record<string, string> } {
  const schemaMap = rjsf.schemaParser(schema as RJSFSchema);
  const ajv = createAjv({
    code: { source: true, esm: true, lines: false },
    // The whole document was compiled in strict mode already; RJSF's extracted sub-schemas
    // (conditions without `type`) would only produce strict-types warnings.
    strictTypes: false,
    strictTuples: false,
    ...CHECKED_AT_LOAD,
    schemas: Object.values(schemaMap),
  });
  ajv.addKeyword(rjsf.RJSF_ADDITIONAL_PROPERTIES_FLAG);
  const refs = Object.fromEntries(Object.keys(schemaMap).map((hash, i) => [`v${i}`, hash]));
  return { code: standaloneCode(ajv, refs), hashes: refs };
}

/**
 * An entity's browser modules, and its whole-document validator for the server: one module for
 * the whole document (`document`: exports `validate`, also the default, same options as the
 * server) and one per section (`sections`, by section id), so a form paints its open section
 * before the whole document's validator (up to 0.25 MB) arrives. Bundled in one esbuild run.
 * A section's module exports `validate` (the section's validator, for `{ [sectionId]: value }`),
 * `schema` (the `sectionSchema` its functions were compiled from) and `rjsf` (RJSF
 * `ValidatorFunctions`, schema hash -> function, for `createPrecompiledValidator(rjsf, schema)`,
 * so the browser never compiles).
 */
export async function entityValidatorModules(definition: EntityFormDefinition) {
  const sections = sectionsOf(definition).map((section) => section.id);
  return compiledOnce(['entity', definition.schema, sections], () => compileEntity(definition));
}

async function compileEntity(definition: EntityFormDefinition) {
  const libraries = await generatorLibraries();
  const whole = compileWhole(definition.schema, libraries);
  const files: Record<string, string> = { 'virtual:document': whole.code };
  const entries: Record<string, string> = {
    document: `export { default, default as validate } from 'virtual:document';`,
  };
  const sections = sectionsOf(definition);
  sections.forEach((section, index) => {
    const schema = sectionSchema(definition.schema, section.id);
    const { code, hashes } = compileSection(schema, libraries);
    files[`virtual:section/${index}`] = code;
    const rootHash = libraries.rjsf.hashForSchema(schema as RJSFSchema);
    const rootExport = Object.keys(hashes).find((name) => hashes[name] === rootHash);
    if (!rootExport) throw new Error(`No validator for section ${section.id}`);
    entries[`section-${index}`] = [
      `import * as s from 'virtual:section/${index}';`,
      `export const validate = s.${rootExport};`,
      `export const rjsf = {${Object.entries(hashes)
        .map(([name, hash]) => `${JSON.stringify(hash)}: s.${name}`)
        .join(', ')}};`,
      `export const schema = ${JSON.stringify(schema)};`,
    ].join('\n');
  });
  const built = await bundleModules(files, entries, libraries);
  return {
    validate: whole.validate,
    document: built.document ?? '',
    sections: new Map(
      sections.map((section, index) => [section.id, built[`section-${index}`] ?? '']),
    ),
  };
}

function virtualFiles(files: Record<string, string>): Plugin {
  return {
    name: 'virtual-files',
    setup(build) {
      build.onResolve({ filter: /^virtual:/ }, (args) => ({
        path: args.path,
        namespace: 'virtual',
      }));
      build.onLoad({ filter: /.*/, namespace: 'virtual' }, (args) => ({
        contents: files[args.path] ?? '',
        resolveDir: PROJECT_ROOT,
        loader: 'js',
      }));
    },
  };
}

/**
 * Bundles each entry (name -> source, importing `virtual:` files) into a self-contained,
 * minified ES module, all in one esbuild run: name -> module source.
 */
async function bundleModules(
  files: Record<string, string>,
  entries: Record<string, string>,
  { build }: GeneratorLibraries,
): Promise<Record<string, string>> {
  const all = { ...files };
  for (const [name, source] of Object.entries(entries)) all[`virtual:entry/${name}`] = source;
  const result = await build({
    entryPoints: Object.keys(entries).map((name) => ({ in: `virtual:entry/${name}`, out: name })),
    outdir: '/validators',
    plugins: [virtualFiles(all)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const modules: Record<string, string> = Object.fromEntries(
    result.outputFiles.map((output) => [path.basename(output.path, '.js'), output.text]),
  );
  const missing = Object.keys(entries).find((name) => modules[name] === undefined);
  if (missing !== undefined) throw new Error(`esbuild produced no module ${missing}`);
  return modules;
}
