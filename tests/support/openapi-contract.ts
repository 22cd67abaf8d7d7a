import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

/**
 * The API contract as a test reads it (`/api/openapi.json`): its operations, and a check of a
 * live answer against the operation's declared answer for that status.
 */

type Json = Record<string, unknown>;
export interface Operation {
  operationId?: string;
  parameters?: Array<{
    name: string;
    in: string;
    required?: boolean;
    schema?: Json;
    example?: unknown;
    examples?: Record<string, { value: unknown }>;
  }>;
  requestBody?: { content: Record<string, { schema?: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}
/** One operation of the document: `PATCH /api/evisa/visa-application`. */
export interface ContractOperation {
  method: string;
  path: string;
  operation: Operation;
}

export function operationsOf(document: OpenApi): ContractOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsPlugin as unknown as { default?: AddFormats }).default ??
  (addFormatsPlugin as unknown as AddFormats);

const CONTRACT_ID = 'https://portal.test/openapi.json';

/** `#/components/...` as seen from outside the document. */
function absolute(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absolute);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${CONTRACT_ID}${value}`
        : absolute(value),
    ]),
  );
}

/**
 * Checks answers against the document: the status must be one the operation declares (itself,
 * or its class `4XX`/`5XX`), and a JSON body must match that answer's schema; a declared
 * answer without a body must have none. Answers the problems found, none when it matches.
 */
export function contractChecker(document: OpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: CONTRACT_ID, components: document.components });
  const compiled = new Map<string, ValidateFunction>();

  return (
    operation: ContractOperation,
    answer: { statusCode: number; headers: Record<string, unknown>; body: string },
  ): string[] => {
    const { responses } = operation.operation;
    const status = String(answer.statusCode);
    const declared = responses[status] ?? responses[`${status[0]}XX`];
    if (!declared) return [`status ${status} is not declared (${Object.keys(responses)})`];
    const type = String(answer.headers['content-type'] ?? '').split(';')[0]!;
    const content = declared.content;
    if (!content) return answer.body === '' ? [] : [`status ${status} declares no body`];
    const media = content[type];
    if (!media) return [`status ${status} declares no ${type || 'missing'} body`];
    if (type !== 'application/json' || !media.schema) return [];
    const key = `${operation.method} ${operation.path} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(absolute(media.schema) as Json);
      compiled.set(key, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`status ${status}: the body is not JSON`];
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `status ${status}: ${error.instancePath || '/'} ${error.message ?? error.keyword}`,
    );
  };
}

/**
 * A value the schema accepts, as small as it can be: each required property, the first of an
 * enumeration or of `anyOf`/`oneOf`, the lower bound of a number. Enough for a request the
 * operation reads; a test gives the values that must be real (ids, versions).
 */
export function sampleOf(schema: Json | undefined, document: OpenApi): unknown {
  if (!schema) return undefined;
  const ref = schema.$ref;
  if (typeof ref === 'string')
    return sampleOf(document.components.schemas[ref.split('/').pop()!], document);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const choice = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (choice?.length) return sampleOf(choice[0], document);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(
        required.map((name) => [name, sampleOf(properties[name], document)]),
      );
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () =>
        sampleOf(schema.items as Json, document),
      );
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return schema.format === 'date-time'
        ? new Date().toISOString()
        : schema.format === 'date'
          ? new Date().toISOString().slice(0, 10)
          : 'x'.repeat(Number(schema.minLength ?? 1));
    default:
      return {};
  }
}
