import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { hashForSchema, RJSF_ADDITIONAL_PROPERTIES_FLAG, schemaParser } from '@rjsf/utils';
import type { RJSFSchema } from '@rjsf/utils';
import { build, type Plugin } from 'esbuild';
import { catalogEntrySchema } from '../../core/definitions/catalog-entry';
import type { DefinitionBundle, JsonSchema } from '../../core/definitions/types';
import { unknownRules } from '../../core/rules/registry';
import { sectionSchema, sectionsOf, type EntityFormDefinition } from '../../core/rules/sections';
import { createAjv } from './ajv';
import { PROJECT_ROOT } from '../config';

export type ValidatorKind = 'catalog' | 'schema';

/** Validators for every definition: compiled in process for the server, and as browser modules. */
export interface ValidatorSet {
  get(kind: ValidatorKind, id: string): ValidateFunction | undefined;
  /**
   * Self-contained ES module the browser imports, exporting `validate` (also the default):
   * a catalogue entry's validator, or an entity's whole document.
   */
  module(kind: ValidatorKind, id: string): string | undefined;
  /** The ES module of one section of an entity: see `entityValidatorModules`. */
  sectionModule(entityId: string, sectionId: string): string | undefined;
}

/**
 * Compiles each definition's schema once at start. The browser runs under a CSP without
 * 'unsafe-eval', so it cannot compile; it imports the standalone code generated here, bundled
 * with its Ajv runtime helpers into same-origin modules.
 */
export async function compileValidators(bundle: DefinitionBundle): Promise<ValidatorSet> {
  const validators = new Map<string, ValidateFunction>();
  const modules = new Map<string, string>();
  const catalogs = bundle.catalogs.map(async (c) => {
    const { validate, code } = compileWhole(catalogEntrySchema(c));
    validators.set(`catalog/${c.id}`, validate);
    const entry = `export { default, default as validate } from 'virtual:code';`;
    const built = await bundleModules({ 'virtual:code': code }, { validate: entry });
    modules.set(`catalog/${c.id}`, built.validate ?? '');
  });
  const schemas = bundle.schemas.map(async (s) => {
    const definition = s as EntityFormDefinition;
    const unknown = unknownRules(definition.rules ?? []);
    if (unknown.length > 0) {
      throw new Error(
        `schemas/${s.id}.schema.json: unknown rule(s) ${unknown.map((u) => u.rule).join(', ')}`,
      );
    }
    const { validate, document, sections } = await entityValidatorModules(definition);
    validators.set(`schema/${s.id}`, validate);
    modules.set(`schema/${s.id}`, document);
    for (const [sectionId, source] of sections) modules.set(`section/${s.id}/${sectionId}`, source);
  });
  await Promise.all([...catalogs, ...schemas]);
  return {
    get: (kind, id) => validators.get(`${kind}/${id}`),
    module: (kind, id) => modules.get(`${kind}/${id}`),
    sectionModule: (entityId, sectionId) => modules.get(`section/${entityId}/${sectionId}`),
  };
}

/**
 * The definitions loader has checked every schema against its meta-schema (load.ts): checking
 * it again here would compile the meta-schema once per Ajv instance, one per document, catalogue
 * and section, about a second of every start.
 */
const CHECKED_AT_LOAD = { validateSchema: false } as const;

/** The whole-document validator: in process, and its standalone ES module code. */
function compileWhole(schema: JsonSchema): { validate: ValidateFunction; code: string } {
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
function compileSection(schema: JsonSchema): { code: string; hashes: Record<string, string> } {
  const schemaMap = schemaParser(schema as RJSFSchema);
  const ajv = createAjv({
    code: { source: true, esm: true, lines: false },
    // The whole document was compiled in strict mode already; RJSF's extracted sub-schemas
    // (conditions without `type`) would only produce strict-types warnings.
    strictTypes: false,
    strictTuples: false,
    ...CHECKED_AT_LOAD,
    schemas: Object.values(schemaMap),
  });
  ajv.addKeyword(RJSF_ADDITIONAL_PROPERTIES_FLAG);
  const refs: Record<string, string> = {};
  Object.keys(schemaMap).forEach((hash, index) => (refs[`v${index}`] = hash));
  return { code: standaloneCode(ajv, refs), hashes: refs };
}

/** An entity's browser modules, and its whole-document validator for the server. */
export interface EntityValidatorModules {
  validate: ValidateFunction;
  /** The whole document: exports `validate` (also the default), same options as the server. */
  document: string;
  /**
   * Section id -> its module, exporting:
   * - `validate`: the section's validator, for `{ [sectionId]: value }`;
   * - `schema`: the section schema (`sectionSchema`) the functions were compiled from;
   * - `rjsf`: RJSF `ValidatorFunctions` (schema hash -> function) for
   *   `createPrecompiledValidator(rjsf, schema)`, so the browser never compiles.
   */
  sections: Map<string, string>;
}

/**
 * The entity's browser modules: one for the whole document and one per section, so a form
 * paints its open section as soon as that section's few kilobytes are loaded, and the whole
 * document's validator (the largest part, up to 0.25 MB for the visa application) comes after.
 * Bundled in one esbuild run; each module carries the Ajv runtime helpers it uses.
 */
export async function entityValidatorModules(
  definition: EntityFormDefinition,
): Promise<EntityValidatorModules> {
  const whole = compileWhole(definition.schema);
  const files: Record<string, string> = { 'virtual:document': whole.code };
  const entries: Record<string, string> = {
    document: [
      `import validate from 'virtual:document';`,
      `export { validate };`,
      `export default validate;`,
    ].join('\n'),
  };
  const sections = sectionsOf(definition);
  sections.forEach((section, index) => {
    const schema = sectionSchema(definition.schema, section.id);
    const { code, hashes } = compileSection(schema);
    files[`virtual:section/${index}`] = code;
    const rootHash = hashForSchema(schema as RJSFSchema);
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
  const built = await bundleModules(files, entries);
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
  const modules: Record<string, string> = {};
  for (const output of result.outputFiles) {
    modules[path.basename(output.path, '.js')] = output.text;
  }
  for (const name of Object.keys(entries)) {
    if (modules[name] === undefined) throw new Error(`esbuild produced no module ${name}`);
  }
  return modules;
}
