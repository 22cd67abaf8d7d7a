/**
 * A refund's receipt as a PDF, made as the payment receipt is (receipt-pdf.ts): A4, Helvetica,
 * texts from translations/{lang}/refund.json, in the holder's language (the refund's).
 */
import { formatDateTime, formatMoney } from '../../core/format';
import { translate } from '../../core/i18n/translate';
import type { Language, TextTree } from '../../core/i18n/translate';
import { CONTENT_WIDTH, FOOTER_SIZE, MARGIN, PdfLayout } from '../pdf/layout';
import type { RefundReceiptData } from './refund-service';

const FOOTER_SPACE = 44;
const TITLE_SIZE = 20;
const HEADING_SIZE = 12;
const TEXT_SIZE = 10;
const LINE = 14;
const ROW_GAP = 4;
const LABEL_WIDTH = 170;
const COLUMN_GAP = 10;
/** Where the details' values start. */
export const REFUND_RECEIPT_VALUE_X = MARGIN + LABEL_WIDTH;

export async function renderRefundReceiptPdf(
  receipt: RefundReceiptData,
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): Promise<Uint8Array> {
  const t = (key: string, params?: Record<string, unknown>) =>
    translate(texts, language, `refund.${key}`, params);
  const layout = await PdfLayout.create(FOOTER_SPACE);
  const { doc } = layout;
  const issuer = t('receipt.issuer');
  doc.setTitle(t('receipt.documentName', { number: receipt.refundNumber }), {
    showInWindowTitleBar: true,
  });
  doc.setAuthor(issuer);
  doc.setCreator(issuer);
  const about = t('receipt.documentValue', {
    title: receipt.documentTitle,
    number: receipt.documentNumber,
  });
  doc.setSubject(about);
  doc.setLanguage(language);

  layout.heading(issuer, t('receipt.title'), { issuer: HEADING_SIZE, title: TITLE_SIZE });

  // Codes are printed as words: the method and the reason in the receipt's language.
  const details: Array<[string, string]> = [
    [t('receipt.number'), receipt.refundNumber],
    [t('receipt.date'), formatDateTime(receipt.completedAt)],
    [t('receipt.document'), about],
    ...(receipt.holderName ? [[t('receipt.holder'), receipt.holderName] as [string, string]] : []),
    [t('receipt.amount'), formatMoney(receipt.amount, language, receipt.currency)],
    [t('receipt.method'), t(`methods.${receipt.method}`)],
    [t('receipt.reason'), t(`reasons.${receipt.reason}`)],
    [t('receipt.originalReceipt'), receipt.receiptReference],
    ...(receipt.transferReference
      ? [[t('receipt.transferReference'), receipt.transferReference] as [string, string]]
      : []),
  ];
  layout.details(details, {
    labelWidth: LABEL_WIDTH,
    valueX: REFUND_RECEIPT_VALUE_X,
    size: TEXT_SIZE,
    line: LINE,
    gap: ROW_GAP,
  });

  const pageLabelWidth = 80;
  const footerWidth = CONTENT_WIDTH - pageLabelWidth - COLUMN_GAP;
  const footer = layout.lines(t('receipt.footer'), false, FOOTER_SIZE, footerWidth, 2);
  const top = MARGIN + FOOTER_SPACE - 12;
  layout.footer(top, 12, footer, 0, pageLabelWidth, (page, pages) =>
    t('receipt.page', { page, pages }),
  );
  return doc.save();
}
