import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { refundDue } from '../../src/server/payments/fees';
import { copyDefinitions, readProjectJson, refusalOf } from '../support/definitions-dir';

/**
 * Refund rules (docs/payments.md, "Withdrawal and refund rules"): the refund is read from the
 * rule frozen on each paid line, at the stage the status is in, never from the catalogues or
 * the stages' percentages of now; the checker refuses stages that could not be meant.
 */
describe('refund rules', () => {
  let cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.map((remove) => remove()));
    cleanup = [];
  });

  it('gives back each paid line by its frozen share of the stage, rounded down, capped at paid', async () => {
    const visa = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
    const payment = visa.payment!;
    const data = {
      fees: {
        currency: 'NZD',
        total: '70.01',
        amountPaid: '70.01',
        lines: [
          {
            code: 'APP',
            name: 'Application fee',
            amount: '20.00',
            status: 'PAID',
            refund: { 'before-verification': 100 },
          },
          // Frozen at 33 % while the workflow now says 50: the frozen share is what counts.
          {
            code: 'ISS',
            name: 'Issue fee',
            amount: '50.01',
            status: 'PAID',
            refund: { 'before-verification': 100, 'in-verification': 33 },
          },
          // Frozen before the rules: refunds nothing.
          { code: 'OLD', name: 'Old fee', amount: '0.00', status: 'PAID' },
        ],
      },
    };
    expect(refundDue(payment, data, 'PAID FOR VERIFICATION')).toEqual({
      currency: 'NZD',
      paidCents: 7001,
      refundCents: 7001,
      stage: 'before-verification',
    });
    // 5001 × 33 % = 1650.33: rounded down to the cent.
    expect(refundDue(payment, data, 'VERIFIED').refundCents).toBe(1650);
    expect(refundDue(payment, data, 'FORWARDED')).toMatchObject({
      refundCents: 0,
      stage: undefined,
    });
    // Not paid: nothing, whatever the stage.
    const unpaid = { fees: { ...data.fees, amountPaid: undefined } };
    expect(refundDue(payment, unpaid, 'PAID FOR VERIFICATION').refundCents).toBe(0);
  });

  it('refuses a stage status the machine lacks, a status in two stages, an unknown stage allowed', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const file = 'workflows/visa-application.json';
    const visa = JSON.parse(
      await fs.readFile(path.join(copy.dir, file), 'utf8'),
    ) as WorkflowDefinition;
    const stages = visa.payment!.refunds!.stages!;
    stages[0]!.statuses.push('PAID FOR VERIFICATON');
    stages[1]!.statuses.push('SUBMITTED FOR VERIFICATION');
    // Without the stage the fee catalogues allow, their entries naming it would refund nothing.
    stages[1]!.id = 'in-review';
    await copy.write(file, visa);
    const problems = (await refusalOf(copy.dir)).filter(
      (p) => p.file === file && p.pointer.includes('refund'),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file,
          pointer: '/payment/refunds/stages/0/statuses/2',
          message: expect.stringContaining('"PAID FOR VERIFICATON"'),
        },
        {
          file,
          pointer: '/payment/refunds/stages/1/statuses/4',
          message: expect.stringContaining('already in an earlier refund stage'),
        },
        {
          file,
          pointer: '/payment/sources/0/refundableUntil',
          message: expect.stringContaining('"in-verification"'),
        },
      ]),
    );
  });
});
