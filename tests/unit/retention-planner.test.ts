import { describe, expect, it } from 'vitest';
import type { WorkflowRetention } from '../../src/core/definitions/shapes/retention';
import {
  addPeriod,
  planDocument,
  sortPlan,
  type RetentionCandidate,
} from '../../src/core/retention/plan';
import { digestOf } from '../../src/server/retention/planner';

/** The retention planner (docs/retention.md): when a closed document is due, and what goes of it. */
const retention: WorkflowRetention = {
  rules: [
    { statuses: ['REJECTED', 'CANCELLED'], keep: { years: 2 }, from: 'closed' },
    { statuses: ['GRANTED'], keep: { years: 10 }, from: { date: '/visa/validTo' } },
    { statuses: ['CLOSED'], keep: { months: 6 }, from: 'closed', action: 'anonymise' },
  ],
  clear: { personal: ['/person/name', '/person/passport', '/contact', '/files'], uploads: true },
  holdFlags: ['legalHold'],
};

const closedAt = new Date('2024-03-10T09:30:00.000Z');
const candidate = (over: Partial<RetentionCandidate> = {}): RetentionCandidate => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: 'permit',
  number: 'PER-2024-000001',
  status: 'REJECTED',
  data: { person: { name: 'Ana', passport: '', nationality: 'WS' }, contact: { email: 'a@b.c' } },
  flags: [],
  enteredAt: closedAt,
  uploads: ['b-upload', 'a-upload'],
  ...over,
});

describe('the retention planner', () => {
  it('adds calendar periods in UTC, the end of a month kept at the end', () => {
    expect(addPeriod(closedAt, { years: 2 }).toISOString()).toBe('2026-03-10T09:30:00.000Z');
    expect(addPeriod(new Date('2024-02-29T00:00:00Z'), { years: 1 }).toISOString()).toBe(
      '2025-02-28T00:00:00.000Z',
    );
    expect(addPeriod(new Date('2024-01-31T12:00:00Z'), { months: 1 }).toISOString()).toBe(
      '2024-02-29T12:00:00.000Z',
    );
    expect(addPeriod(closedAt, { months: 11, days: 30 }).toISOString()).toBe(
      '2025-03-12T09:30:00.000Z',
    );
  });

  it('lists nothing before the period ends, and the document from the instant it ends', () => {
    const due = new Date('2026-03-10T09:30:00.000Z');
    expect(planDocument(retention, candidate(), new Date(due.getTime() - 1), [])).toBeUndefined();
    expect(planDocument(retention, candidate(), due, [])).toEqual({
      documentId: candidate().id,
      type: 'permit',
      number: 'PER-2024-000001',
      status: 'REJECTED',
      due: due.toISOString(),
      action: 'erase',
      // Only the declared fields holding something: an empty passport is nothing to clear.
      fields: ['/person/name', '/contact'],
      uploads: ['a-upload', 'b-upload'],
    });
    // A status no rule names is kept.
    expect(planDocument(retention, candidate({ status: 'STORED' }), due, [])).toBeUndefined();
  });

  it('counts from a date of the data, or from the closing when the data has none', () => {
    const granted = candidate({ status: 'GRANTED', data: { visa: { validTo: '2025-06-30' } } });
    const at = new Date('2040-01-01T00:00:00Z');
    expect(planDocument(retention, granted, at, [])?.due).toBe('2035-06-30T00:00:00.000Z');
    const undated = candidate({ status: 'GRANTED', data: { visa: {} } });
    expect(planDocument(retention, undated, at, [])?.due).toBe('2034-03-10T09:30:00.000Z');
  });

  it('anonymises without deleting uploads when the rule says so', () => {
    const closed = candidate({ status: 'CLOSED' });
    const item = planDocument(retention, closed, new Date('2030-01-01T00:00:00Z'), []);
    expect(item).toMatchObject({ action: 'anonymise', uploads: [] });
  });

  it('holds a flagged document or one with an open case, with every reason', () => {
    const at = new Date('2030-01-01T00:00:00Z');
    expect(planDocument(retention, candidate({ flags: ['legalHold'] }), at, [])?.held).toEqual([
      'holdFlag',
    ]);
    expect(planDocument(retention, candidate({ flags: ['risk'] }), at, [])?.held).toBeUndefined();
    expect(
      planDocument(retention, candidate({ flags: ['legalHold'] }), at, [
        'pendingRefund',
        'openRequest',
      ])?.held,
    ).toEqual(['holdFlag', 'openRequest', 'pendingRefund']);
  });

  it('orders the plan and fingerprints what it would do', () => {
    const at = new Date('2030-01-01T00:00:00Z');
    const later = planDocument(
      retention,
      candidate({ id: 'x', enteredAt: new Date('2025-01-01T00:00:00Z') }),
      at,
      [],
    )!;
    const earlier = planDocument(retention, candidate({ id: 'y' }), at, [])!;
    expect(sortPlan([later, earlier]).map((item) => item.documentId)).toEqual(['y', 'x']);
    const held = { ...earlier, held: ['holdFlag' as const] };
    expect(digestOf([earlier, later])).toBe(digestOf([{ ...earlier }, { ...later }]));
    expect(digestOf([earlier, later])).not.toBe(digestOf([held, later]));
    expect(digestOf([earlier])).not.toBe(digestOf([{ ...earlier, fields: ['/contact'] }]));
  });
});
