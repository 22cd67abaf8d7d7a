import { describe, expect, it } from 'vitest';
import {
  PDFArray,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  StandardFonts,
  decodePDFRawStream,
} from '@cantoo/pdf-lib';
import { formatDateTime } from '../../src/core/format';
import { missingKeys } from '../../src/core/i18n/translate';
import { toWinAnsi } from '../../src/server/pdf/text';
import { RECEIPT_VALUE_X, renderReceiptPdf } from '../../src/server/payments/receipt-pdf';
import { readProjectJson } from '../support/definitions-dir';
import { assertReadablePdf, extractPdfText, readabilityProblems } from '../support/pdf-text';
import type { Language, TextTree } from '../../src/core/i18n/translate';
import type { FeeLine, ReceiptData } from '../../src/core/payments/types';

/** The receipt's texts as the loader files them: translations/{lang}/receipt.json under "receipt". */
async function loadTexts(): Promise<Record<Language, TextTree>> {
  const en = await readProjectJson<TextTree>('translations/en/receipt.json');
  const fr = await readProjectJson<TextTree>('translations/fr/receipt.json');
  return { en: { receipt: en }, fr: { receipt: fr } };
}

const receipt: ReceiptData = {
  receiptReference: 'RCP-2026-000123',
  orderReference: 'ORD-2026-000456',
  orderId: '0b6f3a52-8d1e-4c57-9a41-2f1e5c7d9e10',
  documentNumber: 'VA-2026-000042',
  documentTitle: 'Visa application',
  payerName: 'Zoë Dupré-Çelik',
  items: [
    { code: 'VISA-FEE', name: 'Visitor visa application fee', amount: '150.00' },
    { code: 'BIO-FEE', name: 'Biometrics', amount: '0.10' },
    { code: 'PRIORITY', name: 'Priority processing', amount: '0.20' },
  ],
  total: '150.30',
  amountPaid: '150.30',
  currency: 'NZD',
  maskedCard: '•••• 1111',
  paidAt: '2026-03-05T10:20:30.000Z',
};

/** WinAnsi is Latin-1 but for 0x80-0x9F (Node's TextDecoder treats windows-1252 as Latin-1). */
const WIN_ANSI_HIGH: Record<number, string> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};
const decodeWinAnsi = (codes: Uint8Array): string =>
  Array.from(codes, (code) => WIN_ANSI_HIGH[code] ?? String.fromCharCode(code)).join('');

interface DrawnText {
  text: string;
  x: number;
  size: number;
  bold: boolean;
}

/**
 * Every text drawn on each page. pdf-lib writes standard-font text as hex strings of WinAnsi
 * (Windows-1252) codes after a `Tm` that places it; the content streams are deflated.
 */
async function readPdf(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  const pages = doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray
        ? Array.from({ length: contents.size() }, (_, i) => contents.lookup(i, PDFRawStream))
        : [contents as PDFRawStream];
    const source = streams
      .map((stream) => new TextDecoder('latin1').decode(decodePDFRawStream(stream).decode()))
      .join('\n');
    const drawn: DrawnText[] = [];
    const pattern =
      /\/(Helvetica(?:-Bold)?)-\d+ ([\d.]+) Tf[\s\S]*?1 0 0 1 ([\d.-]+) [\d.-]+ Tm\s*<([0-9A-F]*)> Tj/g;
    for (const match of source.matchAll(pattern)) {
      const [, font = '', size = '0', x = '0', hex = ''] = match;
      const codes = Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
      drawn.push({
        text: decodeWinAnsi(codes),
        x: Number(x),
        size: Number(size),
        bold: font.endsWith('Bold'),
      });
    }
    return drawn;
  });
  const lang = doc.catalog.get(PDFName.of('Lang'));
  return {
    doc,
    pages,
    lines: pages.flat().map((d) => d.text),
    text: pages
      .flat()
      .map((d) => d.text)
      .join('\n'),
    language: lang instanceof PDFString ? lang.decodeText() : undefined,
  };
}

