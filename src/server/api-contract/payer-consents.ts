import type { WorkflowDefinition } from '../../core/documents/workflow';
import { arrayOf, DATE_TIME, NULLABLE_STRING, objectSchema, UUID_STRING } from './common';
import type { AddOperation } from './common';

/** The answers and bodies of the payer consent routes (docs/payments.md, "Paying for others"). */

const PAYER_CONSENT = objectSchema(['id', 'payer', 'grantedBy', 'grantedAt'], {
  id: UUID_STRING,
  payer: objectSchema(['subject', 'name', 'login'], {
    subject: { type: 'string' },
    name: { type: 'string' },
    login: NULLABLE_STRING,
  }),
  grantedBy: objectSchema(['subject', 'name'], {
    subject: { type: 'string' },
    name: { type: 'string' },
  }),
  grantedAt: DATE_TIME,
});

export const DOCUMENT_PAYERS = objectSchema(['items', 'mayChange'], {
  items: arrayOf(PAYER_CONSENT),
  mayChange: {
    type: 'boolean',
    description: 'The caller holds the document and it is in a status where payers may change',
  },
});

export const NEW_PAYER = objectSchema(['payer'], {
  payer: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description: "The payer's sign-in name or e-mail address; the account must exist",
  },
});

export const PAYABLE_DOCUMENTS = objectSchema(['items'], {
  items: arrayOf(
    objectSchema(
      [
        'consent',
        'type',
        'id',
        'number',
        'status',
        'holderName',
        'amountDue',
        'currency',
        'grantedAt',
      ],
      {
        consent: UUID_STRING,
        type: { type: 'string' },
        id: UUID_STRING,
        number: NULLABLE_STRING,
        status: { type: 'string' },
        holderName: NULLABLE_STRING,
        amountDue: NULLABLE_STRING,
        currency: NULLABLE_STRING,
        grantedAt: DATE_TIME,
      },
    ),
  ),
});

/** The payer paths of a workflow declaring `payerConsent`. */
export function addPayerConsentPaths(
  add: AddOperation,
  workflow: WorkflowDefinition,
  base: string,
): void {
  const consent = workflow.payerConsent;
  if (!consent) return;
  const change = `The holder only (403), while the document is ${consent.statuses.join(' or ')} (else 409 PAYER_CONSENT_CLOSED).`;
  add('get', `${base}/{id}/payers`, 'payers', 'Who the holder named as payers of the document', {
    description: 'For whoever sees the document.',
    response: DOCUMENT_PAYERS,
  });
  add('post', `${base}/{id}/payers`, 'namePayer', 'Names an account who may pay the document', {
    description: `${change} An unknown account is a 400 on /payer.`,
    body: NEW_PAYER,
    response: DOCUMENT_PAYERS,
  });
  add('delete', `${base}/{id}/payers/{consentId}`, 'revokePayer', 'Revokes a payer', {
    description: change,
    response: DOCUMENT_PAYERS,
  });
}
