import { createCatalogEntries, type ApiHarness } from '../support/api-server';
import { describeGeneratedWalk } from '../support/generated-walk';
import { BANK_ACCOUNT, invoiceSteps } from '../support/invoice-steps';
import { visaApplication } from '../support/visa-data';

/**
 * The visa application's machine (workflows/visa-application.json), generated: every status
 * reached (with a fee due through the gateway, without one straight to verification), every
 * action tried in every status with its own roles, another role and none.
 */
describeGeneratedWalk({
  type: 'visa-application',
  // The walk makes its own catalogue entries and documents, without questions or attachments.
  referenceData: false,
  // The fees section is the server's; the walk states what it will compute, for the guard.
  dataVariants: [
    { ...visaApplication('QVFE', 'QVF30'), fees: { total: '50.00' } },
    { ...visaApplication('QVNO', 'QVN30'), fees: { total: '0.00' } },
  ],
  payloadFor(action, data) {
    const { fees: _fees, ...applicant } = data;
    switch (action) {
      case 'initiate':
        return { data: { termsAccepted: true } };
      case 'assign':
        // The demo verification officer holds the role the assign action declares (forward).
        return { assignee: 'verifier' };
      case 'query':
      case 'reject':
        return { notes: 'Generated test notes' };
      case 'grant':
        return { data: { issuance: { placeOfIssue: 'Apia' } } };
      case 'issue':
        return {
          data: {
            issuance: {
              placeOfIssue: 'Apia',
              effectiveDate: '2026-12-01',
              expiryDate: '2027-02-28',
            },
          },
        };
      case 'modify':
        return { data: applicant };
      default:
        return { data: applicant };
    }
  },
  async prepare(api: ApiHarness) {
    const manager = await api.tokenFor(['asypx-catalog-manage', 'catalog-manage']);
    const sub = (documentCode: string, code: string) => ({
      documentCode,
      code,
      name: `Walk ${code}`,
      allowedPeriodType: 'DAY',
      allowedPeriodNumber: 30,
      feeAmount: 0,
      otherAmount: 0,
    });
    await createCatalogEntries(api, manager, [
      BANK_ACCOUNT,
      // The countries the applications name: every catalogue select is checked on submission.
      ['country', { code: 'WS', name: 'Samoa' }],
      ['binder', { code: 'VISA', name: 'Visas' }],
      ['period', { code: 'DAY', name: 'Days' }],
      ['document', { code: 'QVFE', name: 'Walk, with a fee', binder: 'VISA' }],
      ['document', { code: 'QVNO', name: 'Walk, no fee', binder: 'VISA' }],
      ['sub-document', sub('QVFE', 'QVF30')],
      ['sub-document', sub('QVNO', 'QVN30')],
      [
        'document-fee',
        {
          documentCode: 'QVFE',
          code: 'APP',
          name: 'Application fee',
          status: true,
          automatic: true,
          amount: 50,
        },
      ],
    ]);
  },
  // SUBMITTED FOR PAYMENT and the way out of it are a payment invoice's doing.
  firedSteps: invoiceSteps,
  everyRole: false,
  minimumCases: 300,
});
