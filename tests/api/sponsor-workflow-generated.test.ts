import { createCatalogEntries, type ApiHarness } from '../support/api-server';
import { describeGeneratedWalk } from '../support/generated-walk';
import { BANK_ACCOUNT, invoiceSteps } from '../support/invoice-steps';
import { sponsorApplication } from '../support/sponsor-data';

/**
 * The sponsor application's machine (workflows/sponsor-application.json), generated: every
 * status reached (an organisation with a fee due through the gateway, a person without one
 * straight to verification), every action tried in every status with its own roles, another
 * role and none.
 */

/** The sign-in name of the account a `create` at the counter names as the sponsor. */
const SPONSOR_LOGIN = 'walk.sponsor';

/** The period a grant gives: a Sub-Document entry of the sponsor type's own Document entry. */
const PERIODS: Record<string, string> = { SPORG: 'SPO3Y', SPPER: 'SPP3Y' };

describeGeneratedWalk({
  type: 'sponsor-application',
  // The walk makes its own catalogue entries: the sponsor types' Document entries without
  // questions or attachments, so every list the server fills is answered as it stands.
  referenceData: false,
  // A renewal's grant (a document started from a granted one): tests/api/sponsorship-life.test.ts.
  reachedElsewhere: ['RENEWAL GRANTED'],
  // The fees section is the server's; the walk states what it will compute, for the guard.
  dataVariants: [
    { ...sponsorApplication('SPORG'), fees: { total: '250.00' } },
    { ...sponsorApplication('SPPER'), fees: { total: '0.00' } },
  ],
  payloadFor(action, data) {
    const { fees: _fees, ...applicant } = data;
    const type = (applicant.sponsorship as { sponsorType: string }).sponsorType;
    switch (action) {
      case 'initiate':
        return { data: { termsAccepted: true } };
      case 'query':
        return {
          notes: 'Generated test notes',
          data: { verification: { changesRequired: false } },
        };
      case 'reject':
      case 'suspend':
      case 'reinstate':
      case 'revoke':
        return { notes: 'Generated test notes' };
      case 'grant':
        return { data: { verification: { period: PERIODS[type] } } };
      case 'create':
        return { data: applicant, owner: SPONSOR_LOGIN };
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
      allowedPeriodType: 'YEAR',
      allowedPeriodNumber: 3,
      feeAmount: 0,
      otherAmount: 0,
    });
    await createCatalogEntries(api, manager, [
      BANK_ACCOUNT,
      // The countries the applications name: every catalogue select is checked on submission.
      ['country', { code: 'WS', name: 'Samoa' }],
      ['binder', { code: 'SPONSOR', name: 'Sponsorships' }],
      ['period', { code: 'YEAR', name: 'Years' }],
      ['document', { code: 'SPORG', name: 'Walk, organisation', binder: 'SPONSOR' }],
      ['document', { code: 'SPPER', name: 'Walk, person', binder: 'SPONSOR' }],
      ['sub-document', sub('SPORG', 'SPO3Y')],
      ['sub-document', sub('SPPER', 'SPP3Y')],
      [
        'document-fee',
        {
          documentCode: 'SPORG',
          code: 'APP',
          name: 'Sponsor application fee',
          status: true,
          automatic: true,
          amount: 250,
        },
      ],
    ]);
    // The account a creation on behalf names (its directory entry is all `owner` looks up).
    await api.tables
      .insertInto('document')
      .values({
        type: 'account',
        status: 'ACCEPTED',
        version: 1,
        owner: 'walk-sponsor',
        owner_name: 'Walk Sponsor',
        data: JSON.stringify({ identity: { loginIdentifier: SPONSOR_LOGIN } }),
        created_by: 'test',
        updated_by: 'test',
      })
      .execute();
  },
  // SUBMITTED FOR PAYMENT and the way out of it are a payment invoice's doing.
  firedSteps: invoiceSteps,
  everyRole: false,
  minimumCases: 578,
});
