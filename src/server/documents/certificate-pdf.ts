/**
 * The issued document as a PDF (an e-visa): one A4 page in Helvetica, the document's title,
 * number and status, the certificate's fields as label and value, and a QR code that opens the
 * public document check of the home page with the number filled in. Texts come from
 * translations (`certificate.*` of the portal's own texts); values are written by
 * src/core/format.
 */
import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { toWinAnsi, wrap } from '../pdf/text';

export interface CertificateContent {
  /** The document's title as printed (e.g. Electronic visa). */
  title: string;
  number: string;
  status: string;
  fields: Array<{ label: string; value: string }>;
  /** The address the QR code opens: the public check of this document. */
  checkUrl: string;
}

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 50;
const LABEL_WIDTH = 170;
const QR_SIZE = 140;
const TEXT = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.35, 0.35, 0.35);

/** The QR code of `text` drawn as dark squares, its top left corner at (x, top). */
function drawQr(page: PDFPage, text: string, x: number, top: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  // A quiet zone of four modules around the code, as scanners expect.
  const cell = size / (modules.size + 8);
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue;
      page.drawRectangle({
        x: x + (column + 4) * cell,
        y: top - (row + 5) * cell,
        width: cell,
        height: cell,
        color: rgb(0, 0, 0),
      });
    }
  }
}

/** Text cut to one line of `width`, ending in an ellipsis when cut. */
function fitted(text: string, font: PDFFont, size: number, width: number): string {
  return wrap(text, font, size, width, 1)[0] ?? '';
}

export async function renderCertificatePdf(
  content: CertificateContent,
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): Promise<Uint8Array> {
  const t = (key: string, params?: Record<string, unknown>) =>
    translate(texts, language, `certificate.${key}`, params);
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const charset = new Set(regular.getCharacterSet());
  const safe = (text: string) => toWinAnsi(text, charset);
  doc.setTitle(safe(`${content.title} ${content.number}`), { showInWindowTitleBar: true });
  doc.setAuthor(safe(t('issuer')));
  doc.setCreator(safe(t('issuer')));
  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);

  let y = PAGE_HEIGHT - MARGIN;
  const write = (text: string, x: number, size: number, font: PDFFont, colour = TEXT) =>
    page.drawText(safe(text), { x, y, size, font, color: colour });
  write(t('issuer'), MARGIN, 11, regular, MUTED);
  y -= 30;
  write(content.title, MARGIN, 22, bold);
  y -= 26;
  write(t('number', { number: content.number }), MARGIN, 13, bold);
  y -= 18;
  write(t('status', { status: content.status }), MARGIN, 11, regular, MUTED);
  drawQr(page, content.checkUrl, PAGE_WIDTH - MARGIN - QR_SIZE, PAGE_HEIGHT - MARGIN, QR_SIZE);

  y = PAGE_HEIGHT - MARGIN - QR_SIZE - 30;
  const valueWidth = PAGE_WIDTH - 2 * MARGIN - LABEL_WIDTH;
  for (const field of content.fields) {
    write(fitted(safe(field.label), regular, 10, LABEL_WIDTH - 10), MARGIN, 10, regular, MUTED);
    write(fitted(safe(field.value), bold, 11, valueWidth), MARGIN + LABEL_WIDTH, 11, bold);
    y -= 22;
  }
  y -= 20;
  write(t('check'), MARGIN, 10, regular, MUTED);
  y -= 14;
  write(fitted(safe(content.checkUrl), regular, 9, PAGE_WIDTH - 2 * MARGIN), MARGIN, 9, regular);
  return doc.save();
}
