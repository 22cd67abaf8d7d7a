import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import { installApiContract } from '../../src/server/api-contract/plugin';
import {
  contractChecker,
  operationsOf,
  type ContractOperation,
  type OpenApi,
} from '../support/openapi-contract';

/** What the drift fixture's routes declare: an id and a count. */
const COUNTED = {
  response: {
    200: {
      type: 'object',
      required: ['id', 'count'],
      properties: { id: { type: 'string', format: 'uuid' }, count: { type: 'integer' } },
    },
  },
} as const;
const ID = '9f1c7a52-3c1e-4b8e-9a57-2f7b8e0c1d23';

/**
 * The live contract check (openapi-live.test.ts) fails on an answer that drifted from its
 * declared schema: shown on a fixture app whose routes declare one answer and give another.
 */
describe('the contract check on a drifted answer', () => {
  let app: FastifyInstance;
  let document: OpenApi;
  let check: ReturnType<typeof contractChecker>;
  let operation: (path: string) => ContractOperation;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    const empty = { workflows: [], schemas: [], catalogs: [], version: 'drift' };
    await installApiContract(app, empty as unknown as DefinitionBundle);
    app.get('/api/drift/honest', { schema: COUNTED }, async () => ({ id: ID, count: 3 }));
    // Written by hand past the serializer: nothing stops the answer leaving as it is.
    app.get('/api/drift/by-hand', { schema: COUNTED }, async (_request, reply) =>
      reply.type('application/json').send(JSON.stringify({ id: 'seven', count: 'many' })),
    );
    // A property the schema requires is missing: the serializer refuses to write it.
    app.get('/api/drift/missing', { schema: COUNTED }, async () => ({ id: ID }));
    await app.ready();
    document = (await app.inject({ url: '/api/openapi.json' })).json() as OpenApi;
    check = contractChecker(document);
    operation = (path) => operationsOf(document).find((o) => o.path === path)!;
  });
  afterAll(async () => app?.close());

  const answerOf = (url: string) => app.inject({ url });

  it('passes an answer that matches its schema', async () => {
    expect(check(operation('/api/drift/honest'), await answerOf('/api/drift/honest'))).toEqual([]);
  });

  it('fails an answer whose values drifted from their declared types', async () => {
    const problems = check(operation('/api/drift/by-hand'), await answerOf('/api/drift/by-hand'));
    expect(problems).toEqual([
      'status 200: /id must match format "uuid"',
      'status 200: /count must be integer',
    ]);
  });

  it('fails an answer the serializer could not write', async () => {
    const answer = await answerOf('/api/drift/missing');
    expect(answer.statusCode).toBe(500);
    expect(check(operation('/api/drift/missing'), answer)).toEqual([
      'status 500 is not declared (200)',
    ]);
  });

  it('fails a live answer mutated on its way', async () => {
    const answer = await answerOf('/api/drift/honest');
    const mutated = { ...answer, body: JSON.stringify({ ...answer.json(), count: 2.5 }) };
    expect(check(operation('/api/drift/honest'), mutated)).toEqual([
      'status 200: /count must be integer',
    ]);
  });
});