describe('renderReceiptPdf', () => {
  it('has complete English and French receipt texts', async () => {
    const texts = await loadTexts();
    expect(missingKeys(texts.en, texts.fr)).toEqual([]);
    expect(missingKeys(texts.fr, texts.en)).toEqual([]);
  });

  it('renders an English receipt with its metadata and every detail', async () => {
    const bytes = await renderReceiptPdf(receipt, await loadTexts(), 'en');
    expect(new TextDecoder('latin1').decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const { doc, text, lines, language } = await readPdf(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Payment receipt RCP-2026-000123');
    expect(doc.getAuthor()).toBe('Immigration Service');
    expect(doc.getCreator()).toBe('Immigration Service');
    expect(language).toBe('en');
    for (const expected of [
      'Immigration Service',
      'Payment receipt',
      'RCP-2026-000123',
      'ORD-2026-000456',
      'Visa application VA-2026-000042',
      'Zoë Dupré-Çelik',
      formatDateTime(receipt.paidAt),
      '•••• 1111',
      'VISA-FEE',
      'Visitor visa application fee',
      'NZD 150.00',
      'NZD 0.10',
      'NZD 0.20',
      'NZD 150.30',
      'NZD',
      'This receipt was issued electronically and needs no signature.',
      'Page 1 of 1',
    ]) {
      expect(lines, expected).toContain(expected);
    }
    expect(text).toContain('150.00');
  });

  it('renders a French receipt', async () => {
    const bytes = await renderReceiptPdf(receipt, await loadTexts(), 'fr');
    expect(new TextDecoder('latin1').decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const { doc, lines, language } = await readPdf(bytes);
    expect(doc.getTitle()).toBe('Reçu de paiement RCP-2026-000123');
    expect(doc.getAuthor()).toBe("Service de l'immigration");
    expect(language).toBe('fr');
    for (const expected of [
      'Reçu de paiement',
      'Référence du reçu',
      'Date du paiement',
      'Frais payés',
      'RCP-2026-000123',
      'ORD-2026-000456',
      '150,00 NZD',
      '150,30 NZD',
      'Ce reçu a été émis par voie électronique et ne nécessite aucune signature.',
      'Page 1 sur 1',
    ]) {
      expect(lines, expected).toContain(expected);
    }
  });

  it('writes amounts exactly as the decimal strings given, never through a float', async () => {
    const items: FeeLine[] = [
      { code: 'A', name: 'Large', amount: '987654321098.55' },
      { code: 'B', name: 'Small', amount: '0.10' },
      { code: 'C', name: 'Small', amount: '0.20' },
    ];
    const big = { ...receipt, items, total: '987654321098.85', amountPaid: '987654321098.85' };
    const en = await readPdf(await renderReceiptPdf(big, await loadTexts(), 'en'));
    expect(en.lines).toContain('NZD 987,654,321,098.55');
    expect(en.lines).toContain('NZD 987,654,321,098.85');
    expect(en.text).not.toContain('0.30000000000000004');
    // French groups digits with a narrow no-break space, which WinAnsi lacks: a no-break space.
    const fr = await readPdf(await renderReceiptPdf(big, await loadTexts(), 'fr'));
    expect(fr.lines).toContain('987\u00a0654\u00a0321\u00a0098,85 NZD');
  });

  it('continues a long list of items on further pages, with the column titles again', async () => {
    const items: FeeLine[] = Array.from({ length: 60 }, (_, i) => ({
      code: `FEE-${String(i + 1).padStart(2, '0')}`,
      name: `Fee line number ${i + 1}`,
      amount: `${i + 1}.00`,
    }));
    const many = { ...receipt, items, total: '1830.00', amountPaid: '1830.00' };
    const { doc, pages, lines } = await readPdf(
      await renderReceiptPdf(many, await loadTexts(), 'en'),
    );
    expect(doc.getPageCount()).toBeGreaterThan(1);
    expect(pages).toHaveLength(doc.getPageCount());
    for (const item of items) expect(lines).toContain(item.code);
    expect(lines).toContain('NZD 1,830.00');
    expect(lines).toContain('Fees paid (continued)');
    expect(lines).toContain(`Page 2 of ${doc.getPageCount()}`);
    // Every page carries the footer.
    for (const page of pages) {
      expect(page.map((d) => d.text)).toContain(
        'This receipt was issued electronically and needs no signature.',
      );
    }
  });

  it('wraps or cuts long texts so that nothing leaves the page', async () => {
    const long: ReceiptData = {
      ...receipt,
      payerName: 'Wolfeschlegelsteinhausenbergerdorff '.repeat(20),
      items: [
        {
          code: 'A-VERY-LONG-FEE-CODE-THAT-DOES-NOT-FIT',
          name: 'word '.repeat(200),
          amount: '1.00',
        },
        { code: 'NOSPACE', name: 'x'.repeat(5000), amount: '2.00' },
      ],
    };
    const bytes = await renderReceiptPdf(long, await loadTexts(), 'en');
    const { doc, pages } = await readPdf(bytes);
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const { width, height } = doc.getPage(0).getSize();
    expect([width, height]).toEqual([595.28, 841.89]); // A4
    for (const drawn of pages.flat()) {
      const font = drawn.bold ? bold : regular;
      const right = drawn.x + font.widthOfTextAtSize(drawn.text, drawn.size);
      expect(drawn.x).toBeGreaterThanOrEqual(50 - 0.01);
      expect(right, drawn.text).toBeLessThanOrEqual(width - 50 + 0.01);
    }
    // Too long to wrap entirely: cut, with an ellipsis.
    expect(pages.flat().some((d) => d.text.endsWith('…'))).toBe(true);
  });

  it('replaces characters WinAnsi cannot write instead of failing', async () => {
    const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const charset = new Set(helvetica.getCharacterSet());
    expect(toWinAnsi('1\u202f234,50\tà ç è é • € Ł 王', charset)).toBe(
      '1\u00a0234,50 à ç è é • € ? ?',
    );
    const odd = { ...receipt, payerName: 'Łukasz 王 Zoë 🙂', documentTitle: 'Visa\napplication' };
    const { lines } = await readPdf(await renderReceiptPdf(odd, await loadTexts(), 'en'));
    expect(lines).toContain('?ukasz ? Zoë ?');
    expect(lines).toContain('Visa application VA-2026-000042');
  });

  // pdf.js loads once per file, slowly on a loaded machine.
  describe('read back as its reader sees it', { timeout: 30_000 }, () => {
    /** The labels the receipt prints beside a value, in a language. */
    const labels = async (language: Language) => {
      const tree = (await loadTexts())[language].receipt as TextTree;
      const keys = ['receiptReference', 'orderReference', 'document', 'payer', 'paidAt', 'card'];
      return [...keys, 'total', 'amountPaid', 'currency'].map((key) => tree[key] as string);
    };
    /** Data printed as given: the payer's name and the fee catalogue's names. */
    const names = [receipt.payerName, ...receipt.items.map((item) => item.name)];

    it('reads in English: every label with its value, the fees said to be paid', async () => {
      const pdf = await extractPdfText(await renderReceiptPdf(receipt, await loadTexts(), 'en'));
      assertReadablePdf(pdf, {
        language: 'en',
        labels: await labels('en'),
        valueX: RECEIPT_VALUE_X,
        names,
      });
      const lines = pdf.lines.map((line) => line.text);
      expect(lines).toContain('Fees paid');
      expect(lines).toContain('Code\tFee\tAmount');
      expect(lines).toContain('Receipt reference\tRCP-2026-000123');
      expect(lines).toContain('Total\tNZD 150.30');
      expect(pdf.text).not.toMatch(/to pay|0b6f3a52/);
    });

    it('reads in French, with nothing left in English', async () => {
      const french = { ...receipt, documentTitle: 'Demande de visa' };
      const pdf = await extractPdfText(await renderReceiptPdf(french, await loadTexts(), 'fr'));
      assertReadablePdf(pdf, {
        language: 'fr',
        labels: await labels('fr'),
        valueX: RECEIPT_VALUE_X,
        names,
      });
      const lines = pdf.lines.map((line) => line.text);
      expect(lines).toContain('Frais payés');
      expect(lines).toContain('Document\tDemande de visa VA-2026-000042');
      expect(lines).toContain('Montant payé\t150,30 NZD');
    });

    it('would fail on an English text or a missing value in a French receipt', async () => {
      const texts = await loadTexts();
      const fr = texts.fr.receipt as TextTree;
      // A French receipt whose heading fell back to English, and a payer left empty.
      const mixed: Record<Language, TextTree> = {
        ...texts,
        fr: { receipt: { ...fr, items: { ...(fr.items as TextTree), _: 'Fees to pay' } } },
      };
      const pdf = await extractPdfText(
        await renderReceiptPdf({ ...receipt, payerName: '' }, mixed, 'fr'),
      );
      const problems = readabilityProblems(pdf, {
        language: 'fr',
        labels: await labels('fr'),
        valueX: RECEIPT_VALUE_X,
        names,
      });
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^English word "fees" on page 1, line "Fees to pay"/),
          'label "Payeur" has no value (page 1)',
        ]),
      );
    });
  });
});
