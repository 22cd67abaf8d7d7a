import { CATALOG_IMPORT_MAX_ROWS } from '../../core/definitions/catalog-csv';
import {
  ASSIGNEES,
  CATALOG_IMPORT_RESULT,
  catalogImportBodySchema,
  CODE_NAME_ITEMS,
  DATE_TIME,
  documented,
  documentViewSchema,
  DERIVED_VALUES,
  HISTORY_ENTRY,
  NO_CONTENT,
  NULLABLE_STRING,
  PAYMENT_STATE,
  PDF_RESPONSE,
  PROBLEM_RESPONSES,
  TRANSLATIONS_SCHEMA,
  searchRequestSchema,
  searchResultSchema,
  servedPerDefinition,
  stringParams,
  catalogEntryRecordSchema,
  documentSummarySchema,
  UUID_STRING,
  VERSION_SUMMARY,
  type ContractSchema,
} from './common';

/**
 * The schemas the API's routes declare (`app.get(url, ROUTE.x, handler)`), for the contract.
 * Fixed routes are described here in full; the generic routes serving every workflow or
 * catalogue declare their generic shape and stay out of the document, which lists one path per
 * workflow, action, list and catalogue instead (definition-paths.ts).
 */

const ANY_OBJECT: ContractSchema = { type: 'object', additionalProperties: true };
const GENERIC_DOCUMENT = documentViewSchema(ANY_OBJECT);
const LIBRARY_FIELDS = [
  'workflow',
  'documentType',
  'number',
  'reference',
  'status',
  'submittedAt',
  'createdAt',
  'updatedAt',
];
const LIBRARY_ROW: ContractSchema = {
  type: 'object',
  properties: {
    workflow: { type: 'string' },
    documentType: { type: 'string' },
    id: UUID_STRING,
    number: NULLABLE_STRING,
    reference: NULLABLE_STRING,
    status: { type: 'string' },
    updatedAt: DATE_TIME,
    submittedAt: { type: ['string', 'null'], format: 'date-time' },
  },
};
const TASK_ROW: ContractSchema = {
  type: 'object',
  properties: {
    ...(LIBRARY_ROW.properties as Record<string, unknown>),
    assignee: NULLABLE_STRING,
    reason: { type: 'string', enum: ['assigned', 'queue', 'owner'] },
    list: NULLABLE_STRING,
  },
};
const COUNTS = (key: string): ContractSchema => ({
  type: 'array',
  items: {
    type: 'object',
    required: [key, 'count'],
    properties: { [key]: { type: 'string' }, count: { type: 'integer' } },
  },
});

export const HEALTH_ROUTES = {
  health: documented({
    tags: ['service'],
    summary: 'Whether the process can serve and its database answers',
    response: {
      200: {
        description: 'Serving',
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['ok', 'unavailable'] },
          database: {
            type: 'object',
            properties: {
              kind: { type: 'string' },
              status: { type: 'string', enum: ['up', 'down'] },
            },
          },
          definitions: {
            type: 'object',
            description: 'The definition set the process loaded: equal on processes that agree',
            properties: { digest: { type: 'string' } },
          },
        },
      },
      503: { description: 'The database does not answer', type: 'object' },
    },
  }),
};

