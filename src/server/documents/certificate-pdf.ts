/** The issued document as an A4 PDF: header with QR code, sections, how to check it. */
import { PDFDocument, PageSizes, StandardFonts, rgb } from '@cantoo/pdf-lib';
import type { PDFFont, PDFPage } from '@cantoo/pdf-lib';
import QRCode from 'qrcode';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { toWinAnsi, wrap } from '../pdf/text';

/** A list printed as a table: the columns' headings (amounts align right), then a row per item. */
export interface CertificateTable {
  columns: Array<{ heading: string; alignRight: boolean }>;
  /** Cells as printed, one per column; '' for an item without that value. */
  rows: string[][];
}

/** One row: its label and its value, or its values one per line, or its table (no values). */
export interface CertificateRow {
  label: string;
  values: string[];
  table?: CertificateTable;
  /** `false`: several values are one value's lines (an address), not a numbered list. */
  numbered?: false;
}

/** A group of rows under a heading (the holder, the visa...); untitled before the first heading. */
export interface CertificateSection {
  heading: string | undefined;
  fields: CertificateRow[];
}

export interface CertificateContent {
  title: string;
  number: string;
  sections: CertificateSection[];
  /** The address the QR code opens: the public check (`check`), else the portal (`view`). */
  link: { url: string; opens: 'check' | 'view' };
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
/** Tables: smaller text, each cell wrapped within its column and cut after a few lines. */
const CELL_SIZE = 9;
const CELL_LINE = 11;
const CELL_PAD = 4;
/** A cell's text from the top of its row to its first baseline, and from its last to the rule. */
const CELL_TOP = 10.5;
const CELL_BOTTOM = 5.5;
const MAX_CELL_LINES = 4;
const MAX_HEADING_LINES = 2;

const TEXT = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.35, 0.35, 0.35);
const ACCENT = rgb(0.05, 0.27, 0.47);
const RULE = rgb(0.6, 0.6, 0.6);

const sum = (numbers: number[]) => numbers.reduce((total, n) => total + n, 0);

/**
 * A table's column widths: spare width shared in proportion when all fit, else columns narrower
 * than an equal share keep theirs and the others share the rest.
 */
