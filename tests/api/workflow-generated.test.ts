import { VALID_DATA } from '../support/documents';
import { describeGeneratedWalk } from '../support/generated-walk';

/** The engine's test workflow: storing, a fee due or not, assignment, query, decision, cancel. */
describeGeneratedWalk({
  type: 'test-document',
  dataVariants: [VALID_DATA, { ...VALID_DATA, fees: { total: '75.00' } }],
  payloadFor(action, data) {
    switch (action) {
      case 'assign':
        return { assignee: 'officer-1' };
      case 'query':
      case 'reject':
        return { notes: 'Generated test notes' };
      case 'grant':
        return { data: { decision: { remarks: 'Granted by the generated test' } } };
      default:
        return { data };
    }
  },
  minimumCases: 500,
});
