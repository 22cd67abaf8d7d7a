import fs from 'node:fs/promises';
import path from 'node:path';
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { DefinitionBundle } from '../../core/definitions/types';
import { formCatalogs } from '../catalog/form-catalogs';
import { PROJECT_ROOT } from '../config';
import { installValidation } from '../http/validation';
import { definitionContract } from './definition-paths';

/** Where the contract and its reference page are served. */
export const OPENAPI_PATH = '/api/openapi.json';
export const REFERENCE_PAGE_PATH = '/api/docs';

/**
 * Routes that are not the portal's API: the identity server (OIDC protocol, its own standard),
 * the sandbox payment page, the development outbox and the contract's own pages.
 */
function isApi(url: string): boolean {
  if (!url.startsWith('/api/')) return false;
  if (url === '/api/outbox') return false;
  return !(url === OPENAPI_PATH || url.startsWith(REFERENCE_PAGE_PATH));
}

/** The fixed parts of the API, in the order the reference page shows them. */
const FIXED_TAGS = [
  { name: 'service', description: 'Health of the process and its database' },
  { name: 'definitions', description: 'The definitions the portal is made of, for the browser' },
  { name: 'dashboard', description: 'My Library, My Tasks, statistics, the public document check' },
  { name: 'challenge', description: 'Confirmation codes by SMS or e-mail' },
  { name: 'media', description: 'Uploaded files, kept by reference in documents' },
  { name: 'payments', description: 'Fees paid through the payment gateway' },
  { name: 'catalogue', description: 'Enumerations shared by every catalogue' },
  {
    name: 'account',
    description:
      "The signed-in person's own account: sessions, passkeys, recovery codes, their data",
  },
  { name: 'retention', description: 'How long closed documents are kept: the dry run and the run' },
];

/**
 * The API contract: `@fastify/swagger` gathers every route's schema as routes are registered
 * (so this runs before them), hides what is not the API and the generic routes, and adds one
 * path per workflow, action, list and catalogue from the definitions; `GET /api/openapi.json`
 * serves it (OpenAPI 3.1) and `/api/docs` a reference page whose scripts are all our own files
 * (the portal's Content-Security-Policy applies unchanged).
 */
export async function installApiContract(
  app: FastifyInstance,
  definitions: DefinitionBundle,
  moduleTags: readonly { name: string; description: string }[] = [],
): Promise<void> {
  // The same schemas check every route's request (http/validation.ts).
  installValidation(app);
  const generated = definitionContract(
    definitions,
    formCatalogs(definitions.schemas, definitions.workflows),
  );

  const transform: SwaggerTransform = ({ schema, url }) => {
    if (!isApi(url)) return { schema: { ...schema, hide: true } as FastifySchema, url };
    return {
      schema,
      // A plugin's root route (`/api/media/`) answers without the slash too: listed without it.
      url: url.replace(/(.)\/$/, '$1'),
    };
  };

  const transformObject: SwaggerTransformObject = (documentObject) => {
    // Registered with `openapi` options: the object is always an OpenAPI 3.1 one.
    const document = 'openapiObject' in documentObject ? documentObject.openapiObject : {};
    return {
      ...document,
      paths: { ...document.paths, ...generated.paths },
      components: {
        ...document.components,
        schemas: { ...document.components?.schemas, ...generated.schemas },
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'An access token of the identity server',
          },
        },
      },
      security: [{ bearer: [] }, {}],
      // The fixed parts first, then one tag per workflow and per catalogue.
      tags: [...FIXED_TAGS, ...moduleTags, ...(document.tags ?? []), ...generated.tags],
    } as ReturnType<SwaggerTransformObject>;
  };

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Immigration portal API',
        version: definitions.version,
        description:
          'Generated from the definitions (workflows/, schemas/, catalogs/) at start. Every request may carry `locale` and `Accept-Language`; messages come back in that language. Errors: docs/api.md.',
      },
    },
    transform,
    transformObject,
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );

  await app.register(swaggerUi, {
    routePrefix: REFERENCE_PAGE_PATH,
    // No call to an outside validator, and nothing but our own scripts (the portal's CSP).
    validatorUrl: false,
    theme: { title: 'Immigration portal API' },
    // The portal's own mark, linking back to it (the page is ours, not the framework's).
    logo: {
      type: 'image/svg+xml',
      content: await fs.readFile(path.join(PROJECT_ROOT, 'src/portal/public/icon.svg')),
      href: '/',
      target: '_self',
    },
    uiConfig: { deepLinking: true, docExpansion: 'none', defaultModelsExpandDepth: 0 },
  });
}
