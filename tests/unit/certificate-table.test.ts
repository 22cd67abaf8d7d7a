/**
 * A certificate with a table and amounts (an e-invoice): the items' table, the money written per
 * language with the certificate's currency, a long table going on over a second page with
 * nothing lost, and the QR code of a document without public check opening it in the portal.
 * Rendered from a workflow and entity of this file, read back as text by pdf.js.
 */
import { describe, expect, it } from 'vitest';
import type { EntityDefinition } from '../../src/core/definitions/types';
import type { WorkflowCertificate, WorkflowDefinition } from '../../src/core/documents/workflow';
import { type Language, type TextTree } from '../../src/core/i18n/translate';
import {
  certificateContent,
  type CatalogNames,
  type CertifiedDocument,
} from '../../src/server/documents/certificate';
import {
  CERTIFICATE_VALUE_X,
  renderCertificatePdf,
} from '../../src/server/documents/certificate-pdf';
import { readProjectJson } from '../support/definitions-dir';
import { assertReadablePdf, extractPdfText, textsOf, type PdfText } from '../support/pdf-text';

type CertifiedWorkflow = WorkflowDefinition & { certificate: WorkflowCertificate };

/** The invoice's own texts, beside the portal's. */
const INVOICE_TEXTS: Record<Language, TextTree> = {
  en: {
    title: 'Electronic invoice',
    payer: 'Payer',
    itemList: 'Invoiced applications',
    number: 'Application number',
    kind: 'Kind',
    country: 'Country',
    submitted: 'Submitted on',
    amount: 'Amount due',
    total: 'Total due',
    none: 'No application',
    enumKind: { VISA: 'Visa application', SPONSOR: 'Sponsor application' },
  },
  fr: {
    title: 'Facture électronique',
    payer: 'Payeur',
    itemList: 'Demandes facturées',
    number: 'Numéro de demande',
    kind: 'Nature',
    country: 'Pays',
    submitted: 'Déposée le',
    amount: 'Montant dû',
    total: 'Total dû',
    none: 'Aucune demande',
    enumKind: { VISA: 'Demande de visa', SPONSOR: 'Demande de parrainage' },
  },
};

function textsFor(language: Language): TextTree {
  const { enumKind, ...invoice } = INVOICE_TEXTS[language];
  // The enumeration's names sit where the certificate looks for them: <entity>.<path>.enum.
  return {
    ...textsOf(language),
    'test-invoice': { ...invoice, items: { kind: { enum: enumKind as TextTree } } },
  };
}
const texts: Record<Language, TextTree> = { en: textsFor('en'), fr: textsFor('fr') };

const CATALOG: Record<string, Record<string, string>> = {
  country: { WS: 'Samoa', NZ: 'New Zealand' },
};
const names: CatalogNames = async (catalog, code) => CATALOG[catalog]?.[code];

const entity: EntityDefinition = {
  id: 'test-invoice',
  sections: [],
  schema: {
    type: 'object',
    properties: {
      payer: { type: 'string' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            number: { type: 'string' },
            kind: { type: 'string', enum: ['VISA', 'SPONSOR'] },
            country: { type: 'string' },
            submittedAt: { type: 'string', format: 'date' },
            amountDue: { type: 'string' },
          },
        },
      },
      total: { type: 'string' },
    },
  },
  uiSchema: {
    items: { items: { country: { 'ui:widget': 'catalog', 'ui:options': { catalog: 'country' } } } },
  },
};

const certificate: WorkflowCertificate = {
  statuses: ['ISSUED'],
  roles: ['print'],
  title: 'test-invoice.title',
  currency: 'NZD',
  fields: [
    { label: 'test-invoice.payer', pointer: '/payer' },
    {
      label: 'test-invoice.itemList',
      pointer: '/items',
      empty: 'test-invoice.none',
      columns: [
        { label: 'test-invoice.number', pointer: '/number' },
        { label: 'test-invoice.kind', pointer: '/kind' },
        { label: 'test-invoice.country', pointer: '/country' },
        { label: 'test-invoice.submitted', pointer: '/submittedAt' },
        { label: 'test-invoice.amount', pointer: '/amountDue', format: 'money' },
      ],
    },
    { label: 'test-invoice.total', pointer: '/total', format: 'money' },
  ],
};

