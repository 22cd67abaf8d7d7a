import type { FastifyInstance } from 'fastify';
import { STUDIO_ROLES } from '../../core/definitions/studio-roles';
import { arrayOf, objectSchema, PROBLEM_RESPONSES } from '../api-contract/common';
import { requireAnyRole } from '../auth/plugin';
import type { Implementations } from '../implementations';

const OWNED = {
  name: { type: 'string' },
  owner: { type: 'string', description: '"engine", or "module <id>"' },
};
const PARAMETER = objectSchema(['name', 'kind', 'required'], {
  name: { type: 'string' },
  kind: {
    type: 'string',
    enum: ['status', 'pointer', 'value'],
    description: "A status of the machine, a pointer into the document's data, any JSON value",
  },
  required: { type: 'boolean' },
});

const ROUTE = {
  schema: {
    tags: ['definitions'],
    summary: 'The guards, effects and server rules definitions may name, and who offers each',
    description:
      "What the engine and this process's modules implement: the workflow designer offers " +
      'these names (and a guard its parameters), and the checker refuses any other. For ' +
      'holders of definitions-edit or definitions-publish.',
    response: {
      200: {
        description: 'Each kind, sorted by name',
        ...objectSchema(['guards', 'effects', 'rules'], {
          guards: arrayOf(
            objectSchema(['name', 'owner', 'parameters'], {
              ...OWNED,
              parameters: arrayOf(PARAMETER),
            }),
          ),
          effects: arrayOf(
            objectSchema(['name', 'owner', 'derives'], {
              ...OWNED,
              derives: {
                type: 'boolean',
                description: 'Only computes data: a form preview may run it',
              },
            }),
          ),
          rules: arrayOf(objectSchema(['name', 'owner'], OWNED)),
        }),
      },
      ...PROBLEM_RESPONSES,
    },
  },
};

/** The answer of `/api/definitions/implementations` for a process's implementations. */
export function implementationsAnswer(implementations: Implementations) {
  const sorted = (names: Iterable<string>) => [...names].sort((a, b) => a.localeCompare(b));
  const ownerOf = (kind: keyof Implementations['owners'], name: string) =>
    implementations.owners[kind].get(name) ?? 'engine';
  return {
    guards: sorted(implementations.guards.keys()).map((name) => ({
      name,
      owner: ownerOf('guard', name),
      parameters: Object.entries(implementations.guardParameters.get(name) ?? {}).map(
        ([parameter, { kind, required }]) => ({ name: parameter, kind, required }),
      ),
    })),
    effects: sorted(implementations.effects.keys()).map((name) => ({
      name,
      owner: ownerOf('effect', name),
      derives: implementations.deriving.has(name),
    })),
    rules: sorted(implementations.serverRules.keys()).map((name) => ({
      name,
      owner: ownerOf('server rule', name),
    })),
  };
}

/** `/api/definitions/implementations`: the names the workflow designer offers. */
export async function definitionImplementationsPlugin(
  app: FastifyInstance,
  options: { implementations: Implementations },
) {
  const answer = implementationsAnswer(options.implementations);
  app.get('/', ROUTE, async (request) => {
    requireAnyRole(request, STUDIO_ROLES);
    return answer;
  });
}
