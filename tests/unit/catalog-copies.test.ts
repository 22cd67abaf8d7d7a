import { describe, expect, it } from 'vitest';
import type { WorkflowCatalogCopy, WorkflowDefinition } from '../../src/core/documents/workflow';
import type { CatalogReader, ValidEntry } from '../../src/server/catalog/valid-at';
import { copyFromCatalog, daysAfter } from '../../src/server/documents/catalog-copies';
import type { EffectContext } from '../../src/server/documents/effect-context';
import { ApiProblem } from '../../src/server/http/api-error';
import { serverModules } from '../../src/modules/server';
import { DefinitionsError, loadDefinitions } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

const COPY: WorkflowCatalogCopy = {
  catalog: 'bank-account',
  code: 'FEES',
  to: '/payTo',
  fields: { payee: 'payee', accountNumber: 'accountNumber', swiftCode: 'swiftCode' },
  daysAfter: { dueDate: 'paymentTermDays' },
  number: 'reference',
};

/** The effect's context around a document, with the catalogue holding `entries` (by code). */
function contextWith(entries: Record<string, Record<string, unknown>>, now: Date) {
  const reader: CatalogReader = {
    validAt: (_catalog, _at, keys) =>
      Promise.resolve(
        (keys ?? []).flatMap((key) =>
          entries[key] ? [{ data: entries[key] } as unknown as ValidEntry] : [],
        ),
      ),
    validAtWith: () => Promise.resolve([]),
    isValidAt: () => Promise.resolve(false),
  };
  const document = { number: 'INV-2026-000007', data: {} as Record<string, unknown> };
  const context = {
    trx: {},
    environment: { catalogs: { through: () => reader } },
    workflow: { fromCatalog: [COPY] } as Partial<WorkflowDefinition>,
    document,
    now,
  } as unknown as EffectContext;
  return { context, document };
}

describe('settings copied from a catalogue entry (fromCatalog)', () => {
  it('writes the entry, the due date after the term and the number into the document', async () => {
    const { context, document } = contextWith(
      {
        FEES: {
          payee: 'Immigration Service',
          accountNumber: '02-0100-0123456-00',
          paymentTermDays: 14,
        },
      },
      new Date('2026-12-25T23:30:00Z'),
    );
    await copyFromCatalog(context);
    // No swift code in the entry: nothing written for it.
    expect(document.data.payTo).toEqual({
      payee: 'Immigration Service',
      accountNumber: '02-0100-0123456-00',
      dueDate: '2027-01-08',
      reference: 'INV-2026-000007',
    });
  });

  it('refuses (409, nothing written) when the entry is missing or its term is not whole days', async () => {
    const cases: Array<Record<string, Record<string, unknown>>> = [
      {},
      { FEES: { payee: 'Immigration Service', paymentTermDays: 1.5 } },
    ];
    for (const entries of cases) {
      const { context, document } = contextWith(entries, new Date('2026-03-01T10:00:00Z'));
      const error = await copyFromCatalog(context).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiProblem);
      expect(error).toMatchObject({ status: 409, code: 'SETTING_MISSING' });
      expect(document.data).toEqual({});
    }
  });

  it('counts days by the calendar, across months and leap years', () => {
    expect(daysAfter(new Date('2028-02-20T05:00:00Z'), 14)).toBe('2028-03-05');
    expect(daysAfter(new Date('2027-02-20T05:00:00Z'), 14)).toBe('2027-03-06');
    expect(daysAfter(new Date('2026-06-01T00:00:00Z'), 0)).toBe('2026-06-01');
  });
});

describe('the checker of fromCatalog', { timeout: 60_000 }, () => {
  it('refuses fields the catalogue or the document lacks, and a term that is not a number', async () => {
    const definitions = await copyDefinitions();
    try {
      const workflow = await readProjectJson<WorkflowDefinition>('workflows/payment-invoice.json');
      const [copy] = workflow.fromCatalog!;
      await definitions.write('workflows/payment-invoice.json', {
        ...workflow,
        fromCatalog: [
          {
            ...copy!,
            fields: { ...copy!.fields, iban: 'iban', bank: 'bankName' },
            daysAfter: { dueDate: 'payee' },
            number: 'quote',
          },
        ],
      });
      const error = await loadDefinitions(definitions.dir, serverModules).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DefinitionsError);
      expect(
        (error as DefinitionsError).problems
          .filter((p) => p.pointer.startsWith('/fromCatalog/'))
          .map((p) => `${p.pointer}: ${p.message}`)
          .sort(),
      ).toEqual(
        [
          '/fromCatalog/0/fields/iban: no field "/payTo/iban" in the document\'s schema',
          '/fromCatalog/0/fields/iban: catalogue "bank-account" has no field "iban"',
          '/fromCatalog/0/fields/bank: catalogue "bank-account" has no field "bankName"',
          '/fromCatalog/0/daysAfter/dueDate: catalogue "bank-account" has no number field "payee" to count days by',
          '/fromCatalog/0/number: no field "/payTo/quote" in the document\'s schema',
        ].sort(),
      );
    } finally {
      await definitions.remove();
    }
  });
});
