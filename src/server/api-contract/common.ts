import { FILTER_CRITERIA } from '../../core/search/criteria';

/**
 * Pieces of the API contract (the OpenAPI document at `/api/openapi.json`) shared by the
 * routes' own schemas and the paths generated per workflow and catalogue. A route's schema
 * checks its request (http/validation.ts) and writes its answer (fast-json-stringify: what a
 * schema does not list is not sent, so answers that are open say `additionalProperties`).
 */
export type ContractSchema = Record<string, unknown>;

/** Any object, written whole: a definition's data, or an answer the contract does not detail. */
export const ANY_OBJECT = { type: 'object', additionalProperties: true } as const;

/** An object schema of `properties`, those named in `required` (if any) required. */
export function objectSchema(
  required: string[],
  properties: Record<string, ContractSchema>,
): ContractSchema {
  return { type: 'object', ...(required.length ? { required } : {}), properties };
}

/** An array schema of `items`. */
export const arrayOf = (items: ContractSchema): ContractSchema => ({ type: 'array', items });

const STRING = { type: 'string' } as const;
/** A version number, from 1. */
export const VERSION = { type: 'integer', minimum: 1 } as const;

/** One field's problem: where (a JSON pointer into the body), which rule, and its message. */
const FIELD_PROBLEM: ContractSchema = {
  ...ANY_OBJECT,
  required: ['path', 'rule', 'message'],
  properties: {
    path: { type: 'string', description: 'JSON pointer into the body' },
    rule: { type: 'string' },
    message: { type: 'string' },
  },
};

/** `{error: {status, code, message, fields}}`: every failure, message in the request's language. */
export const PROBLEM = objectSchema(['error'], {
  error: {
    type: 'object',
    description: 'Some codes say more (a refused publish: `problems`, `current`)',
    additionalProperties: true,
    required: ['status', 'code', 'message'],
    properties: {
      status: { type: 'integer' },
      code: { type: 'string', description: 'Stable code, e.g. VALIDATION_FAILED' },
      message: { type: 'string', description: "In the request's language" },
      fields: arrayOf(FIELD_PROBLEM),
    },
  },
});

/** The error answers every operation may give (the codes are in docs/api.md, "Errors"). */
export const PROBLEM_RESPONSES = {
  '4xx': { description: 'Refused: the body names the problem', ...PROBLEM },
  '5xx': { description: 'Server failure', ...PROBLEM },
} as const;

/** An answer without a body. */
export const NO_CONTENT = { type: 'null', description: 'Done; no body' } as const;

/** A PDF answer (certificate, receipt). */
export const PDF_RESPONSE = {
  description: 'The PDF',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
} as const;

/** The methods of the generated paths. */
export type OperationMethod = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** What one generated operation says beyond its path: more parameters, its body, its answer. */
export interface OperationParts {
  parameters?: ContractSchema[];
  body?: ContractSchema;
  /** The answer's status; 200 by default. */
  status?: number;
  /** Its schema, or a PDF, or no body. */
  response: ContractSchema | 'pdf' | 'none';
  description?: string;
}

/**
 * Adds one operation to the contract's paths, its id `${prefix}.${suffix}` (definition-paths.ts
 * makes one per tag; the modules of a keyword, e.g. delegations.ts, add theirs with it).
 */
export type AddOperation = (
  method: OperationMethod,
  path: string,
  suffix: string,
  summary: string,
  parts: OperationParts,
) => void;

export const UUID_STRING = { type: 'string', format: 'uuid' } as const;
export const DATE_TIME = { type: 'string', format: 'date-time' } as const;
export const NULLABLE_STRING = { type: ['string', 'null'] } as const;
export const NULLABLE_DATE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;

/**
 * The schema of a generic route serving every workflow or catalogue (`/:type/:id`): it checks
 * and writes their requests and answers, and stays out of the contract, which lists one path
 * per definition instead (definition-paths.ts).
 */
export function perDefinition(
  params: string[],
  answer: ContractSchema,
  parts: { body?: ContractSchema; querystring?: ContractSchema; status?: number } = {},
) {
  const { status = 200, ...request } = parts;
  const response = { [status]: answer, ...PROBLEM_RESPONSES };
  return { schema: { hide: true, params: stringParams(...params), response, ...request } };
}

/** Path parameters as an object schema, every one a string (handlers check their form). */
export function stringParams(...names: string[]): ContractSchema {
  return {
    type: 'object',
    required: names,
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
  };
}

const FILTER_VALUE = { type: ['string', 'number', 'boolean', 'null'] } as const;

