import { accountHolding } from '../support/accounts';
import { VALID_DATA } from '../support/documents';
import { describeGeneratedWalk } from '../support/generated-walk';

/** The engine's test workflow: storing, a fee due or not, assignment, query, decision, cancel. */
describeGeneratedWalk({
  type: 'test-document',
  dataVariants: [VALID_DATA, { ...VALID_DATA, fees: { total: '75.00' } }],
  payloadFor(action, data) {
    switch (action) {
      case 'assign':
        return { assignee: 'walk-officer' };
      case 'query':
      case 'reject':
        return { notes: 'Generated test notes' };
      case 'grant':
        return { data: { decision: { remarks: 'Granted by the generated test' } } };
      default:
        return { data };
    }
  },
  // Whom the walk assigns: an account holding a role the assign action declares.
  async prepare(api) {
    await accountHolding(api, {
      login: 'walk-officer',
      firstName: 'Walk',
      lastName: 'Officer',
      roles: ['test-document-query'],
    });
  },
  minimumCases: 500,
});
