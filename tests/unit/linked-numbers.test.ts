import { describe, expect, it } from 'vitest';
import type { WorkflowLinks } from '../../src/core/documents/workflow';
import {
  itemsEditable,
  namedNumbers,
  withNumber,
} from '../../src/portal/pages/document/linked-numbers';

/** A payer adds an application they were named payer of to their form's items (PayerConsent.tsx). */
const links = {
  items: '/items',
  number: 'reference',
  types: ['visa-application'],
  note: 'x',
} as WorkflowLinks;

describe('adding a number to a payer form', () => {
  it('fills the first blank item, else adds one, and never names a number twice', () => {
    const blank = { items: [{ reference: 'VSA-2026-000001' }, { reference: ' ' }] };
    const filled = withNumber(links, blank, 'VSA-2026-000002');
    expect(filled.items).toEqual([
      { reference: 'VSA-2026-000001' },
      { reference: 'VSA-2026-000002' },
    ]);
    // The form's data is not changed in place (React state).
    expect(blank.items[1]).toEqual({ reference: ' ' });
    const added = withNumber(links, filled, 'SPA-2026-000003');
    expect(namedNumbers(links, added)).toEqual([
      'VSA-2026-000001',
      'VSA-2026-000002',
      'SPA-2026-000003',
    ]);
    expect(
      withNumber(links, { items: [{ reference: 'vsa-2026-000001' }] }, 'VSA-2026-000001'),
    ).toEqual({ items: [{ reference: 'vsa-2026-000001' }] });
    expect(withNumber(links, {}, 'VSA-2026-000009')).toEqual({
      items: [{ reference: 'VSA-2026-000009' }],
    });
  });

  it('is offered only where the items may be changed', () => {
    expect(itemsEditable(links, 'all')).toBe(true);
    expect(itemsEditable(links, ['payer', 'items'])).toBe(true);
    expect(itemsEditable(links, ['payment', 'message'])).toBe(false);
  });
});
