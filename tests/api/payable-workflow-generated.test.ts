import { createCatalogEntries, type ApiHarness } from '../support/api-server';
import { describeGeneratedWalk } from '../support/generated-walk';

/**
 * The payable fixture's machine, generated: with a fee due (document QWLK) it goes through
 * initiate, the gateway, pay or finalise; with none (QNOF) straight to verification.
 */
const application = (document: string) => ({ name: 'Walker', document });

describeGeneratedWalk({
  type: 'test-payable',
  // The fees section is the server's (frozen from the catalogues); the walk states what the
  // server will compute, for the machine's guard, and the server ignores it in requests.
  dataVariants: [
    { application: application('QWLK'), fees: { total: '50.00' } },
    { application: application('QNOF'), fees: { total: '0.00' } },
  ],
  payloadFor(action, data) {
    if (action === 'initiate') return { data: { termsAccepted: true } };
    return { data: { application: data.application } };
  },
  async prepare(api: ApiHarness) {
    const manager = await api.tokenFor(['asypx-catalog-manage']);
    await createCatalogEntries(api, manager, [
      ['document', { code: 'QWLK', name: 'Walk, with a fee', binder: 'VISA' }],
      ['document', { code: 'QNOF', name: 'Walk, no fee', binder: 'VISA' }],
      [
        'document-fee',
        {
          documentCode: 'QWLK',
          code: 'APP',
          name: 'Application fee',
          status: true,
          automatic: true,
          amount: 50,
        },
      ],
    ]);
  },
  minimumCases: 100,
});