export const DEFINITIONS_ROUTES = {
  bundle: documented({
    tags: ['definitions'],
    summary: 'The definitions bundle: modules, catalogues, schemas, workflows, translations',
    description: 'Revalidated with ETag (304 while unchanged); brotli or gzip when accepted.',
    response: {
      200: {
        description: 'The bundle',
        type: 'object',
        properties: {
          modules: { type: 'array', items: ANY_OBJECT },
          catalogs: { type: 'array', items: ANY_OBJECT },
          schemas: { type: 'array', items: ANY_OBJECT },
          workflows: { type: 'array', items: ANY_OBJECT },
          translations: ANY_OBJECT,
          version: { type: 'string' },
        },
      },
      304: { description: 'Not modified', type: 'null' },
    },
  }),
  index: documented({
    tags: ['definitions'],
    summary: 'What every page of the portal needs: modules, catalogues, workflows, shared texts',
    description:
      "The bundle without the entities' schemas and their own texts (but for their titles and " +
      "the labels of their lists, menu entries and screens), with each entity's sections; " +
      "the portal fetches a document type's part when one of its pages opens. Revalidated " +
      'with ETag (304 while unchanged); brotli or gzip when accepted.',
    response: {
      200: {
        description: 'The index',
        type: 'object',
        properties: {
          version: { type: 'string' },
          modules: { type: 'array', items: ANY_OBJECT },
          catalogs: { type: 'array', items: ANY_OBJECT },
          workflows: { type: 'array', items: ANY_OBJECT },
          documents: {
            type: 'object',
            description: 'Entity id -> its sections in order (id, officer, internal, when)',
            additionalProperties: { type: 'array', items: ANY_OBJECT },
          },
          translations: ANY_OBJECT,
        },
      },
      304: { description: 'Not modified', type: 'null' },
    },
  }),
  document: documented({
    tags: ['definitions'],
    summary: "One document type's entity definition and its own texts, in every language",
    description: 'Revalidated with ETag (304 while unchanged); brotli or gzip when accepted.',
    params: stringParams('id'),
    response: {
      200: {
        description: 'The document type',
        type: 'object',
        properties: {
          schema: ANY_OBJECT,
          translations: ANY_OBJECT,
        },
      },
      304: { description: 'Not modified', type: 'null' },
      ...PROBLEM_RESPONSES,
    },
  }),
  validator: documented({
    tags: ['definitions'],
    summary:
      "A precompiled validator module: a catalogue entry's, or an entity's whole document (`validate`, also the default export)",
    params: {
      type: 'object',
      required: ['kind', 'file'],
      properties: {
        kind: { type: 'string', enum: ['schema', 'catalog'] },
        file: { type: 'string', description: '`<id>.js`' },
      },
    },
    response: {
      200: {
        description: 'An ES module',
        content: { 'text/javascript': { schema: { type: 'string' } } },
      },
      304: { description: 'Not modified', type: 'null' },
      ...PROBLEM_RESPONSES,
    },
  }),
  sectionValidator: documented({
    tags: ['definitions'],
    summary:
      "The precompiled validators of one section of an entity: `validate`, `schema` and RJSF's `rjsf` functions",
    params: {
      type: 'object',
      required: ['entity', 'file'],
      properties: {
        entity: { type: 'string' },
        file: { type: 'string', description: '`<section id>.js`' },
      },
    },
    response: {
      200: {
        description: 'An ES module',
        content: { 'text/javascript': { schema: { type: 'string' } } },
      },
      304: { description: 'Not modified', type: 'null' },
      ...PROBLEM_RESPONSES,
    },
  }),
};

export const ENUMERATIONS_ROUTES = {
  enumerations: documented({
    tags: ['catalogue'],
    summary: 'Check types, attribute types, document types and filter criteria, labelled',
    response: {
      200: {
        description: "Each enumeration's label and values in the request's language",
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: { label: { type: 'string' }, values: { type: 'array', items: ANY_OBJECT } },
        },
      },
    },
  }),
};

const CATALOG_PARAMS = stringParams('catalogId');
const ENTRY_PARAMS = stringParams('catalogId', 'id');
const GENERIC_ENTRY = catalogEntryRecordSchema(ANY_OBJECT);

export const CATALOG_ROUTES = {
  search: servedPerDefinition({
    params: CATALOG_PARAMS,
    body: searchRequestSchema(undefined),
    response: { 200: searchResultSchema(GENERIC_ENTRY), ...PROBLEM_RESPONSES },
  }),
  options: servedPerDefinition({
    params: CATALOG_PARAMS,
    querystring: { type: 'object', properties: { search: { type: 'string' } } },
    response: { 200: CODE_NAME_ITEMS, ...PROBLEM_RESPONSES },
  }),
  read: servedPerDefinition({
    params: ENTRY_PARAMS,
    response: { 200: GENERIC_ENTRY, ...PROBLEM_RESPONSES },
  }),
  create: servedPerDefinition({
    params: CATALOG_PARAMS,
    body: ANY_OBJECT,
    response: { 201: GENERIC_ENTRY, ...PROBLEM_RESPONSES },
  }),
  update: servedPerDefinition({
    params: ENTRY_PARAMS,
    body: {
      type: 'object',
      properties: { version: { type: 'integer' }, data: ANY_OBJECT },
    },
    response: { 200: GENERIC_ENTRY, ...PROBLEM_RESPONSES },
  }),
  delete: servedPerDefinition({
    params: ENTRY_PARAMS,
    querystring: { type: 'object', properties: { version: { type: 'string' } } },
    response: { 204: NO_CONTENT, ...PROBLEM_RESPONSES },
  }),
  restore: servedPerDefinition({ params: ENTRY_PARAMS, body: ANY_OBJECT }),
  history: servedPerDefinition({ params: ENTRY_PARAMS }),
  deleted: servedPerDefinition({ params: CATALOG_PARAMS }),
  import: servedPerDefinition({
    params: CATALOG_PARAMS,
    body: catalogImportBodySchema(ANY_OBJECT, CATALOG_IMPORT_MAX_ROWS),
    response: { 200: CATALOG_IMPORT_RESULT, ...PROBLEM_RESPONSES },
  }),
};

