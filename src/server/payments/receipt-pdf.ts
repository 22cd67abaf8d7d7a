/**
 * The payment receipt as a PDF: A4 pages in the standard Helvetica font (WinAnsi only: other
 * characters become '?' rather than failing), texts from translations/{lang}/receipt.json.
 */
import { formatDateTime, formatMoney } from '../../core/format';
import { translate } from '../../core/i18n/translate';
import type { Language, TextTree } from '../../core/i18n/translate';
import type { ReceiptData } from '../../core/payments/types';
import { CONTENT_WIDTH, FOOTER_SIZE, MARGIN, PdfLayout, RIGHT } from '../pdf/layout';

/** Kept free at the bottom of every page for the footer. */
const FOOTER_SPACE = 44;

const TITLE_SIZE = 20;
const HEADING_SIZE = 12;
const TEXT_SIZE = 10;
const LINE = 14;
const ROW_GAP = 4;

/** The details block: labels on the left, values wrapped in the rest of the width. */
const LABEL_WIDTH = 150;
/** Where the details' values start; the PDF tests find unlabelled values by it. */
export const RECEIPT_VALUE_X = MARGIN + LABEL_WIDTH;
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

/** The receipt of a paid order as PDF bytes, in the reader's language. */
export async function renderReceiptPdf(
  receipt: ReceiptData,
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): Promise<Uint8Array> {
  const t = (key: string, params?: Record<string, unknown>) =>
    translate(texts, language, `receipt.${key}`, params);
  const money = (amount: string) => formatMoney(amount, language);

  const layout = await PdfLayout.create(FOOTER_SPACE);
  const { doc } = layout;
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

  // Heading: who issues the receipt, and what it is.
  layout.heading(issuer, t('title'), { issuer: HEADING_SIZE, title: TITLE_SIZE });

  // Details: label and value pairs. The order's internal id is not one: its reference names it.
  const details: Array<[string, string]> = [
    [t('receiptReference'), receipt.receiptReference],
    [t('orderReference'), receipt.orderReference],
    [t('document'), about],
    [t('payer'), receipt.payerName],
    [t('paidAt'), formatDateTime(receipt.paidAt)],
    [t('card'), receipt.maskedCard],
  ];
  layout.details(details, {
    labelWidth: LABEL_WIDTH,
    valueX: RECEIPT_VALUE_X,
    maxValueLines: MAX_VALUE_LINES,
    size: TEXT_SIZE,
    line: LINE,
    gap: ROW_GAP,
  });
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
    layout.rule(6);
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
  layout.rule(6);
  for (const row of totalRows) {
    layout.draw(row.label, AMOUNT_LEFT - COLUMN_GAP, { bold: row.strong, align: 'right' });
    layout.draw(row.value, RIGHT, { bold: row.strong, align: 'right' });
    layout.y -= heightOf(row);
  }

  // Footer on every page: the no-signature line and the page number.
  const pageLabelWidth = 80;
  const footerWidth = CONTENT_WIDTH - pageLabelWidth - COLUMN_GAP;
  const footer = layout.lines(t('footer'), false, FOOTER_SIZE, footerWidth, 2);
  const top = MARGIN + FOOTER_SPACE - 12;
  layout.footer(top, 12, footer, 0, pageLabelWidth, (page, pages) => t('page', { page, pages }));
  return doc.save();
}
