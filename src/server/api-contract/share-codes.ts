import type { WorkflowDefinition } from '../../core/documents/workflow';
import {
  arrayOf,
  DATE_TIME,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  UUID_STRING,
} from './common';
import type { AddOperation, ContractSchema } from './common';

/** The answers and bodies of the share code and check log routes (docs/status-sharing.md). */

const CODE_FIELDS = ['id', 'purpose', 'createdAt', 'expiresAt', 'revokedAt', 'state', 'checks'];
const CODE_PROPERTIES: Record<string, ContractSchema> = {
  id: UUID_STRING,
  purpose: { type: 'string' },
  createdAt: DATE_TIME,
  expiresAt: DATE_TIME,
  revokedAt: NULLABLE_DATE_TIME,
  state: { type: 'string', enum: ['active', 'expired', 'revoked'] },
  checks: { type: 'integer', description: 'How many checks were made with the code' },
};

export const SHARE_CODE = objectSchema(CODE_FIELDS, CODE_PROPERTIES);

export const NEW_SHARE_CODE = objectSchema([...CODE_FIELDS, 'code'], {
  ...CODE_PROPERTIES,
  code: {
    type: 'string',
    description: 'The code, grouped `ABC 234 XYZ`: shown this once, only its hash is kept',
  },
});

export const DOCUMENT_SHARE_CODES = objectSchema(
  ['items', 'purposes', 'defaultDays', 'maxDays', 'mayCreate'],
  {
    items: arrayOf(SHARE_CODE),
    purposes: arrayOf(
      objectSchema(['id', 'label'], {
        id: { type: 'string' },
        label: { type: 'string', description: 'A text key the portal translates' },
      }),
    ),
    defaultDays: { type: 'integer' },
    maxDays: { type: 'integer' },
    mayCreate: {
      type: 'boolean',
      description: 'The document is in a status of its workflow’s `shareCodes`',
    },
  },
);

export const CREATE_SHARE_CODE = objectSchema(['purpose'], {
  purpose: { description: 'One of the purposes the workflow declares' },
  days: { description: 'Days the code lasts, 1 to maxDays; defaultDays when left out' },
});

export const REVOKE_SHARE_CODE = objectSchema([], {});

export const STATUS_CHECKS = objectSchema(['items'], {
  items: arrayOf(
    objectSchema(['reference', 'checkedAt', 'method', 'purpose', 'addressClass', 'result'], {
      reference: { type: 'string', description: '`CHK-` and ten characters' },
      checkedAt: DATE_TIME,
      method: { type: 'string', enum: ['shareCode', 'number', 'qr'] },
      purpose: NULLABLE_STRING,
      addressClass: {
        type: 'string',
        description: 'The checker’s network: an IPv4 /24, an IPv6 /48, or `local`',
      },
      result: { type: 'string', enum: ['shown', 'refused'] },
    }),
  ),
});

/** The public check's body; no `type`: a blank one is answered as missing. */
export const SHARE_CHECK = objectSchema(['code', 'holderFactor'], {
  code: { maxLength: 30, description: 'The code, in any case, with any spaces and dashes' },
  holderFactor: {
    maxLength: 100,
    description: 'One of the holder’s details the workflow asks (a date of birth)',
  },
});

export const SHARE_CHECK_QUERY = objectSchema([], {
  lang: { type: 'string', enum: ['en', 'fr'], description: 'The language of the labels' },
});

export const SHARE_CHECK_ANSWER = objectSchema(
  [
    'reference',
    'checkedAt',
    'purpose',
    'purposeLabel',
    'documentType',
    'documentTitle',
    'language',
    'name',
    'photo',
    'validity',
    'validFrom',
    'validUntil',
    'fields',
  ],
  {
    reference: { type: 'string', description: 'The check’s reference the checker may quote' },
    checkedAt: DATE_TIME,
    purpose: { type: 'string' },
    purposeLabel: { type: 'string' },
    documentType: { type: 'string' },
    documentTitle: { type: 'string' },
    language: { type: 'string' },
    name: { type: 'string' },
    photo: { ...NULLABLE_STRING, description: 'A data: URL of the holder’s photo' },
    validity: { type: 'string', enum: ['inForce', 'notYetInForce', 'expired'] },
    validFrom: NULLABLE_STRING,
    validUntil: NULLABLE_STRING,
    fields: arrayOf(
      objectSchema(['label', 'value'], { label: { type: 'string' }, value: { type: 'string' } }),
    ),
  },
);

/** The share code paths of a workflow declaring `shareCodes`, the check log of one verified. */
export function addShareCodePaths(
  add: AddOperation,
  workflow: WorkflowDefinition,
  base: string,
): void {
  const shareCodes = workflow.shareCodes;
  if (shareCodes) {
    const holder = 'The document’s holder only (403 to another who sees it, 404 to anyone else).';
    add('get', `${base}/{id}/share-codes`, 'shareCodes', 'The holder’s share codes', {
      description: holder,
      response: DOCUMENT_SHARE_CODES,
    });
    add('post', `${base}/{id}/share-codes`, 'createShareCode', 'Makes a share code', {
      description: `${holder} While the document is ${shareCodes.statuses.join(' or ')} (else 409 SHARE_CODES_CLOSED); purposes ${shareCodes.purposes.map((p) => p.id).join(', ')}; days 1 to ${shareCodes.maxDays}.`,
      body: CREATE_SHARE_CODE,
      status: 201,
      response: NEW_SHARE_CODE,
    });
    add('post', `${base}/{id}/share-codes/{codeId}/revoke`, 'revokeShareCode', 'Revokes a code', {
      description: holder,
      body: REVOKE_SHARE_CODE,
      response: SHARE_CODE,
    });
  }
  if (shareCodes || workflow.verification)
    add('get', `${base}/{id}/status-checks`, 'statusChecks', 'The holder’s check log', {
      description:
        'Every public check of the document (by share code, number or QR), newest first; the holder only.',
      response: STATUS_CHECKS,
    });
}