const TYPE_PARAMS = stringParams('type');
const DOC_PARAMS = stringParams('type', 'id');
const ACTION_BODY: ContractSchema = {
  type: 'object',
  properties: {
    version: { type: 'integer' },
    data: ANY_OBJECT,
    notes: { type: 'string' },
    assignee: { type: 'string' },
    owner: { type: 'string' },
  },
};

export const DOCUMENT_ROUTES = {
  search: servedPerDefinition({
    params: TYPE_PARAMS,
    body: searchRequestSchema(undefined, { list: { type: 'string' } }),
    response: {
      200: searchResultSchema(documentSummarySchema(ANY_OBJECT)),
      ...PROBLEM_RESPONSES,
    },
  }),
  create: servedPerDefinition({
    params: TYPE_PARAMS,
    body: {
      type: 'object',
      properties: {
        action: { type: 'string' },
        data: ANY_OBJECT,
        notes: { type: 'string' },
        owner: { type: 'string' },
      },
    },
    response: { 201: GENERIC_DOCUMENT, ...PROBLEM_RESPONSES },
  }),
  derive: servedPerDefinition({
    params: TYPE_PARAMS,
    body: { type: 'object', properties: { data: ANY_OBJECT, id: { type: 'string' } } },
    response: { 200: DERIVED_VALUES, ...PROBLEM_RESPONSES },
  }),
  choices: servedPerDefinition({
    params: stringParams('type', 'document'),
    response: { 200: CODE_NAME_ITEMS, ...PROBLEM_RESPONSES },
  }),
  assignees: servedPerDefinition({
    params: stringParams('type', 'action'),
    response: { 200: ASSIGNEES, ...PROBLEM_RESPONSES },
  }),
  read: servedPerDefinition({
    params: DOC_PARAMS,
    response: { 200: GENERIC_DOCUMENT, ...PROBLEM_RESPONSES },
  }),
  update: servedPerDefinition({
    params: DOC_PARAMS,
    body: ACTION_BODY,
    response: { 200: GENERIC_DOCUMENT, ...PROBLEM_RESPONSES },
  }),
  certificate: servedPerDefinition({
    params: DOC_PARAMS,
    response: { 200: PDF_RESPONSE, ...PROBLEM_RESPONSES },
  }),
  holderCertificate: servedPerDefinition({
    params: stringParams('type', 'id', 'number'),
    response: { 200: PDF_RESPONSE, ...PROBLEM_RESPONSES },
  }),
  versions: servedPerDefinition({
    params: DOC_PARAMS,
    response: { 200: { type: 'array', items: VERSION_SUMMARY }, ...PROBLEM_RESPONSES },
  }),
  version: servedPerDefinition({
    params: stringParams('type', 'id', 'version'),
    response: { 200: GENERIC_DOCUMENT, ...PROBLEM_RESPONSES },
  }),
  history: servedPerDefinition({
    params: DOC_PARAMS,
    response: { 200: { type: 'array', items: HISTORY_ENTRY }, ...PROBLEM_RESPONSES },
  }),
  action: servedPerDefinition({
    params: stringParams('type', 'id', 'action'),
    body: ACTION_BODY,
    response: { 200: GENERIC_DOCUMENT, ...PROBLEM_RESPONSES },
  }),
};

