import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFieldKinds } from '../../src/core/definitions/catalog-entry';
import { isEnabled } from '../../src/core/definitions/types';
import { creatingActions, documentActions } from '../../src/server/api-contract/definition-paths';
import { formCatalogs } from '../../src/server/catalog/form-catalogs';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
};
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
};

describe.each(databaseKinds())('the API contract (OpenAPI document) on %s', (kind) => {
  let api: ApiHarness;
  let document: OpenApi;
  beforeAll(async () => {
    api = await startApiServer(kind, { referenceData: false });
    const response = await api.call('GET', '/api/openapi.json');
    expect(response.statusCode).toBe(200);
    document = response.json() as OpenApi;
  });
  afterAll(async () => api?.close());

  /** The operation at `method path`, failing with the paths there are when it is missing. */
  const operation = (method: string, path: string): Operation => {
    const found = document.paths[path]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    return found;
  };
  const body = (op: Operation) => op.requestBody?.content['application/json']?.schema;
  /** Whether the operation answers its success with a body schema (JSON or a file). */
  const answers = (op: Operation, status: string) => {
    const response = op.responses[status];
    return status === '204'
      ? response !== undefined
      : Object.values(response?.content ?? {}).some((c) => c.schema !== undefined);
  };
  const resolve = (schema: Json | undefined): Json | undefined => {
    const ref = schema?.$ref;
    if (typeof ref !== 'string') return schema;
    return document.components.schemas[ref.replace('#/components/schemas/', '')];
  };

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names only components it defines', () => {
    const refs = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (typeof node === 'object' && node !== null) {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.add(value);
          else visit(value);
        }
      }
    };
    visit(document);
    expect(refs.size).toBeGreaterThan(0);
    const missing = [...refs].filter((ref) => resolve({ $ref: ref }) === undefined);
    expect(missing).toEqual([]);
  });

  it('lists every action of every workflow, with the entity schema as data', () => {
    const { workflows } = api.server.definitions;
    expect(workflows.length).toBeGreaterThan(0);
    for (const workflow of workflows) {
      const base = `/api/${workflow.backend ?? 'evisa'}/${workflow.id}`;
      const entity = `#/components/schemas/entity.${workflow.document}`;
      expect(document.components.schemas[`entity.${workflow.document}`]).toBeTypeOf('object');
      const create = operation('post', base);
      expect(answers(create, '201')).toBe(true);
      const createBody = body(create)!;
      expect((createBody.properties as Json).data).toEqual({ $ref: entity });
      const creating = ((createBody.properties as Json).action as Json).enum as string[];
      expect(answers(operation('get', `${base}/{id}`), '200')).toBe(true);
      const acted = documentActions(workflow);
      for (const action of acted) {
        const op = operation('post', `${base}/{id}/actions/${action}`);
        expect(body(op), `${workflow.id} ${action}`).toBeTypeOf('object');
        expect(answers(op, '200')).toBe(true);
        if ((workflow.actions[action]?.payload ?? 'none') === 'data')
          expect((body(op)!.properties as Json).data).toEqual({ $ref: entity });
      }
      // Every action but the server's own is reachable: on a document, or creating one.
      for (const [action, definition] of Object.entries(workflow.actions)) {
        if (definition.system) continue;
        expect(
          acted.includes(action) || creating.includes(action),
          `${workflow.id}: action ${action} is in the document`,
        ).toBe(true);
      }
      expect(creating).toEqual(creatingActions(workflow));
    }
  });

  it('lists every list of every workflow as a search body of its collection', () => {
    for (const workflow of api.server.definitions.workflows) {
      const search = operation('patch', `/api/${workflow.backend ?? 'evisa'}/${workflow.id}`);
      expect(answers(search, '200')).toBe(true);
      const bodies = ((body(search)!.anyOf as Json[]) ?? []).map(resolve);
      for (const list of workflow.lists) {
        const found = bodies.find(
          (b) => ((b?.properties as Json)?.list as Json)?.const === list.id,
        );
        expect(found, `${workflow.id}: list ${list.id}`).toBeDefined();
        const filter = (found!.properties as Json).filter as Json;
        const fields = ((filter.items as Json).properties as Json).field as Json;
        for (const column of list.columns.filter((c) => c.pointer))
          expect(fields.enum).toContain(column.field);
      }
    }
  });

  it("lists every catalogue's endpoints with its entry schema", () => {
    const { catalogs, schemas } = api.server.definitions;
    const forms = formCatalogs(schemas);
    for (const catalog of catalogs.filter(isEnabled)) {
      const base = `/api/catalog/v1/${catalog.id}`;
      const entry = { $ref: `#/components/schemas/catalog.${catalog.id}` };
      const data = resolve(entry)!;
      expect(Object.keys(data.properties as Json)).toEqual(
        expect.arrayContaining(Object.keys(catalogFieldKinds(catalog))),
      );
      const search = operation('patch', base);
      expect(body(search)).toBeTypeOf('object');
      expect(answers(search, '200')).toBe(true);
      const create = operation('post', base);
      expect(body(create)).toEqual(entry);
      expect(answers(create, '201')).toBe(true);
      expect(answers(operation('get', `${base}/{id}`), '200')).toBe(true);
      const update = operation('put', `${base}/{id}`);
      expect((body(update)!.properties as Json).data).toEqual(entry);
      expect(answers(update, '200')).toBe(true);
      expect(answers(operation('delete', `${base}/{id}`), '204')).toBe(true);
      const importing = operation('post', `${base}/import`);
      expect((body(importing)!.properties as Json).entries).toMatchObject({ items: entry });
      expect(answers(importing, '200')).toBe(true);
      if (forms.has(catalog.id))
        expect(answers(operation('get', `${base}/options`), '200')).toBe(true);
    }
  });

  it('gives every API operation a response schema, and every body a request schema', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      expect(path.startsWith('/api/'), path).toBe(true);
      for (const [method, op] of Object.entries(item)) {
        const success = Object.keys(op.responses).filter((s) => /^2/.test(s));
        expect(success.length, `${method} ${path}`).toBeGreaterThan(0);
        for (const status of success) expect(answers(op, status), `${method} ${path}`).toBe(true);
        if (['post', 'put', 'patch'].includes(method) && op.requestBody)
          expect(Object.values(op.requestBody.content)[0]?.schema).toBeTypeOf('object');
      }
    }
  });

  it('leaves out the generic routes, the identity server, the sandbox gateway and the outbox', () => {
    const paths = Object.keys(document.paths);
    expect(paths.filter((p) => p.includes('{type}') || p.includes('{catalogId}'))).toEqual([]);
    expect(paths.filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(paths).not.toContain('/api/outbox');
  });

  it('serves a reference page that loads only same-origin scripts', async () => {
    const page = await api.call('GET', '/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const html = page.body;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attributes ?? '')?.[1];
      expect(src, 'every script is a file').toBeDefined();
      expect(content?.trim(), 'no inline script').toBe('');
      expect(new URL(src!, 'http://portal.test/api/docs').origin).toBe('http://portal.test');
      const script = await api.call('GET', new URL(src!, 'http://portal.test/api/docs').pathname);
      expect(script.statusCode, src).toBe(200);
    }
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
  });
});
