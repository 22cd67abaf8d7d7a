/**
 * The payment receipt as a PDF: A4 pages in the standard Helvetica font (WinAnsi only: other
 * characters become '?' rather than failing), texts from translations/{lang}/receipt.json.
 */
import { PDFDocument, PageSizes, StandardFonts, rgb } from '@cantoo/pdf-lib';
import type { PDFFont, PDFPage, RGB } from '@cantoo/pdf-lib';
import { formatDateTime, formatMoney } from '../../core/format';
import { translate } from '../../core/i18n/translate';
import type { Language, TextTree } from '../../core/i18n/translate';
import type { ReceiptData } from '../../core/payments/types';
import { toWinAnsi, wrap } from '../pdf/text';

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const RIGHT = PAGE_WIDTH - MARGIN;
/** Kept free at the bottom of every page for the footer. */
const FOOTER_SPACE = 44;
const BOTTOM = MARGIN + FOOTER_SPACE;

const TITLE_SIZE = 20;
const HEADING_SIZE = 12;
const TEXT_SIZE = 10;
const FOOTER_SIZE = 8;
const LINE = 14;
const FOOTER_LINE = 10;
const ROW_GAP = 4;

/** The details block: labels on the left, values wrapped in the rest of the width. */
const LABEL_WIDTH = 150;
/** Where the details' values start; the PDF tests find unlabelled values by it. */
export const RECEIPT_VALUE_X = MARGIN + LABEL_WIDTH;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH;
const MAX_VALUE_LINES = 4;

/** The items table: code, name (wrapped), amount (right-aligned on the right margin). */
const CODE_WIDTH = 90;
/** Wide enough for NZD 999,999,999,999.99; longer amounts wrap, never cut. */
const AMOUNT_WIDTH = 130;
const COLUMN_GAP = 10;
const NAME_X = MARGIN + CODE_WIDTH + COLUMN_GAP;
const NAME_WIDTH = CONTENT_WIDTH - CODE_WIDTH - AMOUNT_WIDTH - 2 * COLUMN_GAP;
const AMOUNT_LEFT = RIGHT - AMOUNT_WIDTH;
const MAX_CODE_LINES = 2;
const MAX_NAME_LINES = 6;

const TEXT_COLOUR = rgb(0.1, 0.1, 0.1);
const MUTED_COLOUR = rgb(0.35, 0.35, 0.35);
const RULE_COLOUR = rgb(0.6, 0.6, 0.6);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  charset: ReadonlySet<number>;
}

/** The font each page currently writes in (see drawText). */
const pageFonts = new WeakMap<PDFPage, PDFFont>();

/** Writes one line, setting the page's font only when it changes (not one resource per call). */
function drawText(
  page: PDFPage,
  text: string,
  options: { x: number; y: number; size: number; font: PDFFont; colour: RGB },
): void {
  const { font, colour, ...position } = options;
  if (pageFonts.get(page) !== font) {
    page.setFont(font);
    pageFonts.set(page, font);
  }
  page.drawText(text, { ...position, color: colour });
}

/** Lays the receipt out top to bottom, opening a new page when the next block does not fit. */
class Layout {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  y = 0;

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.pages.push(this.page);
    this.y = PAGE_HEIGHT - MARGIN;
  }

  /** Opens a new page unless `height` still fits above the footer; true if it opened one. */
  ensure(height: number): boolean {
    if (this.y - height >= BOTTOM) return false;
    this.newPage();
    return true;
  }

  lines(text: string, bold: boolean, size: number, width: number, maxLines: number): string[] {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    return wrap(toWinAnsi(text, this.fonts.charset), font, size, width, maxLines);
  }

  /** Draws already wrapped lines from the current y, left-aligned at x or right-aligned at it. */
  draw(lines: string[], x: number, options: DrawOptions = {}): void {
    const { bold = false, size = TEXT_SIZE, lineHeight = LINE, align = 'left' } = options;
    const font = bold ? this.fonts.bold : this.fonts.regular;
    lines.forEach((line, index) => {
      const width = font.widthOfTextAtSize(line, size);
      drawText(this.page, line, {
        x: align === 'right' ? x - width : x,
        // The baseline sits a little above the bottom of the line box.
        y: this.y - index * lineHeight - size,
        size,
        font,
        colour: options.colour ?? TEXT_COLOUR,
      });
    });
  }

  rule(gapAbove = 4, gapBelow = 6): void {
    this.y -= gapAbove;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: RIGHT, y: this.y },
      thickness: 0.5,
      color: RULE_COLOUR,
    });
    this.y -= gapBelow;
  }
}

