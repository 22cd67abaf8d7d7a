import {
  FIELD_NAME_PATTERN,
  IDENTIFIER_MAX_LENGTH,
  IDENTIFIER_PATTERN,
} from '../../core/definitions/names';
import { SESSION_CLAIMS } from '../../core/documents/workflow';
import { FILTER_CRITERIA } from '../../core/search/criteria';
import { NAMES_KEYWORD } from './references';

/**
 * Our own meta-schemas: what a catalogue, entity schema or workflow file must look like before
 * the server accepts it. An error names the file and the JSON pointer inside it.
 */
const identifier = {
  type: 'string',
  pattern: IDENTIFIER_PATTERN,
  maxLength: IDENTIFIER_MAX_LENGTH,
};
const roleCommaList = {
  type: 'string',
  pattern: '^\\s*[a-z][a-z0-9-]*(\\s*,\\s*[a-z][a-z0-9-]*)*\\s*$',
};
const fieldName = { type: 'string', pattern: FIELD_NAME_PATTERN };
/** A translation key: it must name a text in every language (references.ts). */
const textKey = { type: 'string', [NAMES_KEYWORD]: 'text' };
/**
 * A count's text: `<key>_one` and `<key>_other` ("2 accounts"), and `<key>More_one` and
 * `<key>More_other` ("More than 10,000 accounts"), in every language (references.ts).
 */
const countKey = { type: 'string', [NAMES_KEYWORD]: 'count' };
/** A catalogue's id: the catalogue must exist. */
const catalogId = { ...identifier, [NAMES_KEYWORD]: 'catalog' };
/** A document type (a workflow's id): the workflow must exist, in a module switched on. */
const documentType = { type: 'string', [NAMES_KEYWORD]: 'document' };
/** `{prefix}-{year}-{serial}` numbering: a workflow's `numbering` and its `reference`. */
const numbering = {
  type: 'object',
  required: ['prefix'],
  additionalProperties: false,
  properties: {
    prefix: { type: 'string', pattern: '^[A-Z]{1,6}$' },
    digits: { type: 'integer', minimum: 3, maximum: 10 },
  },
} as const;
/** A JSON pointer into the data of the file's own document, of plain names: a field of its schema. */
const dataPointer = {
  type: 'string',
  pattern: '^(/[A-Za-z0-9_]+)+$',
  maxLength: 200,
  [NAMES_KEYWORD]: 'pointer',
};
/** The same shape, relative to something else (an item of a list): not checked against the schema. */
const relativePointer = { type: 'string', pattern: '^(/[A-Za-z0-9_]+)+$', maxLength: 200 };
/** What a linked document offers to the document naming it (WorkflowLinks). */
const linkValue = {
  enum: [
    'type',
    'number',
    'status',
    'ownerName',
    'submittedAt',
    'amountDue',
    'amountPaid',
    'currency',
  ],
};
/** Boolean fields of a catalogue entry that must all be true (WorkflowFeeFlags). */
const feeFlags = {
  flags: { type: 'array', minItems: 1, uniqueItems: true, items: fieldName },
  unset: { type: 'boolean' },
};
/** Where a payable workflow's fee lines come from (WorkflowFeeSource). */
const feeSource = {
  type: 'object',
  required: ['catalog', 'match', 'when', 'amounts', 'code', 'name'],
  additionalProperties: false,
  properties: {
    catalog: catalogId,
    match: {
      type: 'object',
      required: ['field', 'pointer'],
      additionalProperties: false,
      properties: { field: fieldName, pointer: dataPointer },
    },
    when: { type: 'array', uniqueItems: true, items: fieldName },
    amounts: { type: 'array', minItems: 1, uniqueItems: true, items: fieldName },
    code: fieldName,
    name: fieldName,
    payers: {
      type: 'object',
      required: ['catalog', 'pointer'],
      additionalProperties: false,
      properties: {
        catalog: catalogId,
        pointer: dataPointer,
        once: {
          type: 'object',
          required: ['flags'],
          additionalProperties: false,
          properties: feeFlags,
        },
        people: {
          type: 'array',
          items: {
            type: 'object',
            required: ['list', 'flags', 'narration'],
            additionalProperties: false,
            properties: {
              list: dataPointer,
              ...feeFlags,
              narration: {
                type: 'array',
                minItems: 1,
                items: { type: 'array', minItems: 1, items: fieldName },
              },
            },
          },
        },
      },
    },
  },
};
const labels = {
  type: 'object',
  required: ['title', 'fields'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1 },
    fields: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  },
};