/** The invoice's workflow: the visa's, without public check, under its own prefix. */
async function invoiceWorkflow(): Promise<CertifiedWorkflow> {
  const visa = await readProjectJson<CertifiedWorkflow>('workflows/visa-application.json');
  const { verification: _none, ...rest } = visa;
  return { ...rest, id: 'test-invoice', prefix: '/payment/invoice', certificate };
}

const ID = '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d';

function invoice(items: Array<Record<string, unknown>>, total: unknown): CertifiedDocument {
  return {
    id: ID,
    number: 'INV-2026-000005',
    status: 'ISSUED',
    data: { payer: 'Tuilagi Family Trust', items, total },
  };
}

const THREE = [
  {
    number: 'VA-2026-000042',
    kind: 'VISA',
    country: 'WS',
    submittedAt: '2026-03-01',
    // As the server sums amounts: a decimal string.
    amountDue: '1234.5',
  },
  { number: 'SP-2026-000007', kind: 'SPONSOR', country: 'NZ', submittedAt: '2026-03-02' },
  // A number is written to the cent as well.
  { number: 'VA-2026-000043', kind: 'VISA', country: 'WS', amountDue: 250 },
];

async function render(document: CertifiedDocument, language: Language) {
  const workflow = await invoiceWorkflow();
  const environment = { publicUrl: 'https://portal.example/', texts };
  const content = await certificateContent(
    { workflow, entity, document, environment, language },
    names,
  );
  const pdf = await extractPdfText(await renderCertificatePdf(content, texts, language));
  return { content, pdf };
}

/** The lines' texts, no-break spaces (French digit groups) read as spaces. */
const linesOf = (pdf: PdfText) => pdf.lines.map((line) => line.text.replace(/\u00a0/g, ' '));

/** Data printed as given. */
const NAMES = ['Tuilagi Family Trust', 'Samoa', 'New Zealand'];

