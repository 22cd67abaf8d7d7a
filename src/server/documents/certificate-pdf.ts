/**
 * The issued document as a PDF (an e-visa): A4 pages in Helvetica. At the top the issuer, the
 * document's title and number beside a QR code that opens the public document check of the home
 * page with the number filled in; then the certificate's sections (the holder, the visa, its
 * validity, its conditions), each a heading over label and value rows; at the bottom how to check
 * the document. Texts come from translations (`certificate.*` of the portal's own texts and the
 * workflow's keys); values arrive already written as words (see certificate.ts).
 */
import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { toWinAnsi, wrap } from '../pdf/text';

/** One row: its label and its value, or its values one per line (a list such as conditions). */
export interface CertificateRow {
  label: string;
  values: string[];
}

/** A group of rows under a heading (the holder, the visa...); untitled before the first heading. */
export interface CertificateSection {
  heading: string | undefined;
  fields: CertificateRow[];
}

export interface CertificateContent {
  /** The document's title as printed (e.g. Electronic visa). */
  title: string;
  number: string;
  sections: CertificateSection[];
  /** The address the QR code opens: the public check of this document. */
  checkUrl: string;
}

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const LABEL_WIDTH = 170;
/** Where every value starts; the PDF tests find unlabelled values by it. */
export const CERTIFICATE_VALUE_X = MARGIN + LABEL_WIDTH;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH;
const QR_SIZE = 130;
const FOOTER_SPACE = 70;
const BOTTOM = MARGIN + FOOTER_SPACE;
const LABEL_SIZE = 10;
const VALUE_SIZE = 11;
const LINE = 15;
const ROW_GAP = 7;
/** A value longer than this many lines is cut with an ellipsis (fields are at most 2000 characters). */
const MAX_VALUE_LINES = 12;

const TEXT = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.35, 0.35, 0.35);
const ACCENT = rgb(0.05, 0.27, 0.47);
const RULE = rgb(0.6, 0.6, 0.6);

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
  const lines = (text: string, font: PDFFont, size: number, width: number, max: number) =>
    wrap(safe(text), font, size, width, max);
  doc.setTitle(safe(`${content.title} ${content.number}`), { showInWindowTitleBar: true });
  doc.setAuthor(safe(t('issuer')));
  doc.setCreator(safe(t('issuer')));
  doc.setLanguage(language);

  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const band = () =>
    page.drawRectangle({ x: 0, y: PAGE_HEIGHT - 12, width: PAGE_WIDTH, height: 12, color: ACCENT });
  const newPage = () => {
    page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    pages.push(page);
    y = PAGE_HEIGHT - MARGIN;
    if (pages.length === 1) return;
    // A further page says whose document it continues.
    band();
    const [heading = ''] = lines(`${content.title} ${content.number}`, bold, 10, CONTENT_WIDTH, 1);
    page.drawText(heading, { x: MARGIN, y: y - 10, size: 10, font: bold, color: ACCENT });
    y -= 30;
  };
  const write = (text: string, x: number, size: number, font: PDFFont, colour = TEXT) =>
    page.drawText(text, { x, y: y - size, size, font, color: colour });
  const rule = (colour = RULE, thickness = 0.5) =>
    page.drawLine({
      start: { x: MARGIN, y },
      end: { x: PAGE_WIDTH - MARGIN, y },
      thickness,
      color: colour,
    });

  // Heading: the issuer, the title and the number, beside the QR code.
  newPage();
  band();
  drawQr(page, content.checkUrl, PAGE_WIDTH - MARGIN - QR_SIZE, PAGE_HEIGHT - MARGIN + 8, QR_SIZE);
  const headingWidth = CONTENT_WIDTH - QR_SIZE - 10;
  write(safe(t('issuer')), MARGIN, 12, bold, ACCENT);
  y -= 34;
  for (const line of lines(content.title, bold, 24, headingWidth, 2)) {
    write(line, MARGIN, 24, bold);
    y -= 30;
  }
  write(safe(t('number', { number: content.number })), MARGIN, 13, bold);
  y -= 22;
  for (const line of lines(t('keep'), regular, 9, headingWidth, 3)) {
    write(line, MARGIN, 9, regular, MUTED);
    y -= 12;
  }
  y = Math.min(y, PAGE_HEIGHT - MARGIN - QR_SIZE) - 10;

  // The sections: a heading over label and value rows. A row that fits on a page is kept on
  // one; a longer one (many conditions) goes on over the next, its label repeated there.
  const usable = PAGE_HEIGHT - 2 * MARGIN - FOOTER_SPACE;
  const drawLine = (text: string, x: number, size: number, font: PDFFont, colour: typeof TEXT) =>
    page.drawText(text, { x, y: y - VALUE_SIZE, size, font, color: colour });
  for (const section of content.sections) {
    if (section.heading !== undefined) {
      // A heading never ends a page: it stays with the first lines of its section.
      if (y - 40 - 3 * LINE < BOTTOM) newPage();
      y -= 14;
      write(safe(section.heading), MARGIN, 12, bold, ACCENT);
      y -= 18;
      rule(ACCENT, 0.8);
      y -= 8;
    }
    for (const field of section.fields) {
      const label = lines(field.label, regular, LABEL_SIZE, LABEL_WIDTH - 12, 3);
      // Several values (a list) are numbered, one paragraph each.
      const numbered = field.values.length > 1;
      const values = field.values.flatMap((value, index) =>
        lines(
          numbered ? `${index + 1}. ${value}` : value,
          bold,
          VALUE_SIZE,
          VALUE_WIDTH,
          MAX_VALUE_LINES,
        ),
      );
      const height = Math.max(label.length, values.length) * LINE;
      if (y - height < BOTTOM && height <= usable) newPage();
      let labelLine = 0;
      for (let index = 0; index < Math.max(label.length, values.length); index++) {
        if (y - LINE < BOTTOM) {
          newPage();
          labelLine = 0;
        }
        const labelText = label[labelLine++];
        if (labelText !== undefined) drawLine(labelText, MARGIN, LABEL_SIZE, regular, MUTED);
        const value = values[index];
        if (value !== undefined) drawLine(value, CERTIFICATE_VALUE_X, VALUE_SIZE, bold, TEXT);
        y -= LINE;
      }
      y -= ROW_GAP;
    }
  }

  // Footer on every page: how to check the document, and that it needs no signature.
  const check = lines(t('check'), regular, 8, CONTENT_WIDTH, 2);
  const url = lines(content.checkUrl, regular, 8, CONTENT_WIDTH, 2);
  const footer = lines(t('footer'), regular, 8, CONTENT_WIDTH - 70, 2);
  pages.forEach((each, index) => {
    page = each;
    y = MARGIN + FOOTER_SPACE - 14;
    rule();
    y -= 6;
    for (const line of [...check, ...url]) {
      write(line, MARGIN, 8, regular, MUTED);
      y -= 10;
    }
    for (const line of footer) {
      write(line, MARGIN, 8, regular, MUTED);
      y -= 10;
    }
    const [pageLabel = ''] = lines(
      t('page', { page: index + 1, pages: pages.length }),
      regular,
      8,
      60,
      1,
    );
    y += 10 * footer.length;
    write(
      pageLabel,
      PAGE_WIDTH - MARGIN - regular.widthOfTextAtSize(pageLabel, 8),
      8,
      regular,
      MUTED,
    );
  });
  return doc.save();
}
