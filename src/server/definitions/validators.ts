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
   * Self-contained ES module the browser imports. Catalogues: `validate` (also the default).
   * Entities: see `entityValidatorModule`.
   */
  module(kind: ValidatorKind, id: string): string | undefined;
}

/**
 * Compiles each definition's schema once at start. The browser runs under a CSP without
 * 'unsafe-eval', so it cannot compile; it imports the standalone code generated here, bundled
 * with its Ajv runtime helpers into one same-origin module.
 */
export async function compileValidators(bundle: DefinitionBundle): Promise<ValidatorSet> {
  const validators = new Map<string, ValidateFunction>();
  const modules = new Map<string, string>();
  const catalogs = bundle.catalogs.map(async (c) => {
    const { validate, code } = compileWhole(catalogEntrySchema(c));
    validators.set(`catalog/${c.id}`, validate);
    modules.set(`catalog/${c.id}`, await bundleModule({ 'virtual:entry': code }));
  });
  const schemas = bundle.schemas.map(async (s) => {
    const definition = s as EntityFormDefinition;
    const unknown = unknownRules(definition.rules ?? []);
    if (unknown.length > 0) {
      throw new Error(
        `schemas/${s.id}.schema.json: unknown rule(s) ${unknown.map((u) => u.rule).join(', ')}`,
      );
    }
    const { validate, source } = await entityValidatorModule(definition);
    validators.set(`schema/${s.id}`, validate);
    modules.set(`schema/${s.id}`, source);
  });
  await Promise.all([...catalogs, ...schemas]);
  return {
    get: (kind, id) => validators.get(`${kind}/${id}`),
    module: (kind, id) => modules.get(`${kind}/${id}`),
  };
}

/** The whole-document validator: in process, and its standalone ES module code. */
function compileWhole(schema: JsonSchema): { validate: ValidateFunction; code: string } {
  const ajv = createAjv({ code: { source: true, esm: true } });
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
    schemas: Object.values(schemaMap),
  });
  ajv.addKeyword(RJSF_ADDITIONAL_PROPERTIES_FLAG);
  const refs: Record<string, string> = {};
  Object.keys(schemaMap).forEach((hash, index) => (refs[`v${index}`] = hash));
  return { code: standaloneCode(ajv, refs), hashes: refs };
}

/**
 * The entity's browser module. Exports:
 * - `validate` (also the default): the whole document, same options as the server;
 * - `sections`: section id -> validate function for `{ [sectionId]: value }`;
 * - `sectionSchemas`: section id -> the schema `sections[id]` and `rjsf[id]` were built from;
 * - `rjsf`: section id -> RJSF `ValidatorFunctions` (schema hash -> function) for
 *   `createPrecompiledValidator(rjsf[id], sectionSchemas[id])`, so the browser never compiles.
 */
export async function entityValidatorModule(
  definition: EntityFormDefinition,
): Promise<{ validate: ValidateFunction; source: string }> {
  const whole = compileWhole(definition.schema);
  const files: Record<string, string> = { 'virtual:document': whole.code };
  const lines = [`import validate from 'virtual:document';`];
  const sectionEntries: string[] = [];
  const rjsfEntries: string[] = [];
  const schemaEntries: string[] = [];
  sectionsOf(definition).forEach((section, index) => {
    const schema = sectionSchema(definition.schema, section.id);
    const { code, hashes } = compileSection(schema);
    files[`virtual:section/${index}`] = code;
    lines.push(`import * as s${index} from 'virtual:section/${index}';`);
    const rootHash = hashForSchema(schema as RJSFSchema);
    const rootExport = Object.keys(hashes).find((name) => hashes[name] === rootHash);
    if (!rootExport) throw new Error(`No validator for section ${section.id}`);
    const key = JSON.stringify(section.id);
    sectionEntries.push(`${key}: s${index}.${rootExport}`);
    rjsfEntries.push(
      `${key}: {${Object.entries(hashes)
        .map(([name, hash]) => `${JSON.stringify(hash)}: s${index}.${name}`)
        .join(', ')}}`,
    );
    schemaEntries.push(`${key}: ${JSON.stringify(schema)}`);
  });
  lines.push(
    `export { validate };`,
    `export default validate;`,
    `export const sections = {${sectionEntries.join(', ')}};`,
    `export const rjsf = {${rjsfEntries.join(', ')}};`,
    `export const sectionSchemas = {${schemaEntries.join(', ')}};`,
  );
  files['virtual:entry'] = lines.join('\n');
  return { validate: whole.validate, source: await bundleModule(files) };
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

async function bundleModule(files: Record<string, string>): Promise<string> {
  const result = await build({
    stdin: { contents: files['virtual:entry'] ?? '', resolveDir: PROJECT_ROOT, loader: 'js' },
    plugins: [virtualFiles(files)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no validator module');
  return output.text;
}
