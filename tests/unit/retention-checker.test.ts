import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { checkRetention } from '../../src/server/definitions/check-retention';
import type { ProblemText } from '../../src/server/definitions/problems';

/** `retention` (docs/retention.md): what the checker refuses before a run would meet it. */
function problemsOf(retention: unknown, flags: unknown = { legalHold: {} }) {
  const workflow = {
    id: 'permit',
    machine: { id: 'permit', initial: 'NEW', states: { NEW: {}, REJECTED: {}, GRANTED: {} } },
    flags,
    retention,
  } as unknown as WorkflowDefinition;
  const found: Array<[string, string]> = [];
  checkRetention({
    workflow,
    report: (pointer: string, text: ProblemText) => found.push([pointer, text.key]),
  });
  return found;
}

const clear = { personal: ['/person/name'], uploads: true };

describe('the retention checker', () => {
  it('accepts rules naming statuses of the machine once each, and declared hold flags', () => {
    expect(
      problemsOf({
        rules: [
          { statuses: ['REJECTED'], keep: { years: 2 }, from: 'closed' },
          { statuses: ['GRANTED'], keep: { years: 10 }, from: { date: '/visa/validTo' } },
        ],
        clear,
        holdFlags: ['legalHold'],
      }),
    ).toEqual([]);
  });

  it('refuses an unknown status, a status in two rules, no period and an undeclared flag', () => {
    expect(
      problemsOf(
        {
          rules: [
            { statuses: ['REJECTED', 'LOST'], keep: { years: 2 }, from: 'closed' },
            { statuses: ['REJECTED'], keep: { years: 0, days: 0 }, from: 'closed' },
          ],
          clear,
          holdFlags: ['legalHold'],
        },
        { risk: {} },
      ),
    ).toEqual([
      ['/retention/rules/0/statuses/1', 'noStatus'],
      ['/retention/rules/1/statuses/0', 'retentionStatusTwice'],
      ['/retention/rules/1/keep', 'retentionNoPeriod'],
      ['/retention/holdFlags/0', 'retentionHoldFlagUnknown'],
    ]);
  });
});
