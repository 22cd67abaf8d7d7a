import { describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import type { WorkflowDefinition, WorkflowPayment } from '../../src/core/documents/workflow';
import { checkPaymentSources } from '../../src/server/definitions/check-documents';
import type { SaidProblem } from '../../src/server/definitions/load';
import { worded } from '../support/checker-texts';
import { readProjectJson } from '../support/definitions-dir';

/**
 * The loader refuses a fee source that names a catalogue or a field that does not exist: a
 * misspelt field would otherwise charge nothing, without a word.
 */
const catalogs = () =>
  Promise.all(
    ['document-fee', 'sub-document-fee', 'sub-document'].map((id) =>
      readProjectJson<CatalogDefinition>(`catalogs/${id}.json`),
    ),
  );

async function problemsOf(change: (payment: WorkflowPayment) => WorkflowPayment) {
  const workflow = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
  const problems: SaidProblem[] = [];
  checkPaymentSources(
    { ...workflow, payment: change(workflow.payment!) },
    await catalogs(),
    problems,
  );
  return worded(problems).map((p) => `${p.file}#${p.pointer}: ${p.message}`);
}

describe('fee sources of a payable workflow', () => {
  it('accepts the visa application’s declaration', async () => {
    expect(await problemsOf((payment) => payment)).toEqual([]);
  });

  it('refuses an unknown catalogue, a missing field, a condition or amount of the wrong type', async () => {
    const problems = await problemsOf((payment) => {
      const [documentFee, subDocumentFee] = payment.sources;
      return {
        ...payment,
        sources: [
          { ...documentFee!, catalog: 'document-fees' },
          {
            ...subDocumentFee!,
            match: { ...subDocumentFee!.match, field: 'subDocCode' },
            when: ['status', 'name'],
            amounts: ['amount', 'code'],
            payers: {
              ...subDocumentFee!.payers!,
              once: { flags: ['applicantCharged'] },
            },
          },
          { ...documentFee!, payers: { catalog: 'document-fee', pointer: '/visa/document' } },
        ],
      };
    });
    expect(problems).toEqual([
      'workflows/visa-application.json#/payment/sources/0/catalog: no catalogue "document-fees" in catalogs/',
      'workflows/visa-application.json#/payment/sources/1/match/field: catalogue "sub-document-fee" has no field "subDocCode"',
      'workflows/visa-application.json#/payment/sources/1/when/1: field "name" of catalogue "sub-document-fee" is not a boolean',
      'workflows/visa-application.json#/payment/sources/1/amounts/1: field "code" of catalogue "sub-document-fee" is not a number',
      'workflows/visa-application.json#/payment/sources/1/payers/once/flags/0: catalogue "sub-document" has no field "applicantCharged"',
      'workflows/visa-application.json#/payment/sources/2/payers/catalog: catalogue "document-fee" has a key of 2 fields; the payers\' entry is found by a single key field',
    ]);
  });
});
