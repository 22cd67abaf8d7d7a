import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/definitions/types';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/** A payment's `refunds` as the checker reads it (check-refunds.ts): officers' roles only. */
const VISA = 'workflows/visa-application.json';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((remove) => remove()));
  cleanup = [];
});

describe('the checker: refunds', () => {
  it("refuses an approver's role that the holder's own actions have, and a threshold that is no amount", async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const file = path.join(copy.dir, VISA);
    const workflow = JSON.parse(await fs.readFile(file, 'utf8')) as WorkflowDefinition;
    workflow.payment!.refunds = {
      ...workflow.payment!.refunds!,
      approvalAbove: '500.00',
      approvers: ['refund', 'submit'],
    };
    await fs.writeFile(file, JSON.stringify(workflow, null, 2));
    expect(await refusalOf(copy.dir)).toEqual([
      {
        file: VISA,
        pointer: '/payment/refunds/approvers/1',
        message:
          'role "submit" is given to the holder\'s own actions: a holder could give their own money back or approve their own refund. Refunds are decided by officers\' roles only',
      },
    ]);
    workflow.payment!.refunds = {
      ...workflow.payment!.refunds!,
      approvalAbove: '500',
      approvers: ['refund'],
    };
    await fs.writeFile(file, JSON.stringify(workflow, null, 2));
    const problems = await refusalOf(copy.dir);
    expect(problems.map((problem) => problem.pointer)).toEqual(['/payment/refunds/approvalAbove']);
  });
});
