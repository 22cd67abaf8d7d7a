/**
 * A4 pages in the standard Helvetica font (WinAnsi only: other characters become '?' rather than
 * failing), laid out top to bottom. The receipt and the certificate are both drawn with this.
 */
import { PDFDocument, PageSizes, StandardFonts, rgb } from '@cantoo/pdf-lib';
import type { PDFFont, PDFPage, RGB } from '@cantoo/pdf-lib';
import { toWinAnsi, wrap } from './text';

export const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
export const MARGIN = 50;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const RIGHT = PAGE_WIDTH - MARGIN;

export const TEXT_COLOUR = rgb(0.1, 0.1, 0.1);
export const MUTED_COLOUR = rgb(0.35, 0.35, 0.35);
export const RULE_COLOUR = rgb(0.6, 0.6, 0.6);

export const FOOTER_SIZE = 8;
const FOOTER_LINE = 10;

interface DrawOptions {
  bold?: boolean;
  /** 10 points and lines 14 apart unless said. */
  size?: number;
  lineHeight?: number;
  /** From the current y to the first baseline: the size unless said. */
  drop?: number;
  align?: 'left' | 'right';
  colour?: RGB;
}

/** A document being laid out, opening a new page when the next block does not fit. */
/** How `details` lays its rows out (sizes in points). */
export interface DetailsOptions {
  labelWidth: number;
  valueX: number;
  maxValueLines?: number;
  size?: number;
  line?: number;
  gap?: number;
}

export class PdfLayout {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  y = 0;
  /** Called on every page opened after the first. */
  onNewPage?: () => void;
  private readonly charset: ReadonlySet<number>;
  /** The font each page currently writes in (see `write`). */
  private readonly pageFonts = new WeakMap<PDFPage, PDFFont>();

  private constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    /** The lowest y a block may reach: the footer's space is below it. */
    private readonly bottom: number,
  ) {
    this.charset = new Set(regular.getCharacterSet());
    this.newPage();
  }

  /** A new document on its first page, keeping `footerSpace` free above the bottom margin. */
  static async create(footerSpace: number): Promise<PdfLayout> {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    return new PdfLayout(doc, regular, bold, MARGIN + footerSpace);
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.pages.push(this.page);
    this.y = PAGE_HEIGHT - MARGIN;
    if (this.pages.length > 1) this.onNewPage?.();
  }

  /** Opens a new page unless `height` still fits above the footer; true if it opened one. */
  ensure(height: number): boolean {
    if (this.y - height >= this.bottom) return false;
    this.newPage();
    return true;
  }

  /** Any text made writable in the fonts. */
  safe(text: string): string {
    return toWinAnsi(text, this.charset);
  }

  lines(text: string, bold: boolean, size: number, width: number, maxLines: number): string[] {
    return wrap(this.safe(text), bold ? this.bold : this.regular, size, width, maxLines);
  }

  /** Draws already wrapped lines from the current y, left-aligned at x or right-aligned at it. */
  draw(lines: string[], x: number, options: DrawOptions = {}): void {
    const { bold = false, size = 10, lineHeight = 14, drop = size, align = 'left' } = options;
    const font = bold ? this.bold : this.regular;
    lines.forEach((line, index) => {
      const left = align === 'right' ? x - font.widthOfTextAtSize(line, size) : x;
      const y = this.y - drop - index * lineHeight;
      this.write(this.page, line, { x: left, y, size, font, colour: options.colour });
    });
  }

  /** A rule across the page at the current y, then `below` points further down. */
  rule(below = 0, colour = RULE_COLOUR, thickness = 0.5): void {
    this.line(this.page, this.y, colour, thickness);
    this.y -= below;
  }

  /** A receipt's heading: who issues it (muted), what it is (large), and a rule under them. */
  heading(issuer: string, title: string, sizes = { issuer: 12, title: 20 }): void {
    const issuerLines = this.lines(issuer, true, sizes.issuer, CONTENT_WIDTH, 2);
    this.draw(issuerLines, MARGIN, { bold: true, size: sizes.issuer, colour: MUTED_COLOUR });
    this.y -= issuerLines.length * (sizes.issuer + 4) + 6;
    const titleLines = this.lines(title, true, sizes.title, CONTENT_WIDTH, 2);
    this.draw(titleLines, MARGIN, { bold: true, size: sizes.title, lineHeight: sizes.title + 4 });
    this.y -= titleLines.length * (sizes.title + 4) + 6;
    this.rule(12);
  }

  /**
   * Label and value rows: labels in bold on the left (`labelWidth`, less a gap), values wrapped
   * from `valueX` to the right margin, each row kept on one page.
   */
  details(
    rows: ReadonlyArray<readonly [string, string]>,
    { labelWidth, valueX, maxValueLines = 4, size = 10, line = 14, gap = 4 }: DetailsOptions,
  ): void {
    for (const [label, value] of rows) {
      const labelLines = this.lines(label, true, size, labelWidth - 10, 2);
      const valueLines = this.lines(value, false, size, RIGHT - valueX, maxValueLines);
      const height = Math.max(labelLines.length, valueLines.length) * line + gap;
      this.ensure(height);
      this.draw(labelLines, MARGIN, { bold: true });
      this.draw(valueLines, valueX);
      this.y -= height;
    }
  }

  /**
   * On every page: a rule at `top`, the lines under it (from `drop` below), and the page number
   * (`pageLabel`, at most `labelWidth` wide) right-aligned on line `labelLine`.
   */
  footer(
    top: number,
    drop: number,
    lines: string[],
    labelLine: number,
    labelWidth: number,
    pageLabel: (page: number, pages: number) => string,
  ): void {
    const muted = { size: FOOTER_SIZE, font: this.regular, colour: MUTED_COLOUR };
    const baseline = (line: number) => top - drop - line * FOOTER_LINE;
    this.pages.forEach((page, index) => {
      this.line(page, top, RULE_COLOUR, 0.5);
      lines.forEach((line, lineIndex) => {
        this.write(page, line, { x: MARGIN, y: baseline(lineIndex), ...muted });
      });
      const label = pageLabel(index + 1, this.pages.length);
      const [text = ''] = this.lines(label, false, FOOTER_SIZE, labelWidth, 1);
      const x = RIGHT - this.regular.widthOfTextAtSize(text, FOOTER_SIZE);
      this.write(page, text, { x, y: baseline(labelLine), ...muted });
    });
  }

  private line(page: PDFPage, y: number, colour: RGB, thickness: number): void {
    page.drawLine({ start: { x: MARGIN, y }, end: { x: RIGHT, y }, thickness, color: colour });
  }

  /** Writes one line, setting the page's font only when it changes (not one resource per call). */
  private write(
    page: PDFPage,
    text: string,
    options: { x: number; y: number; size: number; font: PDFFont; colour?: RGB | undefined },
  ): void {
    const { font, colour = TEXT_COLOUR, ...position } = options;
    if (this.pageFonts.get(page) !== font) {
      page.setFont(font);
      this.pageFonts.set(page, font);
    }
    page.drawText(text, { ...position, color: colour });
  }
}
