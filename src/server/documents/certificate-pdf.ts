/** The issued document as an A4 PDF: header with QR code, sections, how to check it. */
import { rgb, type PDFPage, type RGB } from '@cantoo/pdf-lib';
import QRCode from 'qrcode';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import {
  CONTENT_WIDTH,
  FOOTER_SIZE,
  MARGIN,
  MUTED_COLOUR as MUTED,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  PdfLayout,
  RULE_COLOUR as RULE,
  TEXT_COLOUR as TEXT,
} from '../pdf/layout';

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
  link: {
    url: string;
    opens: 'check' | 'view';
    /** The QR code's own address when it differs from the one printed (the check's, as scanned). */
    qr?: string;
  };
}

const LABEL_WIDTH = 170;
/** Where every value starts; the PDF tests find unlabelled values by it. */
export const CERTIFICATE_VALUE_X = MARGIN + LABEL_WIDTH;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH;
const QR_SIZE = 130;
const FOOTER_SPACE = 70;
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

const ACCENT = rgb(0.05, 0.27, 0.47);
/** The accent band across the top of every page. */
const BAND = { x: 0, y: PAGE_HEIGHT - 12, width: PAGE_WIDTH, height: 12 };

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
  const layout = await PdfLayout.create(FOOTER_SPACE);
  const { doc } = layout;
  const safe = (text: string) => layout.safe(text);
  const name = `${content.title} ${content.number}`;
  doc.setTitle(safe(name), { showInWindowTitleBar: true });
  doc.setAuthor(safe(t('issuer')));
  doc.setCreator(safe(t('issuer')));
  doc.setLanguage(language);

  const band = () => layout.page.drawRectangle({ ...BAND, color: ACCENT });
  // A further page says whose document it continues.
  layout.onNewPage = () => {
    band();
    layout.draw(layout.lines(name, true, 10, CONTENT_WIDTH, 1), MARGIN, {
      bold: true,
      colour: ACCENT,
    });
    layout.y -= 30;
  };
  /** One line of text `drop` below the current y (its size unless said). */
  const write = (text: string, x: number, size: number, bold: boolean, colour: RGB, drop = size) =>
    layout.draw([text], x, { size, bold, colour, drop });

  // Heading: the issuer, the title and the number, beside the QR code.
  band();
  const qrTop = PAGE_HEIGHT - MARGIN + 8;
  drawQr(
    layout.page,
    content.link.qr ?? content.link.url,
    PAGE_WIDTH - MARGIN - QR_SIZE,
    qrTop,
    QR_SIZE,
  );
  const headingWidth = CONTENT_WIDTH - QR_SIZE - 10;
  write(safe(t('issuer')), MARGIN, 12, true, ACCENT);
  layout.y -= 34;
  const title = layout.lines(content.title, true, 24, headingWidth, 2);
  layout.draw(title, MARGIN, { bold: true, size: 24, lineHeight: 30, colour: TEXT });
  layout.y -= 30 * title.length;
  write(safe(t('number', { number: content.number })), MARGIN, 13, true, TEXT);
  layout.y -= 22;
  // Beside the code, what to do with the document: keep it, or open it in the portal.
  const checks = content.link.opens === 'check';
  const note = layout.lines(t(checks ? 'keep' : 'openNote'), false, 9, headingWidth, 3);
  layout.draw(note, MARGIN, { size: 9, lineHeight: 12, colour: MUTED });
  layout.y -= 12 * note.length;
  layout.y = Math.min(layout.y, PAGE_HEIGHT - MARGIN - QR_SIZE) - 10;

  // The sections; a row too long for one page goes on over the next, its label repeated.
  const usable = PAGE_HEIGHT - 2 * MARGIN - FOOTER_SPACE;

  /** A table under its label; a row never split, each page repeating the label and header row. */
  const drawTable = (label: string, table: CertificateTable) => {
    const cellText = (text: string, bold: boolean, width: number, max: number) =>
      text === '' ? [] : layout.lines(text, bold, CELL_SIZE, width - 2 * CELL_PAD, max);
    const widthOf = (text: string, bold: boolean) =>
      (bold ? layout.bold : layout.regular).widthOfTextAtSize(safe(text), CELL_SIZE);
    const natural = table.columns.map((column, index) => {
      const cells = table.rows.map((row) => widthOf(row[index] ?? '', false));
      return Math.max(widthOf(column.heading, true), ...cells) + 2 * CELL_PAD + 1;
    });
    const widths = columnWidths(natural);
    const xs = widths.map((_, index) => MARGIN + sum(widths.slice(0, index)));
    const headings = table.columns.map((column, index) =>
      cellText(column.heading, true, widths[index] ?? 0, MAX_HEADING_LINES),
    );
    const rows = table.rows.map((row) =>
      table.columns.map((_, index) =>
        cellText(row[index] ?? '', false, widths[index] ?? 0, MAX_CELL_LINES),
      ),
    );
    const heightOf = (cells: string[][]) =>
      (Math.max(1, ...cells.map((cell) => cell.length)) - 1) * CELL_LINE + CELL_TOP + CELL_BOTTOM;
    const drawCells = (cells: string[][], bold: boolean, colour: RGB) =>
      cells.forEach((cell, index) => {
        const x = xs[index] ?? MARGIN;
        const right = table.columns[index]?.alignRight;
        layout.draw(cell, right ? x + (widths[index] ?? 0) - CELL_PAD : x + CELL_PAD, {
          ...{ bold, colour, size: CELL_SIZE, lineHeight: CELL_LINE, drop: CELL_TOP },
          align: right ? 'right' : 'left',
        });
      });
    // No label: the section's heading above says what the table is.
    const labelLines = label === '' ? [] : layout.lines(label, false, LABEL_SIZE, CONTENT_WIDTH, 2);
    const top = () => {
      const label = { size: LABEL_SIZE, drop: VALUE_SIZE, lineHeight: LINE, colour: MUTED };
      layout.draw(labelLines, MARGIN, label);
      layout.y -= LINE * labelLines.length;
      drawCells(headings, true, ACCENT);
      layout.y -= heightOf(headings);
      layout.rule(0, ACCENT, 0.8);
    };
    const topHeight = labelLines.length * LINE + heightOf(headings);
    // The label and header row never end a page: they stay with the first row.
    layout.ensure(topHeight + heightOf(rows[0] ?? []));
    top();
    rows.forEach((cells, index) => {
      const height = heightOf(cells);
      if (layout.ensure(height)) top();
      drawCells(cells, false, TEXT);
      layout.y -= height;
      if (index < rows.length - 1) layout.rule(0, RULE, 0.3);
    });
    layout.y -= ROW_GAP;
  };
  for (const section of content.sections) {
    if (section.heading !== undefined) {
      // A heading never ends a page: it stays with the first lines of its section.
      layout.ensure(40 + 3 * LINE);
      layout.y -= 14;
      write(safe(section.heading), MARGIN, 12, true, ACCENT);
      layout.y -= 18;
      layout.rule(8, ACCENT, 0.8);
    }
    for (const field of section.fields) {
      if (field.table) {
        drawTable(field.label, field.table);
        continue;
      }
      const label = layout.lines(field.label, false, LABEL_SIZE, LABEL_WIDTH - 12, 3);
      // Several values (a list) are numbered, one paragraph each.
      const numbered = field.numbered !== false && field.values.length > 1;
      const values = field.values.flatMap((value, index) => {
        const text = numbered ? `${index + 1}. ${value}` : value;
        return layout.lines(text, true, VALUE_SIZE, VALUE_WIDTH, MAX_VALUE_LINES);
      });
      const height = Math.max(label.length, values.length) * LINE;
      if (height <= usable) layout.ensure(height);
      let labelLine = 0;
      for (let index = 0; index < Math.max(label.length, values.length); index++) {
        if (layout.ensure(LINE)) labelLine = 0;
        const labelText = label[labelLine++];
        if (labelText !== undefined) write(labelText, MARGIN, LABEL_SIZE, false, MUTED, VALUE_SIZE);
        const value = values[index];
        if (value !== undefined) write(value, CERTIFICATE_VALUE_X, VALUE_SIZE, true, TEXT);
        layout.y -= LINE;
      }
      layout.y -= ROW_GAP;
    }
  }

  // Footer on every page: how to check (or open) the document, and that it needs no signature.
  const small = (text: string, width: number, max: number) =>
    layout.lines(text, false, FOOTER_SIZE, width, max);
  const check = small(t(checks ? 'check' : 'open'), CONTENT_WIDTH, 2);
  const url = small(content.link.url, CONTENT_WIDTH, 2);
  const footer = small(t('footer'), CONTENT_WIDTH - 70, 2);
  const pageLabel = (page: number, pages: number) => t('page', { page, pages });
  const lines = [...check, ...url, ...footer];
  layout.footer(MARGIN + FOOTER_SPACE - 14, 14, lines, check.length + url.length, 60, pageLabel);
  return doc.save();
}