export const catalogMetaSchema = {
  $id: 'meta/catalog',
  type: 'object',
  required: ['id', 'category', 'searcherRoles', 'managerRoles', 'key', 'schema', 'labels'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    // The published meta-schema a code editor validates the file with (npm run gen:meta).
    $schema: { type: 'string' },
    id: identifier,
    category: { type: 'string', pattern: '^[a-z][a-z0-9.-]*$' },
    enabled: { type: 'boolean' },
    searcherRoles: roleCommaList,
    managerRoles: roleCommaList,
    key: { type: 'array', minItems: 1, uniqueItems: true, items: fieldName },
    keyNote: { type: 'string' },
    schema: {
      type: 'object',
      required: ['type', 'properties'],
      properties: {
        type: { const: 'object' },
        properties: {
          type: 'object',
          minProperties: 1,
          propertyNames: fieldName,
          additionalProperties: { type: 'object' },
        },
        required: { type: 'array', items: fieldName },
      },
    },
    columns: { type: 'array', items: fieldName },
    references: {
      type: 'object',
      propertyNames: fieldName,
      additionalProperties: {
        type: 'object',
        required: ['catalog'],
        additionalProperties: false,
        properties: {
          catalog: identifier,
          byField: fieldName,
          catalogs: { type: 'object', minProperties: 1, additionalProperties: identifier },
        },
        dependentRequired: { byField: ['catalogs'], catalogs: ['byField'] },
      },
    },
    // Text fields given in every language (check-catalog-fields.ts: string fields only).
    translatable: { type: 'array', uniqueItems: true, items: fieldName },
    // Number fields holding an amount, each with its currency.
    money: {
      type: 'object',
      propertyNames: fieldName,
      additionalProperties: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
    labels: {
      type: 'object',
      required: ['en', 'fr'],
      additionalProperties: false,
      properties: { en: labels, fr: labels },
    },
  },
} as const;

export const entityMetaSchema = {
  $id: 'meta/entity',
  type: 'object',
  required: ['id', 'schema', 'sections'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    // The published meta-schema a code editor validates the file with (npm run gen:meta).
    $schema: { type: 'string' },
    id: identifier,
    schema: {
      type: 'object',
      required: ['type', 'properties'],
      properties: {
        type: { const: 'object' },
        properties: { type: 'object', propertyNames: fieldName },
      },
    },
    uiSchema: { type: 'object' },
    sections: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: {
          id: fieldName,
          officer: { type: 'boolean' },
          internal: { type: 'boolean' },
          when: {
            type: 'object',
            required: ['pointer', 'in'],
            additionalProperties: false,
            properties: {
              pointer: dataPointer,
              in: { type: 'array', minItems: 1 },
            },
          },
        },
      },
    },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rule', 'path'],
        properties: {
          rule: { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*$' },
          path: { type: 'string', pattern: '^(/[^/]+)+$', [NAMES_KEYWORD]: 'pointer' },
          message: textKey,
          // A rule about a document of another type (documentReference): its other pointers
          // name that type's fields (check-references.ts).
          documentType,
        },
      },
    },
    catalogLists: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'key', 'keep', 'sources'],
        additionalProperties: false,
        properties: {
          path: dataPointer,
          key: fieldName,
          keep: { type: 'array', items: fieldName },
          position: fieldName,
          sources: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['catalog', 'fields'],
              additionalProperties: false,
              properties: {
                catalog: catalogId,
                where: {
                  type: 'object',
                  additionalProperties: {
                    oneOf: [
                      {
                        type: 'object',
                        required: ['value'],
                        additionalProperties: false,
                        properties: { value: { type: 'string' } },
                      },
                      {
                        type: 'object',
                        required: ['pointer'],
                        additionalProperties: false,
                        properties: { pointer: dataPointer },
                      },
                    ],
                  },
                },
                fields: { type: 'object', additionalProperties: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** An object of exactly these properties, all required unless named in `optional`. */
function strictObject(properties: Record<string, object>, optional: readonly string[] = []) {
  return {
    type: 'object',
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
    properties,
  };
}
/** An ISO 4217 currency code (NZD). */
const currencyCode = { type: 'string', pattern: '^[A-Z]{3}$' };
/** What a certificate prints of a value, or of each item of a list in a table's column. */
const certificateColumn = strictObject(
  { label: textKey, pointer: dataPointer, format: { enum: ['money'] } },
  ['format'],
);
const recordKey = strictObject({ pointer: dataPointer, keptWhenDeleted: { type: 'boolean' } });
const fieldTest = strictObject({ pointer: dataPointer, equals: { type: 'string' } });
const catalogTypedField = strictObject({
  pointer: dataPointer,
  catalog: catalogId,
  checks: { type: 'object', additionalProperties: dataPointer },
});
const accountDeclaration = strictObject(
  {
    name: {
      type: 'array',
      minItems: 1,
      items: strictObject(
        { when: fieldTest, fields: { type: 'array', minItems: 1, items: dataPointer } },
        ['when'],
      ),
    },
    email: dataPointer,
    mobile: dataPointer,
    signIn: strictObject({
      statuses: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' } },
      active: fieldTest,
    }),
    group: dataPointer,
    accessUnits: dataPointer,
    security: strictObject({ forcePasswordChange: dataPointer, forceTotp: dataPointer }),
    userType: catalogTypedField,
    fallbackGroup: { type: 'string', minLength: 1 },
    identityType: catalogTypedField,
    service: fieldTest,
    confirmationCodes: {
      type: 'object',
      additionalProperties: false,
      properties: { agency: dataPointer, agent: dataPointer, trader: dataPointer },
    },
  },
  ['identityType', 'service', 'confirmationCodes'],
);

const roleSuffixes = { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } };
const sectionList = { oneOf: [{ const: 'all' }, { type: 'array', items: fieldName }] };
/** A JSON pointer into document data whose segments are plain names or indexes (safe in SQL paths). */
export const workflowMetaSchema = {
  $id: 'meta/workflow',
  type: 'object',
  required: [
    'id',
    'document',
    'prefix',
    'rolePrefix',
    'seeAll',
    'machine',
    'actions',
    'screens',
    'lists',
  ],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    // The published meta-schema a code editor validates the file with (npm run gen:meta).
    $schema: { type: 'string' },
    id: identifier,
    document: identifier,
    backend: { enum: ['evisa', 'connectid'] },
    prefix: { type: 'string', pattern: '^(/[a-z0-9-]+)+$' },
    rolePrefix: { type: 'string', pattern: '^[a-z][a-z0-9-]*-$' },
    numbering,
    seeAll: roleSuffixes,
    timeline: { type: 'boolean' },
    count: countKey,
    statistics: { type: 'boolean' },
    tasks: {
      type: 'object',
      additionalProperties: false,
      properties: {
        owner: {
          type: 'array',
          items: {
            type: 'object',
            required: ['status', 'open'],
            additionalProperties: false,
            properties: { status: { type: 'string' }, open: { type: 'string' } },
          },
        },
      },
    },
    verification: {
      type: 'object',
      required: ['statuses', 'secondFactors'],
      additionalProperties: false,
      properties: {
        statuses: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' } },
        secondFactors: { type: 'array', minItems: 1, uniqueItems: true, items: dataPointer },
        validFrom: dataPointer,
        validUntil: dataPointer,
        number: dataPointer,
      },
    },
    payment: {
      type: 'object',
      required: ['currency', 'sources', 'fees', 'receipt', 'title'],
      additionalProperties: false,
      properties: {
        currency: currencyCode,
        sources: { type: 'array', minItems: 1, items: feeSource },
        fees: dataPointer,
        receipt: dataPointer,
        title: textKey,
      },
    },
    derive: {
      type: 'object',
      required: ['on', 'effects', 'fills'],
      additionalProperties: false,
      properties: {
        on: { type: 'array', minItems: 1, items: dataPointer },
        // None when the server only fills what `links` show of the documents named.
        effects: { type: 'array', items: { type: 'string' } },
        fills: { type: 'array', minItems: 1, items: dataPointer },
      },
    },
    links: {
      type: 'object',
      required: ['items', 'number', 'types', 'note'],
      additionalProperties: false,
      properties: {
        items: dataPointer,
        number: fieldName,
        types: { type: 'array', minItems: 1, uniqueItems: true, items: documentType },
        fill: {
          type: 'object',
          propertyNames: fieldName,
          additionalProperties: {
            oneOf: [
              linkValue,
              // Pointers of the linked types' data (check-links.ts), joined when spaced.
              strictObject({
                data: {
                  type: 'array',
                  minItems: 1,
                  items: { type: 'string', pattern: '^(/[A-Za-z0-9_]+)+( (/[A-Za-z0-9_]+)+)*$' },
                },
              }),
            ],
          },
        },
        totals: {
          type: 'object',
          propertyNames: dataPointer,
          additionalProperties: linkValue,
        },
        note: { ...textKey, minLength: 1 },
      },
    },
    holderLanguage: dataPointer,
    // Target -> source, both fields of the schema (check-copies.ts: of one type, not the same).
    copies: {
      type: 'object',
      minProperties: 1,
      propertyNames: dataPointer,
      additionalProperties: dataPointer,
    },
    fromCatalog: {
      type: 'array',
      minItems: 1,
      items: strictObject(
        {
          catalog: catalogId,
          code: { type: 'string', minLength: 1, maxLength: 100 },
          to: dataPointer,
          // Fields of the catalogue and properties of the object at `to` (check-catalog-copies.ts).
          fields: { type: 'object', propertyNames: fieldName, additionalProperties: fieldName },
          daysAfter: { type: 'object', propertyNames: fieldName, additionalProperties: fieldName },
          number: fieldName,
        },
        ['daysAfter', 'number'],
      ),
    },
    inbox: strictObject({
      subject: dataPointer,
      body: dataPointer,
      note: dataPointer,
      attachment: dataPointer,
      about: dataPointer,
      recipient: dataPointer,
      sender: dataPointer,
      delivery: dataPointer,
      read: { type: 'string', minLength: 1 },
      actions: strictObject({
        post: identifier,
        attempted: identifier,
        sent: identifier,
        failed: identifier,
      }),
    }),
    // What other code reads of the records (src/core/documents/record-declarations.ts).
    key: recordKey,
    account: accountDeclaration,
    userGroup: strictObject({
      parent: dataPointer,
      accessUnits: dataPointer,
      passwordPolicy: dataPointer,
      inactive: fieldTest,
    }),
    passwordPolicy: strictObject({ rules: dataPointer, default: { type: 'string', minLength: 1 } }),
    accessUnit: strictObject({ roles: dataPointer }),
    // The number given at grant is numbered like the application's own.
    reference: numbering,
    validity: {
      type: 'object',
      required: ['period', 'periods', 'from', 'until'],
      additionalProperties: false,
      properties: {
        period: dataPointer,
        periods: {
          type: 'object',
          required: ['catalog', 'unit', 'count'],
          additionalProperties: false,
          properties: {
            catalog: catalogId,
            unit: { type: 'string', minLength: 1 },
            count: { type: 'string', minLength: 1 },
          },
        },
        from: dataPointer,
        until: dataPointer,
      },
    },
    certificate: {
      type: 'object',
      required: ['statuses', 'roles', 'title', 'fields'],
      additionalProperties: false,
      properties: {
        statuses: { type: 'array', minItems: 1, items: { type: 'string' } },
        roles: { ...roleSuffixes, minItems: 1 },
        title: textKey,
        currency: currencyCode,
        download: textKey,
        fields: {
          type: 'array',
          minItems: 1,
          items: {
            ...certificateColumn,
            properties: {
              ...certificateColumn.properties,
              section: textKey,
              // Within each item of the list at `pointer` (check-references.ts).
              each: relativePointer,
              empty: textKey,
              // Each column's pointer is within an item of the list at `each`.
              columns: {
                type: 'array',
                minItems: 1,
                items: {
                  ...certificateColumn,
                  properties: { ...certificateColumn.properties, pointer: relativePointer },
                },
              },
              // Within the object at `pointer`, and within a holder's item (check-holders.ts).
              lines: { type: 'array', minItems: 1, items: relativePointer },
              holder: relativePointer,
            },
          },
        },
        holders: strictObject(
          {
            list: dataPointer,
            charged: { type: 'boolean' },
            // Within each item of the list (check-holders.ts).
            number: relativePointer,
            name: { type: 'array', minItems: 1, items: fieldName },
            secondFactors: {
              type: 'array',
              minItems: 1,
              uniqueItems: true,
              items: relativePointer,
            },
            download: textKey,
          },
          ['charged', 'download'],
        ),
      },
    },
    statusMoves: {
      type: 'object',
      propertyNames: { pattern: '^[A-Z][A-Z ]*$' },
      additionalProperties: { type: 'string' },
    },
    machine: {
      type: 'object',
      required: ['id', 'initial', 'states'],
      properties: {
        id: { type: 'string' },
        initial: { const: 'NEW' },
        states: {
          type: 'object',
          required: ['NEW'],
          propertyNames: { pattern: '^[A-Z][A-Z ]*$' },
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: {
              on: { type: 'object' },
              type: { const: 'final' },
              description: { type: 'string' },
              meta: {
                type: 'object',
                additionalProperties: false,
                properties: { estimatedDays: { type: 'integer', minimum: 0 } },
              },
            },
          },
        },
      },
    },
    actions: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-zA-Z-]*$' },
      additionalProperties: {
        type: 'object',
        required: ['roles'],
        additionalProperties: false,
        properties: {
          roles: { ...roleSuffixes, minItems: 1 },
          owner: { type: 'boolean' },
          notes: { enum: ['required', 'optional'] },
          payload: { enum: ['none', 'data', 'assignee'] },
          // Who may be assigned (payload assignee): check-roles.ts checks each role is used.
          assignees: { ...roleSuffixes, minItems: 1, uniqueItems: true },
          editable: sectionList,
          effects: { type: 'array', items: { type: 'string' } },
          before: { type: 'array', items: { type: 'string' } },
          validate: { type: 'boolean' },
          success: textKey,
          stay: { type: 'boolean' },
          system: { type: 'boolean' },
          requires: { type: 'array', items: dataPointer },
          danger: { type: 'boolean' },
          emphasis: { enum: ['primary', 'secondary'] },
          onBehalf: { type: 'boolean' },
          mustChange: dataPointer,
          fires: {
            ...strictObject(
              {
                added: { type: 'string', minLength: 1 },
                removed: { type: 'string', minLength: 1 },
                each: { type: 'string', minLength: 1 },
              },
              ['added', 'removed', 'each'],
            ),
            minProperties: 1,
          },
        },
      },
    },
    screens: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'mode', 'roles'],
        additionalProperties: false,
        properties: {
          // `:id`, or the key's own name (`:loginIdentifier`) where the document is named by its key.
          path: { type: 'string', pattern: '^(/([a-z0-9-]+|:[A-Za-z][A-Za-z0-9]*))+$' },
          mode: { type: 'string' },
          roles: { ...roleSuffixes, minItems: 1 },
          actions: { type: 'array', items: { type: 'string' } },
          editable: sectionList,
          hidden: { type: 'array', items: fieldName },
          menu: textKey,
          open: {
            oneOf: [fieldName, { type: 'array', minItems: 1, uniqueItems: true, items: fieldName }],
          },
          // Each an action of the workflow that takes notes (check-documents.ts).
          showNotesOf: {
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { type: 'string', minLength: 1 },
          },
          chrome: { type: 'boolean' },
          label: textKey,
          links: {
            type: 'array',
            items: {
              oneOf: [
                strictObject({ label: textKey, to: { type: 'string', pattern: '^/' } }),
                strictObject({ label: textKey, pointer: dataPointer }),
              ],
            },
          },
          fire: { type: 'string', minLength: 1 },
          panels: {
            type: 'array',
            uniqueItems: true,
            items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
          },
          prefill: {
            type: 'object',
            propertyNames: dataPointer,
            additionalProperties: {
              oneOf: [
                { enum: [...SESSION_CLAIMS] },
                // A field of the account's schema (check-prefill.ts).
                strictObject({ profile: relativePointer }),
              ],
            },
          },
          when: fieldTest,
        },
      },
    },
    lists: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'path', 'roles', 'columns', 'open', 'label'],
        additionalProperties: false,
        properties: {
          id: identifier,
          path: { type: 'string', pattern: '^((/[a-z0-9-]+)+)?$' },
          roles: { ...roleSuffixes, minItems: 1 },
          status: { type: 'array', items: { type: 'string' } },
          assignment: { enum: ['me', 'unassigned', 'assigned'] },
          // Fixed conditions on the data (FilterCondition by pointer); check-list-filters.ts
          // checks each pointer against the schema and each value against the criterion.
          where: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['pointer', 'criterion'],
              additionalProperties: false,
              properties: {
                pointer: dataPointer,
                criterion: { enum: [...FILTER_CRITERIA] },
                value: { type: ['string', 'number', 'boolean'] },
                valueTo: { type: ['string', 'number', 'boolean'] },
              },
            },
          },
          columns: {
            type: 'array',
            items: {
              type: 'object',
              required: ['field', 'label'],
              additionalProperties: false,
              properties: {
                field: fieldName,
                pointer: { type: 'string', pattern: '^(/[^/]+)+$', [NAMES_KEYWORD]: 'pointer' },
                label: textKey,
                format: { enum: ['money'] },
              },
            },
          },
          open: { type: 'string' },
          label: textKey,
          title: textKey,
          count: countKey,
          badge: {
            type: 'object',
            required: ['field', 'criterion', 'value'],
            additionalProperties: false,
            properties: {
              field: fieldName,
              criterion: { enum: ['equals', 'notEquals'] },
              value: { type: ['string', 'number', 'boolean'] },
            },
          },
        },
      },
    },
  },
} as const;

/** modules.json: the portal's modules, their route prefixes and switches. */
export const modulesMetaSchema = {
  $id: 'meta/modules',
  type: 'object',
  required: ['modules'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    // The published meta-schema a code editor validates the file with (npm run gen:meta).
    $schema: { type: 'string' },
    modules: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'prefix', 'enabled'],
        additionalProperties: false,
        properties: {
          $comment: { type: 'string' },
          id: identifier,
          prefix: { type: 'string', pattern: '^/[a-z][a-z0-9-]*$' },
          enabled: { type: 'boolean' },
        },
      },
    },
  },
} as const;

/** A language's texts: nested objects whose leaves are strings. */
export const translationsMetaSchema = {
  $id: 'meta/translations',
  type: 'object',
  additionalProperties: { anyOf: [{ type: 'string' }, { $ref: '#' }] },
} as const;