export const DASHBOARD_ROUTES = {
  library: documented({
    tags: ['dashboard'],
    summary: 'My Library: the documents the caller owns, across every evisa workflow',
    body: searchRequestSchema(LIBRARY_FIELDS),
    response: { 200: searchResultSchema(LIBRARY_ROW), ...PROBLEM_RESPONSES },
  }),
  tasks: documented({
    tags: ['dashboard'],
    summary: 'My Tasks: assigned documents, queues the caller serves, own documents waiting',
    body: searchRequestSchema([...LIBRARY_FIELDS, 'assignee', 'reason', 'list']),
    response: { 200: searchResultSchema(TASK_ROW), ...PROBLEM_RESPONSES },
  }),
  statistics: documented({
    tags: ['dashboard'],
    summary: 'Counts of a workflow declaring `statistics`, by status and by month',
    params: stringParams('workflowId'),
    response: {
      200: {
        description: 'Counts by creation date',
        type: 'object',
        properties: {
          year: { type: 'integer' },
          byStatus: COUNTS('status'),
          months: COUNTS('month'),
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  inbox: documented({
    tags: ['dashboard'],
    summary: "The caller's newest inbox messages, unread first, and how many are unread",
    querystring: {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, maximum: 50 } },
      additionalProperties: false,
    },
    response: {
      200: {
        description: 'Messages and the unread count',
        type: 'object',
        properties: {
          unread: { type: 'integer' },
          workflow: { type: ['string', 'null'] },
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                status: { type: 'string' },
                subject: { type: 'string' },
                body: { type: 'string' },
                language: { type: ['string', 'null'] },
                createdAt: { type: 'string', format: 'date-time' },
                about: {
                  type: ['object', 'null'],
                  properties: {
                    type: { type: 'string' },
                    title: { type: 'string' },
                    number: { type: 'string' },
                    path: { type: 'string' },
                  },
                },
              },
            },
          },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  verification: documented({
    tags: ['dashboard'],
    summary: 'Public check of an electronic document (rate limited per client address)',
    body: {
      type: 'object',
      required: ['number', 'secondFactor'],
      properties: {
        number: { type: 'string', maxLength: 50 },
        secondFactor: { type: 'string', maxLength: 100 },
      },
    },
    response: {
      200: {
        description:
          'The document is genuine (issued); nothing personal nor any internal status is returned',
        type: 'object',
        properties: {
          number: { type: 'string' },
          documentType: { type: 'string' },
          validFrom: NULLABLE_STRING,
          validUntil: NULLABLE_STRING,
          validity: { enum: ['inForce', 'notYetInForce', 'expired'] },
          valid: { type: 'boolean', description: 'In force today' },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
};

export const REGISTRATION_ROUTES = {
  options: documented({
    tags: ['connectid'],
    summary: 'What a signed-out person may register as (when self-registration is on)',
    response: {
      200: {
        description: 'User types (with their password rules), identity types, channels',
        type: 'object',
        properties: {
          userTypes: { type: 'array', items: ANY_OBJECT },
          identityTypes: { type: 'array', items: ANY_OBJECT },
          channels: ANY_OBJECT,
          confirmationFields: {
            description: 'By catalogue channel (agency, agent, trader): the field naming the entry',
            ...ANY_OBJECT,
          },
          countries: {
            description: 'The countries an address may name (valid now), by code',
            type: 'array',
            items: {
              type: 'object',
              properties: {
                code: { type: 'string' },
                name: { type: 'string' },
                i18n: TRANSLATIONS_SCHEMA,
              },
            },
          },
          developerOutbox: { type: 'string' },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  register: documented({
    tags: ['connectid'],
    summary: 'Self-registration: an account REGISTERED until reviewed',
    body: {
      type: 'object',
      required: ['data', 'password', 'challengeId', 'code'],
      properties: {
        data: { $ref: '#/components/schemas/entity.account' },
        password: { type: 'string' },
        challengeId: { type: 'string', description: 'From POST /api/challenge' },
        code: { type: 'string', description: 'The code sent through the channel' },
        channel: {
          type: 'string',
          enum: ['mobile', 'email', 'agency', 'agent', 'trader'],
          default: 'mobile',
          description:
            'Where the code went: the mobile number, the e-mail address, or the contact of the agency, agent or trader the data names',
        },
      },
    },
    response: {
      201: {
        description: 'Registered',
        type: 'object',
        properties: { id: UUID_STRING, status: { type: 'string' } },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
};

export const PASSWORD_ROUTES = {
  own: documented({
    tags: ['connectid'],
    summary: "Changes the caller's own password (the current one is asked for again)",
    body: {
      type: 'object',
      required: ['currentPassword', 'newPassword'],
      properties: { currentPassword: { type: 'string' }, newPassword: { type: 'string' } },
    },
    response: { 204: NO_CONTENT, ...PROBLEM_RESPONSES },
  }),
  account: documented({
    tags: ['connectid'],
    summary: 'Gives an account a password (connectid-account-security)',
    params: stringParams('id'),
    body: {
      type: 'object',
      required: ['password'],
      properties: {
        password: { type: 'string' },
        temporary: {
          type: 'boolean',
          default: true,
          description: 'To be changed at the next sign-in',
        },
      },
    },
    response: { 204: NO_CONTENT, ...PROBLEM_RESPONSES },
  }),
};

export const MEDIA_ROUTES = {
  upload: documented({
    tags: ['media'],
    summary: 'Uploads a file (PDF, PNG, JPEG); documents keep a reference to it',
    consumes: ['multipart/form-data'],
    body: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    },
    response: {
      201: {
        description: 'The reference a form stores',
        type: 'object',
        required: ['id', 'name', 'size', 'type'],
        properties: {
          id: UUID_STRING,
          name: { type: 'string' },
          size: { type: 'integer' },
          type: { type: 'string' },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  read: documented({
    tags: ['media'],
    summary: 'A file, for its uploader and the officers who see a document naming it',
    params: stringParams('id'),
    response: {
      200: {
        description: 'The file as uploaded',
        content: {
          'application/pdf': { schema: { type: 'string', format: 'binary' } },
          'image/png': { schema: { type: 'string', format: 'binary' } },
          'image/jpeg': { schema: { type: 'string', format: 'binary' } },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
};

const PAYMENT_PARAMS = stringParams('type', 'id');

export const PAYMENT_ROUTES = {
  notify: documented({
    tags: ['payments'],
    summary: "The gateway's signed notification of a payment's outcome",
    description: 'The signature covers the body exactly as sent, so it is read as text.',
    params: stringParams('gateway'),
    body: ANY_OBJECT,
    response: {
      200: {
        description: 'Recorded',
        type: 'object',
        properties: { received: { type: 'boolean' }, status: { type: 'string' } },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  purchase: servedPerDefinition({
    params: PAYMENT_PARAMS,
    response: {
      200: { type: 'object', properties: { redirectUrl: { type: 'string' } } },
      ...PROBLEM_RESPONSES,
    },
  }),
  state: servedPerDefinition({
    params: PAYMENT_PARAMS,
    response: { 200: PAYMENT_STATE, ...PROBLEM_RESPONSES },
  }),
  receipt: servedPerDefinition({
    params: PAYMENT_PARAMS,
    response: { 200: PDF_RESPONSE, ...PROBLEM_RESPONSES },
  }),
};

const API_CREDENTIAL_STATUS: ContractSchema = {
  type: 'object',
  properties: {
    clientId: { type: 'string', description: "The OAuth client id: the account's id" },
    service: { type: 'boolean', description: 'A service account that may sign in: may hold some' },
    active: { type: 'boolean' },
    issuedAt: { type: ['string', 'null'], format: 'date-time' },
    revokedAt: { type: ['string', 'null'], format: 'date-time' },
    tokenUrl: { type: 'string', description: 'Where the client-credentials grant is asked' },
  },
};

export const API_CREDENTIAL_ROUTES = {
  status: documented({
    tags: ['connectid'],
    summary: "A service account's API credentials: active or not, never the secret",
    params: stringParams('id'),
    response: { 200: API_CREDENTIAL_STATUS, ...PROBLEM_RESPONSES },
  }),
  issue: documented({
    tags: ['connectid'],
    summary: 'Issues API credentials for a service account, replacing any it had',
    params: stringParams('id'),
    response: {
      201: {
        description: 'The secret, shown this once: only its hash is kept',
        type: 'object',
        properties: {
          clientId: { type: 'string' },
          clientSecret: { type: 'string' },
          issuedAt: DATE_TIME,
          tokenUrl: { type: 'string' },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  }),
  revoke: documented({
    tags: ['connectid'],
    summary: "Revokes a service account's API credentials",
    params: stringParams('id'),
    response: { 204: NO_CONTENT, ...PROBLEM_RESPONSES },
  }),
};
