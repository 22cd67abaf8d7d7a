import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { createAjv } from '../definitions/ajv';

/**
 * How the routes' schemas check a request (docs/api.md, "The API contract"): the schema a route
 * declares beside its handler is what Fastify checks its parameters, query string and body
 * against, before the handler runs; a refusal is the error handler's translated 400 naming each
 * field (error-handler.ts reads `error.validation`). Every error is reported, not the first.
 *
 * Bodies are taken as sent (no coercion, no defaults filled in: a `default` documents what the
 * handler assumes); query strings arrive as text, so they are coerced as Fastify does (a
 * `limit` arrives as text and the handler reads an integer).
 */
const bodies = createAjv({ strictTypes: false, removeAdditional: true });
const queries = createAjv({ strictTypes: false, coerceTypes: 'array' });
// A file's content in the contract: never a JSON value to check.
for (const ajv of [bodies, queries]) ajv.addFormat('binary', true);

/** A compiled check; Fastify reads the errors of a refusal from the function's `errors`. */
type Check = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

function queryCheck(schema: object): Check {
  const compiled = queries.compile(schema);
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

/**
 * The schema without what the contract names of the definitions (`#/components/schemas/
 * entity.account`): that part is the handler's to check, with the definition's own compiled
 * validator and its texts; the route's schema checks the rest.
 */
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
    const compiled = bodies.compile(checked);
    // No body is read as an empty one, as the handlers read it: its required fields are missing.
    const check: Check = (data) => {
      const valid = compiled(data ?? {});
      check.errors = compiled.errors;
      return valid;
    };
    return check;
  });
}
