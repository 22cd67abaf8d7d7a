import type { WorkflowDefinition } from '../../core/documents/workflow';
import {
  arrayOf,
  DATE_TIME,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  UUID_STRING,
} from './common';
import type { AddOperation } from './common';

/** The answers and bodies of the delegation routes (docs/delegation.md). */

const DAY = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const NULLABLE_DAY = { type: ['string', 'null'], pattern: DAY.pattern } as const;

export const DELEGATION = objectSchema(
  [
    'id',
    'type',
    'documentId',
    'documentNumber',
    'delegate',
    'grants',
    'until',
    'createdAt',
    'revokedAt',
    'state',
  ],
  {
    id: UUID_STRING,
    type: { type: 'string' },
    documentId: { ...NULLABLE_STRING, description: "Null: all the holder's documents of the type" },
    documentNumber: NULLABLE_STRING,
    delegate: {
      type: 'string',
      description: 'The sign-in name or e-mail address the holder named, lowercased',
    },
    grants: arrayOf({ type: 'string' }),
    until: { ...NULLABLE_DAY, description: 'The last day it runs; null: until revoked' },
    createdAt: DATE_TIME,
    revokedAt: NULLABLE_DATE_TIME,
    state: { type: 'string', enum: ['active', 'expired', 'revoked'] },
  },
);

export const HOLDER_DELEGATIONS = objectSchema(['items', 'grants', 'maxDays'], {
  items: arrayOf(DELEGATION),
  grants: arrayOf(
    objectSchema(['id', 'label'], {
      id: { type: 'string' },
      label: { type: 'string', description: 'A text key' },
    }),
  ),
  maxDays: { type: ['integer', 'null'] },
});

export const DOCUMENT_DELEGATIONS = objectSchema(['items'], { items: arrayOf(DELEGATION) });

export const NEW_DELEGATION = objectSchema(['delegate', 'grants'], {
  delegate: {
    type: 'string',
    description:
      "The delegate's sign-in name or e-mail address; the answer is the same whether an account has it",
  },
  documentId: { type: 'string', description: "Omitted: all the holder's documents of the type" },
  grants: arrayOf({ type: 'string' }),
  until: { type: 'string', description: 'YYYY-MM-DD, the last day it runs' },
});

export const RECEIVED_DELEGATIONS = objectSchema(['items'], {
  items: arrayOf(
    objectSchema(['id', 'type', 'holderName', 'documentId', 'documentNumber', 'grants', 'until'], {
      id: UUID_STRING,
      type: { type: 'string' },
      holderName: { type: 'string' },
      documentId: NULLABLE_STRING,
      documentNumber: NULLABLE_STRING,
      grants: arrayOf({ type: 'string' }),
      until: NULLABLE_DAY,
    }),
  ),
});

/** The delegation paths of a workflow declaring `delegation`. */
export function addDelegationPaths(
  add: AddOperation,
  workflow: WorkflowDefinition,
  base: string,
): void {
  const delegation = workflow.delegation;
  if (!delegation) return;
  const grants = delegation.grants.map((g) => `${g.id} (${g.actions.join(', ')})`).join('; ');
  add('get', `${base}/delegations`, 'delegations', "The caller's delegations of the type", {
    description: `With the grants offered: ${grants}.`,
    response: HOLDER_DELEGATIONS,
  });
  add('post', `${base}/delegations`, 'delegate', 'Names a delegate for one or all documents', {
    description:
      "The same answer whether an account has the name given. 400 per field: empty delegate, oneself, unknown or no grant, until in the past or beyond maxDays; a document not the caller's is a 404.",
    body: NEW_DELEGATION,
    status: 201,
    response: DELEGATION,
  });
  add(
    'post',
    `${base}/delegations/{delegationId}/revoke`,
    'revokeDelegation',
    'Revokes a delegation',
    { description: "The caller's own only (else 404).", response: DELEGATION },
  );
  add(
    'get',
    `${base}/{id}/delegations`,
    'documentDelegations',
    'The delegations covering a document',
    {
      description:
        "The document's holder only: its own and the holder's delegations of all documents of the type.",
      response: DOCUMENT_DELEGATIONS,
    },
  );
}