function columnWidths(natural: number[]): number[] {
  const total = sum(natural);
  if (total <= CONTENT_WIDTH) return natural.map((width) => (width * CONTENT_WIDTH) / total);
  const widths = [...natural];
  let open = natural.map((_, index) => index);
  let left = CONTENT_WIDTH;
  for (;;) {
    const share = left / open.length;
    const narrow = open.filter((index) => (natural[index] ?? 0) <= share);
    if (narrow.length === 0) {
      for (const index of open) widths[index] = share;
      return widths;
    }
    left -= sum(narrow.map((index) => natural[index] ?? 0));
    open = open.filter((index) => !narrow.includes(index));
    if (open.length === 0) return widths;
  }
}

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
  drawQr(page, content.link.url, PAGE_WIDTH - MARGIN - QR_SIZE, PAGE_HEIGHT - MARGIN + 8, QR_SIZE);
  const headingWidth = CONTENT_WIDTH - QR_SIZE - 10;
  write(safe(t('issuer')), MARGIN, 12, bold, ACCENT);
  y -= 34;
  for (const line of lines(content.title, bold, 24, headingWidth, 2)) {
    write(line, MARGIN, 24, bold);
    y -= 30;
  }
  write(safe(t('number', { number: content.number })), MARGIN, 13, bold);
  y -= 22;
  // Beside the code, what to do with the document: keep it, or open it in the portal.
  const checks = content.link.opens === 'check';
  for (const line of lines(t(checks ? 'keep' : 'openNote'), regular, 9, headingWidth, 3)) {
    write(line, MARGIN, 9, regular, MUTED);
    y -= 12;
  }
  y = Math.min(y, PAGE_HEIGHT - MARGIN - QR_SIZE) - 10;

  // The sections; a row too long for one page goes on over the next, its label repeated.
  const usable = PAGE_HEIGHT - 2 * MARGIN - FOOTER_SPACE;
  const drawLine = (text: string, x: number, size: number, font: PDFFont, colour: typeof TEXT) =>
    page.drawText(text, { x, y: y - VALUE_SIZE, size, font, color: colour });

  /** A table under its label; a row never split, each page repeating the label and header row. */
  const drawTable = (label: string, table: CertificateTable) => {
    const cellText = (text: string, font: PDFFont, width: number, max: number) =>
      text === '' ? [] : lines(text, font, CELL_SIZE, width - 2 * CELL_PAD, max);
    const widthOf = (text: string, font: PDFFont) => font.widthOfTextAtSize(safe(text), CELL_SIZE);
    const natural = table.columns.map((column, index) => {
      const cells = table.rows.map((row) => widthOf(row[index] ?? '', regular));
      return Math.max(widthOf(column.heading, bold), ...cells) + 2 * CELL_PAD + 1;
    });
    const widths = columnWidths(natural);
    const xs = widths.map((_, index) => MARGIN + sum(widths.slice(0, index)));
    const headings = table.columns.map((column, index) =>
      cellText(column.heading, bold, widths[index] ?? 0, MAX_HEADING_LINES),
    );
    const rows = table.rows.map((row) =>
      table.columns.map((_, index) =>
        cellText(row[index] ?? '', regular, widths[index] ?? 0, MAX_CELL_LINES),
      ),
    );
    const heightOf = (cells: string[][]) =>
      (Math.max(1, ...cells.map((cell) => cell.length)) - 1) * CELL_LINE + CELL_TOP + CELL_BOTTOM;
    const drawCells = (cells: string[][], font: PDFFont, colour: typeof TEXT) =>
      cells.forEach((cell, index) => {
        const x = xs[index] ?? MARGIN;
        const right = x + (widths[index] ?? 0) - CELL_PAD;
        cell.forEach((text, line) => {
          page.drawText(text, {
            x: table.columns[index]?.alignRight
              ? right - font.widthOfTextAtSize(text, CELL_SIZE)
              : x + CELL_PAD,
            y: y - CELL_TOP - line * CELL_LINE,
            size: CELL_SIZE,
            font,
            color: colour,
          });
        });
      });
    // No label: the section's heading above says what the table is.
    const labelLines = label === '' ? [] : lines(label, regular, LABEL_SIZE, CONTENT_WIDTH, 2);
    const top = () => {
      for (const line of labelLines) {
        drawLine(line, MARGIN, LABEL_SIZE, regular, MUTED);
        y -= LINE;
      }
      drawCells(headings, bold, ACCENT);
      y -= heightOf(headings);
      rule(ACCENT, 0.8);
    };
    const topHeight = labelLines.length * LINE + heightOf(headings);
    // The label and header row never end a page: they stay with the first row.
    if (y - topHeight - heightOf(rows[0] ?? []) < BOTTOM) newPage();
    top();
    rows.forEach((cells, index) => {
      const height = heightOf(cells);
      if (y - height < BOTTOM) {
        newPage();
        top();
      }
      drawCells(cells, regular, TEXT);
      y -= height;
      if (index < rows.length - 1) rule(RULE, 0.3);
    });
    y -= ROW_GAP;
  };
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
      if (field.table) {
        drawTable(field.label, field.table);
        continue;
      }
      const label = lines(field.label, regular, LABEL_SIZE, LABEL_WIDTH - 12, 3);
      // Several values (a list) are numbered, one paragraph each.
      const numbered = field.numbered !== false && field.values.length > 1;
      const values = field.values.flatMap((value, index) => {
        const text = numbered ? `${index + 1}. ${value}` : value;
        return lines(text, bold, VALUE_SIZE, VALUE_WIDTH, MAX_VALUE_LINES);
      });
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

  // Footer on every page: how to check (or open) the document, and that it needs no signature.
  const small = (text: string, width: number, max: number) => lines(text, regular, 8, width, max);
  const check = small(t(checks ? 'check' : 'open'), CONTENT_WIDTH, 2);
  const url = small(content.link.url, CONTENT_WIDTH, 2);
  const footer = small(t('footer'), CONTENT_WIDTH - 70, 2);
  pages.forEach((each, index) => {
    page = each;
    y = MARGIN + FOOTER_SPACE - 14;
    rule();
    y -= 6;
    for (const line of [...check, ...url, ...footer]) {
      write(line, MARGIN, 8, regular, MUTED);
      y -= 10;
    }
    const [pageLabel = ''] = small(t('page', { page: index + 1, pages: pages.length }), 60, 1);
    y += 10 * footer.length;
    const right = PAGE_WIDTH - MARGIN - regular.widthOfTextAtSize(pageLabel, 8);
    write(pageLabel, right, 8, regular, MUTED);
  });
  return doc.save();
}