interface DrawOptions {
  bold?: boolean;
  size?: number;
  lineHeight?: number;
  align?: 'left' | 'right';
  colour?: RGB;
}

/** The receipt of a paid order as PDF bytes, in the reader's language. */
export async function renderReceiptPdf(
  receipt: ReceiptData,
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): Promise<Uint8Array> {
  const t = (key: string, params?: Record<string, unknown>) =>
    translate(texts, language, `receipt.${key}`, params);
  const money = (amount: string) => formatMoney(amount, language);

  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, charset: new Set(regular.getCharacterSet()) };

  const issuer = t('issuer');
  doc.setTitle(t('documentName', { reference: receipt.receiptReference }), {
    showInWindowTitleBar: true,
  });
  doc.setAuthor(issuer);
  doc.setCreator(issuer);
  const { documentTitle: title, documentNumber: number } = receipt;
  const about = t('documentValue', { title, number });
  doc.setSubject(about);
  doc.setLanguage(language);

  const layout = new Layout(doc, fonts);

  // Heading: who issues the receipt, and what it is.
  const issuerLines = layout.lines(issuer, true, HEADING_SIZE, CONTENT_WIDTH, 2);
  layout.draw(issuerLines, MARGIN, { bold: true, size: HEADING_SIZE, colour: MUTED_COLOUR });
  layout.y -= issuerLines.length * (HEADING_SIZE + 4) + 6;
  const titleLines = layout.lines(t('title'), true, TITLE_SIZE, CONTENT_WIDTH, 2);
  layout.draw(titleLines, MARGIN, { bold: true, size: TITLE_SIZE, lineHeight: TITLE_SIZE + 4 });
  layout.y -= titleLines.length * (TITLE_SIZE + 4);
  layout.rule(6, 12);

  // Details: label and value pairs. The order's internal id is not one: its reference names it.
  const details: Array<[string, string]> = [
    [t('receiptReference'), receipt.receiptReference],
    [t('orderReference'), receipt.orderReference],
    [t('document'), about],
    [t('payer'), receipt.payerName],
    [t('paidAt'), formatDateTime(receipt.paidAt)],
    [t('card'), receipt.maskedCard],
  ];
  for (const [label, value] of details) {
    const labelLines = layout.lines(label, true, TEXT_SIZE, LABEL_WIDTH - COLUMN_GAP, 2);
    const valueLines = layout.lines(value, false, TEXT_SIZE, VALUE_WIDTH, MAX_VALUE_LINES);
    const height = Math.max(labelLines.length, valueLines.length) * LINE + ROW_GAP;
    layout.ensure(height);
    layout.draw(labelLines, MARGIN, { bold: true });
    layout.draw(valueLines, RECEIPT_VALUE_X);
    layout.y -= height;
  }
  layout.y -= 12;

  // Items: a heading and the column titles on every page the table reaches.
  const column = (key: string, width: number) =>
    layout.lines(t(`items.${key}`), true, TEXT_SIZE, width, 1);
  const tableHeading = (continued: boolean) => {
    const heading = t(continued ? 'items.continued' : 'items._');
    layout.draw(layout.lines(heading, true, HEADING_SIZE, CONTENT_WIDTH, 1), MARGIN, {
      bold: true,
      size: HEADING_SIZE,
    });
    layout.y -= HEADING_SIZE + 8;
    layout.draw(column('code', CODE_WIDTH), MARGIN, { bold: true });
    layout.draw(column('name', NAME_WIDTH), NAME_X, { bold: true });
    layout.draw(column('amount', AMOUNT_WIDTH), RIGHT, { bold: true, align: 'right' });
    layout.y -= LINE;
    layout.rule(0, 6);
  };
  // The heading, the column titles and at least one row stay together.
  layout.ensure(HEADING_SIZE + 8 + LINE + 6 + 2 * LINE);
  tableHeading(false);

  for (const item of receipt.items) {
    const code = layout.lines(item.code, false, TEXT_SIZE, CODE_WIDTH, MAX_CODE_LINES);
    const name = layout.lines(item.name, false, TEXT_SIZE, NAME_WIDTH, MAX_NAME_LINES);
    const amount = layout.lines(money(item.amount), false, TEXT_SIZE, AMOUNT_WIDTH, 4);
    const height = Math.max(code.length, name.length, amount.length) * LINE + ROW_GAP;
    if (layout.ensure(height)) tableHeading(true);
    layout.draw(code, MARGIN);
    layout.draw(name, NAME_X);
    layout.draw(amount, RIGHT, { align: 'right' });
    layout.y -= height;
  }

  // Totals, kept together, right-aligned under the amounts.
  const totals: Array<[string, string, boolean]> = [
    [t('total'), money(receipt.total), true],
    [t('amountPaid'), money(receipt.amountPaid), false],
    [t('currency'), receipt.currency, false],
  ];
  const totalRows = totals.map(([label, value, strong]) => ({
    label: layout.lines(label, strong, TEXT_SIZE, AMOUNT_LEFT - MARGIN - COLUMN_GAP, 2),
    value: layout.lines(value, strong, TEXT_SIZE, AMOUNT_WIDTH, 4),
    strong,
  }));
  const heightOf = (row: { label: string[]; value: string[] }) =>
    Math.max(row.label.length, row.value.length) * LINE + ROW_GAP;
  layout.ensure(10 + totalRows.reduce((sum, row) => sum + heightOf(row), 0));
  layout.rule(0, 6);
  for (const row of totalRows) {
    layout.draw(row.label, AMOUNT_LEFT - COLUMN_GAP, { bold: row.strong, align: 'right' });
    layout.draw(row.value, RIGHT, { bold: row.strong, align: 'right' });
    layout.y -= heightOf(row);
  }

  // Footer on every page: the no-signature line and the page number.
  const pageCount = layout.pages.length;
  const pageLabelWidth = 80;
  const footerLines = (text: string, width: number, maxLines: number) =>
    layout.lines(text, false, FOOTER_SIZE, width, maxLines);
  const footer = footerLines(t('footer'), CONTENT_WIDTH - pageLabelWidth - COLUMN_GAP, 2);
  const muted = { size: FOOTER_SIZE, font: regular, colour: MUTED_COLOUR };
  layout.pages.forEach((page, index) => {
    const top = MARGIN + FOOTER_SPACE - 12;
    page.drawLine({
      start: { x: MARGIN, y: top },
      end: { x: RIGHT, y: top },
      thickness: 0.5,
      color: RULE_COLOUR,
    });
    footer.forEach((line, lineIndex) => {
      drawText(page, line, { x: MARGIN, y: top - 12 - lineIndex * FOOTER_LINE, ...muted });
    });
    const label = t('page', { page: index + 1, pages: pageCount });
    const [pageLabel = ''] = footerLines(label, pageLabelWidth, 1);
    const x = RIGHT - regular.widthOfTextAtSize(pageLabel, FOOTER_SIZE);
    drawText(page, pageLabel, { x, y: top - 12, ...muted });
  });

  return doc.save();
}
