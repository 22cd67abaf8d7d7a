import type { ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { build } from 'esbuild';
import { catalogEntrySchema } from '../../core/definitions/catalog-entry';
import type { DefinitionBundle, JsonSchema } from '../../core/definitions/types';
import { createAjv } from './ajv';
import { PROJECT_ROOT } from '../config';

export type ValidatorKind = 'catalog' | 'schema';

/** Validators for every definition: compiled in process for the server, and as browser modules. */
export interface ValidatorSet {
  get(kind: ValidatorKind, id: string): ValidateFunction | undefined;
  /** Self-contained ES module exporting `validate` as default: what the browser imports. */
  module(kind: ValidatorKind, id: string): string | undefined;
}

/**
 * Compiles each definition's schema once at start. The browser runs under a CSP without
 * 'unsafe-eval', so it cannot compile; it imports the standalone code generated here, bundled
 * with its Ajv runtime helpers into one same-origin module.
 */
export async function compileValidators(bundle: DefinitionBundle): Promise<ValidatorSet> {
  const targets: Array<{ kind: ValidatorKind; id: string; schema: JsonSchema }> = [
    ...bundle.catalogs.map((c) => ({
      kind: 'catalog' as const,
      id: c.id,
      schema: catalogEntrySchema(c),
    })),
    ...bundle.schemas.map((s) => ({ kind: 'schema' as const, id: s.id, schema: s.schema })),
  ];
  const validators = new Map<string, ValidateFunction>();
  const modules = new Map<string, string>();
  await Promise.all(
    targets.map(async ({ kind, id, schema }) => {
      const ajv = createAjv({ code: { source: true, esm: true } });
      const { $id: _ignored, ...withoutId } = schema;
      const validate = ajv.compile(withoutId);
      validators.set(`${kind}/${id}`, validate);
      modules.set(`${kind}/${id}`, await bundleModule(standaloneCode(ajv, validate)));
    }),
  );
  return {
    get: (kind, id) => validators.get(`${kind}/${id}`),
    module: (kind, id) => modules.get(`${kind}/${id}`),
  };
}

async function bundleModule(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: PROJECT_ROOT, loader: 'js' },
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
