import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { withoutActions } from '../../src/core/studio/workflow-design';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/**
 * An action's `reconcile` (docs/payments.md, "Reconciling an invoice") is checked when the
 * definitions load: a person takes it, it edits where the amounts are recorded, and its
 * shortfall action exists and is taken wherever it is.
 */
describe('the reconcile keyword', () => {
  let cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.map((remove) => remove()));
    cleanup = [];
  });

  it('refuses a system action, amounts it cannot edit and a shortfall action not taken there', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const file = 'workflows/payment-invoice.json';
    const absolute = path.join(copy.dir, file);
    const invoice = JSON.parse(await fs.readFile(absolute, 'utf8')) as WorkflowDefinition;
    const reconcile = invoice.actions.verify!.reconcile!;
    invoice.actions.verify!.reconcile = { ...reconcile, reference: '/payment/bankReference' };
    invoice.actions.expire!.reconcile = reconcile;
    invoice.actions.query!.reconcile = { ...reconcile, short: 'reply' };
    await copy.write(file, invoice);
    const problems = (await refusalOf(copy.dir)).filter((p) => p.pointer.includes('/reconcile'));
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file,
          pointer: '/actions/verify/reconcile/reference',
          message: expect.stringContaining('"/payment/bankReference" is not in a section'),
        },
        { file, pointer: '/actions/expire/reconcile', message: expect.stringContaining('system') },
        {
          file,
          pointer: '/actions/query/reconcile/short',
          message: expect.stringContaining('action "reply" is not taken in status "SUBMITTED"'),
        },
      ]),
    );
  });

  it('goes with its shortfall action when the studio removes that action', async () => {
    const invoice = JSON.parse(
      await fs.readFile(
        path.join(import.meta.dirname, '../../workflows/payment-invoice.json'),
        'utf8',
      ),
    ) as WorkflowDefinition;
    expect(invoice.actions.verify!.reconcile?.short).toBe('query');
    expect(withoutActions(invoice, ['query']).actions.verify).not.toHaveProperty('reconcile');
    expect(withoutActions(invoice, ['reply']).actions.verify!.reconcile).toBeDefined();
  });
});