describe('a certificate with a table and amounts', { timeout: 30_000 }, () => {
  it('prints the items as a table and the amounts in NZD, in English', async () => {
    const { pdf, content } = await render(invoice(THREE, '1484.50'), 'en');
    assertReadablePdf(pdf, { language: 'en', valueX: CERTIFICATE_VALUE_X, names: NAMES });
    const lines = linesOf(pdf);
    for (const expected of [
      'Electronic invoice',
      'Number: INV-2026-000005',
      'Payer\tTuilagi Family Trust',
      'Invoiced applications',
      'Application number\tKind\tCountry\tSubmitted on\tAmount due',
      'VA-2026-000042\tVisa application\tSamoa\t01/03/2026\tNZD 1,234.50',
      // No date, no amount: blank cells, the others in their columns.
      'SP-2026-000007\tSponsor application\tNew Zealand\t02/03/2026',
      'VA-2026-000043\tVisa application\tSamoa\tNZD 250.00',
      'Total due\tNZD 1,484.50',
    ]) {
      expect(lines, expected).toContain(expected);
    }
    // Each amount sits in the amount column: right-aligned on its edge.
    const amounts = pdf.lines.flatMap((line) => line.runs.filter((r) => r.text.startsWith('NZD')));
    expect(amounts).toHaveLength(3);
    expect(content.sections[0]?.fields[1]?.table?.columns.map((c) => c.alignRight)).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(pdf.text).not.toMatch(/\bVISA\b|\bSPONSOR\b|\bWS\b|1234|test-invoice/);
  });

  it('writes the headings and amounts the French way', async () => {
    const { pdf } = await render(invoice(THREE, 1484.5), 'fr');
    assertReadablePdf(pdf, { language: 'fr', valueX: CERTIFICATE_VALUE_X, names: NAMES });
    const lines = linesOf(pdf);
    for (const expected of [
      'Facture électronique',
      'Demandes facturées',
      'Numéro de demande\tNature\tPays\tDéposée le\tMontant dû',
      'VA-2026-000042\tDemande de visa\tSamoa\t01/03/2026\t1 234,50 NZD',
      'VA-2026-000043\tDemande de visa\tSamoa\t250,00 NZD',
      'Total dû\t1 484,50 NZD',
    ]) {
      expect(lines, expected).toContain(expected);
    }
  });

  it('prints a value that is not an amount as written', async () => {
    const { pdf } = await render(invoice([{ number: 'VA-1', amountDue: 'waived' }], 'n/a'), 'en');
    const lines = linesOf(pdf);
    expect(lines).toContain('VA-1\twaived');
    expect(lines).toContain('Total due\tn/a');
  });

  it('says there is no item rather than drawing an empty table', async () => {
    const { pdf, content } = await render(invoice([], '0'), 'en');
    expect(content.sections[0]?.fields[1]?.table).toBeUndefined();
    expect(linesOf(pdf)).toContain('Invoiced applications\tNo application');
    expect(linesOf(pdf)).toContain('Total due\tNZD 0.00');
  });

  it('opens a document without public check in the portal, and says so', async () => {
    for (const language of ['en', 'fr'] as const) {
      const { pdf, content } = await render(invoice(THREE, '1484.50'), language);
      const url = `https://portal.example/#/payment/invoice/view/${ID}`;
      expect(content.link).toEqual({ url, opens: 'view' });
      const lines = linesOf(pdf);
      expect(lines).toContain(url);
      expect(pdf.text).not.toContain('#/home?number=');
      const [open, note, check, keep] =
        language === 'en'
          ? [
              'Scan the code or open this address, once signed in to the portal, to see the document:',
              'Scan the code to open this document in the portal; you will be asked to sign in.',
              'Scan the code or open this address to check the document',
              'passport',
            ]
          : [
              'Scannez le code ou ouvrez cette adresse, une fois connecté au portail, pour consulter le document :',
              'Scannez le code pour ouvrir ce document sur le portail ; une connexion vous sera demandée.',
              'pour vérifier le document',
              'passeport',
            ];
      // The caption wraps; read it as one text.
      const text = lines.join(' ');
      expect(text).toContain(open);
      expect(text).toContain(note);
      expect(text).not.toContain(check);
      expect(text).not.toContain(keep);
    }
  });

  it('goes on over a second page with a long table, its headings repeated and no row lost', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({
      number: `VA-2026-${String(100 + i).padStart(6, '0')}`,
      kind: i % 2 ? 'SPONSOR' : 'VISA',
      country: 'NZ',
      submittedAt: '2026-03-01',
      amountDue: `${1000 + i}.25`,
    }));
    const { pdf } = await render(invoice(items, '61830.00'), 'en');
    expect(pdf.pageCount).toBeGreaterThan(1);
    assertReadablePdf(pdf, { language: 'en', valueX: CERTIFICATE_VALUE_X, names: NAMES });
    const lines = linesOf(pdf);
    items.forEach((item, i) => {
      const row = `${item.number}\t${i % 2 ? 'Sponsor' : 'Visa'} application\tNew Zealand\t01/03/2026\tNZD 1,${String(i).padStart(3, '0')}.25`;
      expect(
        lines.filter((line) => line === row),
        row,
      ).toHaveLength(1);
    });
    // Every page the table is on starts it with its label and header row.
    const header = 'Application number\tKind\tCountry\tSubmitted on\tAmount due';
    const pagesWithRows = new Set(
      pdf.lines.filter((line) => line.text.startsWith('VA-2026-')).map((line) => line.page),
    );
    expect(pagesWithRows.size).toBeGreaterThan(1);
    for (const page of pagesWithRows) {
      const onPage = pdf.lines.filter((line) => line.page === page).map((line) => line.text);
      const headerAt = onPage.indexOf(header);
      expect(headerAt, `header on page ${page}`).toBeGreaterThan(0);
      expect(onPage[headerAt - 1]).toBe('Invoiced applications');
      expect(onPage.findIndex((text) => text.startsWith('VA-2026-'))).toBeGreaterThan(headerAt);
    }
    expect(lines).toContain('Total due\tNZD 61,830.00');
    expect(pdf.text).toContain(`Page 2 of ${pdf.pageCount}`);
  });

  it('narrows and wraps columns too wide for the page, cutting nothing short', async () => {
    const long = 'Applicant with a very long name that cannot fit in its column at all';
    const { pdf } = await render(
      invoice([{ number: `VA-2026-000042 ${long}`, kind: 'VISA', amountDue: '10' }], '10'),
      'en',
    );
    const runs = pdf.lines.flatMap((line) => line.runs);
    const right = 595.28 - 50;
    for (const run of runs) expect(run.x, run.text).toBeLessThan(right);
    // Wrapped over lines of its cell, every word still there.
    expect(pdf.text.replace(/\s+/g, ' ')).toContain('VA-2026-000042');
    for (const word of long.split(' ')) expect(pdf.text).toContain(word);
  });
});