/**
 * The body of a search (docs/api.md, "Search"), `extra` adding properties. A route's own search
 * names no fields nor criteria (the protocol refuses unknown ones); per-definition paths do.
 */
export function searchRequestSchema(
  fields: readonly string[] | undefined,
  extra: Record<string, ContractSchema> = {},
  required: string[] = [],
): ContractSchema {
  const field = fields ? { type: 'string', enum: [...fields] } : { type: 'string' };
  const criterion = fields
    ? { type: 'string', enum: [...FILTER_CRITERIA] }
    : { type: 'string', description: `One of ${FILTER_CRITERIA.join(', ')}` };
  return objectSchema(required, {
    ...extra,
    filter: {
      type: 'array',
      description: 'Conditions, all of which must hold',
      items: objectSchema(['field', 'criterion'], {
        field,
        criterion,
        value: FILTER_VALUE,
        valueTo: { ...FILTER_VALUE, description: 'Upper bound of `between`' },
      }),
    },
    options: objectSchema([], {
      page: { type: 'integer', minimum: 1, default: 1 },
      itemsPerPage: {
        type: 'integer',
        default: -1,
        description: '-1: all (capped by SEARCH_MAX_ITEMS); 1 or lower otherwise: 10',
      },
      sort: arrayOf(
        objectSchema(['field', 'direction'], {
          field,
          direction: { type: 'string', enum: ['asc', 'desc'] },
        }),
      ),
      cursor: {
        type: 'string',
        description:
          "The previous page's `nextCursor`, same filter and sort: the page starts after its last row (document searches; no rows are skipped by `page` then)",
      },
    }),
  });
}

/**
 * `{items, total, page, itemsPerPage, capped}` with `item` as each item; document searches add
 * `totalIsLowerBound` and `nextCursor`.
 */
export function searchResultSchema(item: ContractSchema): ContractSchema {
  return objectSchema(['items', 'total', 'page', 'itemsPerPage', 'capped'], {
    items: arrayOf(item),
    total: { type: 'integer' },
    page: { type: 'integer' },
    itemsPerPage: { type: 'integer', description: '-1 when all items were asked for' },
    capped: { type: 'boolean', description: 'All was asked for but the cap cut the result' },
    totalIsLowerBound: {
      type: 'boolean',
      description:
        'More than `total` items match: counting stopped at SEARCH_EXACT_COUNT_LIMIT (document searches)',
    },
    nextCursor: {
      type: ['string', 'null'],
      description: 'The `cursor` of the next page; null on the last page (document searches)',
    },
  });
}

/** Who created and last changed a stored record, and when. */
const STAMPS = { createdAt: DATE_TIME, createdBy: STRING, updatedAt: DATE_TIME, updatedBy: STRING };

/** A document as the document backends answer it; `data` follows the entity schema. */
export function documentViewSchema(data: ContractSchema): ContractSchema {
  return objectSchema(['id', 'type', 'status', 'version', 'data', 'allowedActions'], {
    id: UUID_STRING,
    type: { type: 'string', description: 'The workflow id' },
    status: STRING,
    version: VERSION,
    owner: STRING,
    ownerName: NULLABLE_STRING,
    assignee: NULLABLE_STRING,
    number: { ...NULLABLE_STRING, description: 'Reference number, once allocated' },
    year: { type: ['integer', 'null'] },
    submittedAt: NULLABLE_DATE_TIME,
    data,
    ...STAMPS,
    allowedActions: { ...arrayOf(STRING), description: 'Actions the caller may take now' },
    timers: {
      ...arrayOf(
        objectSchema(['name', 'dueAt'], {
          name: { type: 'string', description: 'The timer, as the workflow declares it' },
          dueAt: DATE_TIME,
        }),
      ),
      description: 'The timers the document waits on in its status (a reply due), soonest first',
    },
    delegation: {
      ...objectSchema(['holderName', 'grants', 'holderOnly'], {
        holderName: STRING,
        grants: arrayOf(STRING),
        holderOnly: arrayOf(STRING),
      }),
      description:
        'The caller reads the document as a delegate of its holder (docs/delegation.md): the grants given and what only the holder may change',
    },
  });
}

/** One row of a document list; `fields` holds the list's data columns. */
export function documentSummarySchema(fields: ContractSchema): ContractSchema {
  return objectSchema([], {
    id: UUID_STRING,
    type: STRING,
    status: STRING,
    version: { type: 'integer' },
    owner: STRING,
    ownerName: NULLABLE_STRING,
    assignee: NULLABLE_STRING,
    assigneeName: {
      ...NULLABLE_STRING,
      description: "The assignee's name, in a list declaring the column `assigneeName`",
    },
    screeningHit: {
      type: 'boolean',
      description: 'Screening found a hit, in a list declaring the column `screeningHit`',
    },
    number: NULLABLE_STRING,
    submittedAt: NULLABLE_DATE_TIME,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
    key: { ...NULLABLE_STRING, description: "The value of the workflow's key, if it has one" },
    flags: {
      ...arrayOf(STRING),
      description: "The document's flags, to its officers in a list declaring the column `flags`",
    },
    fields,
  });
}

