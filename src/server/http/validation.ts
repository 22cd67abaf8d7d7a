import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { createAjv } from '../definitions/ajv';
import { compiledOnce } from '../definitions/compiled-once';

/**
 * How the routes' schemas check a request (docs/api.md, "The API contract"). Bodies are taken
 * as sent (a `default` only documents what the handler assumes); query strings are coerced.
 */
const bodies = createAjv({ strictTypes: false, removeAdditional: true });
const queries = createAjv({ strictTypes: false, coerceTypes: 'array' });
// A file's content in the contract: never a JSON value to check.
for (const ajv of [bodies, queries]) ajv.addFormat('binary', true);
// Each server build gives the routes' schemas as new objects: compiled once per text.
const compileBody = compiledOnce(bodies);
const compileQuery = compiledOnce(queries);

/** A compiled check; Fastify reads the errors of a refusal from the function's `errors`. */
type Check = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

function queryCheck(schema: object): Check {
  const compiled = compileQuery(schema);
  const check: Check = (query) => {
    const valid = compiled(query);
    check.errors = compiled.errors;
    // Ajv turns `1e400` into Infinity and then checks no bound on it: not a number anyone meant.
    const values = (query ?? {}) as Record<string, unknown>;
    const infinite = valid
      ? Object.keys(values).find((name) => Math.abs(values[name] as number) === Infinity)
      : undefined;
    if (infinite === undefined) return valid;
    check.errors = [
      { instancePath: `/${infinite}`, schemaPath: '', keyword: 'type', params: { type: 'number' } },
    ];
    return false;
  };
  return check;
}

/** The schema without the definitions' parts (`#/components/schemas/…`): the handler checks those. */
function withoutDefinitions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDefinitions);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $ref } = schema as { $ref?: unknown };
  if (typeof $ref === 'string' && $ref.startsWith('#/components/schemas/')) return {};
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, withoutDefinitions(value)]),
  );
}

export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart, contentType }) => {
    // A multipart body streams to the handler, which reads and checks its parts as they come.
    if (contentType === 'multipart/form-data') return () => true;
    const checked = withoutDefinitions(schema) as object;
    if (httpPart === 'querystring') return queryCheck(checked);
    const compiled = compileBody(checked);
    // No body is read as an empty one, as the handlers read it: its required fields are missing.
    const check: Check = (data) => {
      const valid = compiled(data ?? {});
      check.errors = compiled.errors;
      return valid;
    };
    return check;
  });
}