export const VERSION_SUMMARY = objectSchema([], {
  version: { type: 'integer' },
  status: STRING,
  action: STRING,
  at: DATE_TIME,
  by: STRING,
});

/** A document's screening hits (docs/workflows.md, "Screening"), for the officers who see it. */
export const SCREENING_HITS = objectSchema(['items'], {
  items: arrayOf(
    objectSchema([], {
      id: UUID_STRING,
      catalog: { type: 'string', description: 'The block catalogue matched' },
      catalogTitle: {
        type: 'string',
        description: "The catalogue's title in the reader's language",
      },
      entryKey: STRING,
      reason: { ...NULLABLE_STRING, description: "The entry's reason, in the reader's language" },
      matched: {
        type: 'object',
        additionalProperties: STRING,
        description: "Entry field -> the document's value it equals",
      },
      action: {
        type: 'string',
        description: 'The action screened (`rescreen`: a block written later)',
      },
      outcome: { type: 'string', enum: ['refused', 'flagged'] },
      at: DATE_TIME,
    }),
  ),
});

export const HISTORY_ENTRY = objectSchema([], {
  version: { type: 'integer' },
  action: STRING,
  operation: { type: 'string', description: 'Status change, e.g. `STORED -> SUBMITTED`' },
  at: DATE_TIME,
  notes: NULLABLE_STRING,
  notesKey: STRING,
  notesParams: { type: 'object', additionalProperties: STRING },
  name: {
    type: 'string',
    description:
      "Who acted; to a reader who is no officer of the type, `system:immigration-service` for anyone but the reader (OFFICER_NAMES_TO_PUBLIC: the officer's name)",
  },
  email: {
    ...NULLABLE_STRING,
    description: "The actor's e-mail: null to the public but for their own lines",
  },
  mobile: {
    ...NULLABLE_STRING,
    description: "The actor's mobile: null to the public but for their own lines",
  },
  assignedTo: {
    type: 'string',
    description: "On an assignment's line, the assigned officer's name (officers' readers only)",
  },
  assignedFrom: {
    type: 'string',
    description:
      "On a reassignment's line, the name of the officer it was taken from; its notes say why",
  },
  onBehalfOf: {
    type: 'string',
    description:
      'On a line a delegate wrote, the name of the holder they acted for (docs/delegation.md)',
  },
});

/** A catalogue entry as the catalogue backend answers it. */
export function catalogEntryRecordSchema(data: ContractSchema): ContractSchema {
  return objectSchema(['id', 'version', 'data'], {
    id: UUID_STRING,
    version: VERSION,
    data,
    ...STAMPS,
    deletedAt: { ...DATE_TIME, description: 'When a deleted entry was deleted (by updatedBy)' },
  });
}

/** `{items: [...]}`: an answer listing things of one shape, all of them. */
export function itemsOf(item: ContractSchema): ContractSchema {
  return objectSchema(['items'], { items: arrayOf(item) });
}

/** `{items: [{id, login, name}]}`: the people an assignment may name, by name. */
export const ASSIGNEES = itemsOf(
  objectSchema(['id', 'login', 'name', 'openCases'], {
    id: { type: 'string', description: 'The account id: what `assignee` may name' },
    login: { type: 'string', description: 'Their sign-in name, which `assignee` may name too' },
    name: STRING,
    openCases: {
      type: 'integer',
      minimum: 0,
      description:
        'How many documents of the type they are assigned in open statuses (the `workload` statuses, else every status but final ones); the list is sorted by it, fewest first',
    },
  }),
);

/** The team view (`workload`): open documents per officer and status, then the unassigned. */
export const WORKLOAD = objectSchema(['action', 'statuses', 'rows'], {
  action: { type: 'string', description: 'The assigning action whose assignees are the team' },
  statuses: { type: 'array', items: STRING, description: 'The statuses counted, in order' },
  rows: {
    type: 'array',
    description: 'The officers, most open documents first, then the unassigned (`officer` null)',
    items: objectSchema(['officer', 'counts', 'total'], {
      officer: {
        anyOf: [
          objectSchema(['id', 'login', 'name', 'member'], {
            id: STRING,
            login: STRING,
            name: STRING,
            member: {
              type: 'boolean',
              description:
                'Holds an assignee role now (false: still holds documents, lost the role)',
            },
          }),
          { type: 'null' },
        ],
      },
      counts: {
        type: 'object',
        additionalProperties: { type: 'integer', minimum: 0 },
        description: 'Status -> open documents; a status with none is left out',
      },
      total: { type: 'integer', minimum: 0 },
    }),
  },
});

/** `{items: [{code, name}]}`: choices for a form's select. */
export const CODE_NAME_ITEMS = itemsOf(
  objectSchema(['code', 'name'], { code: STRING, name: STRING }),
);

const COUNT = { type: 'integer', minimum: 0 } as const;

/** What a catalogue import answers: how many rows create, update or leave an entry, and why not. */
export const CATALOG_IMPORT_RESULT = objectSchema(
  ['dryRun', 'created', 'updated', 'unchanged', 'problems'],
  {
    dryRun: { type: 'boolean' },
    created: COUNT,
    updated: COUNT,
    unchanged: COUNT,
    problems: {
      type: 'array',
      description:
        'A dry run only (an import with problems is refused with them): `/entries/{row}/{field}`',
      items: FIELD_PROBLEM,
    },
  },
);

/** The body of a catalogue import: whole entries (`entries` of the catalogue's schema). */
export function catalogImportBodySchema(entry: ContractSchema, maxItems?: number): ContractSchema {
  return objectSchema(['entries', 'dryRun'], {
    entries: { type: 'array', minItems: 1, ...(maxItems && { maxItems }), items: entry },
    dryRun: { type: 'boolean', description: 'true: say what the import would do, write nothing' },
  });
}

/** What a workflow's `derive` answers: the filled values by pointer, and rule problems. */
export const DERIVED_VALUES = objectSchema(['values', 'problems'], {
  values: {
    type: 'object',
    description: 'Value at each of the workflow’s `derive.fills` pointers',
    additionalProperties: true,
  },
  problems: arrayOf(ANY_OBJECT),
});

/**
 * The other languages' texts of a translatable text's siblings (`i18n`, core/i18n/localized.ts):
 * language -> field -> text.
 */
export const TRANSLATIONS_SCHEMA: ContractSchema = {
  type: 'object',
  description: 'Language -> field -> the text in that language (English is the field itself)',
  additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
};

/** A payment's state as the finalisation screen reads it. */
/** What a withdrawal would refund now (RefundQuote). */
export const REFUND_QUOTE = objectSchema(
  ['documentStatus', 'currency', 'paid', 'refund', 'stage'],
  {
    documentStatus: STRING,
    currency: { type: 'string', description: 'ISO 4217 code (the workflow’s payment.currency)' },
    paid: { type: 'string', description: 'Decimal, two places: what was paid' },
    refund: { type: 'string', description: 'Decimal, two places: what a withdrawal refunds now' },
    stage: { type: ['string', 'null'], description: 'The refund stage of the status, if any' },
  },
);

export const PAYMENT_STATE = objectSchema(['documentStatus', 'order'], {
  documentStatus: STRING,
  order: {
    type: ['object', 'null'],
    properties: {
      orderId: STRING,
      orderReference: STRING,
      status: {
        type: 'string',
        enum: ['CREATED', 'PENDING', 'APPROVED', 'DECLINED', 'CANCELLED', 'TIMED_OUT'],
      },
      currency: { type: 'string', description: 'ISO 4217 code (the workflow’s payment.currency)' },
      items: arrayOf(
        objectSchema(['code', 'name', 'amount'], {
          code: STRING,
          name: STRING,
          narration: { type: 'string', description: 'Who the line is for' },
          amount: { type: 'string', description: 'Decimal, two places' },
          i18n: TRANSLATIONS_SCHEMA,
        }),
      ),
      total: { type: 'string', description: 'Decimal' },
      amountPaid: NULLABLE_STRING,
      maskedCard: NULLABLE_STRING,
      receiptReference: NULLABLE_STRING,
      paidAt: NULLABLE_DATE_TIME,
      createdAt: DATE_TIME,
    },
  },
});

/** A line of an entry's history: the version made, by whom, when, and the changed fields. */
export const CATALOG_HISTORY_LINE = objectSchema(
  ['version', 'action', 'changedAt', 'changedBy', 'changes'],
  {
    version: { type: 'integer', minimum: 2 },
    action: { enum: ['updated', 'deleted', 'restored'] },
    changedAt: DATE_TIME,
    changedBy: STRING,
    changes: arrayOf(
      objectSchema(['field', 'before', 'after'], {
        field: STRING,
        language: STRING,
        before: {},
        after: {},
      }),
    ),
  },
);
