import type { PDFFont } from '@cantoo/pdf-lib';

/**
 * Text for PDFs written in the standard Helvetica (WinAnsi): made writable, and broken into
 * lines that fit. The receipt and the certificate both write with these.
 */

const ELLIPSIS = '\u2026';

/** Characters WinAnsi lacks but has a look-alike for; the rest of the unencodable become '?'. */
const REPLACEMENTS: Record<string, string> = {
  '\u202f': '\u00a0', // narrow no-break space (French digit groups) -> no-break space
  '\u2007': '\u00a0', // figure space
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u00ad': '', // soft hyphen
  '\u200b': '', // zero-width space
  '\u200c': '',
  '\u200d': '',
  '\u2060': '',
  '\ufeff': '',
};

/** Any text made writable in WinAnsi: one line, no control characters, '?' for the unknown. */
export function toWinAnsi(text: string, charset: ReadonlySet<number>): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const replacement = REPLACEMENTS[char];
    if (replacement !== undefined) out += replacement;
    else if (char !== '\u00a0' && /\s/u.test(char)) out += ' ';
    else if (charset.has(char.codePointAt(0) ?? -1)) out += char;
    else out += '?';
  }
  return out;
}

/**
 * Breaks text into lines no wider than `width`: at spaces, and inside a word too long for a
 * line. More than `maxLines` lines are cut, the last one ending in an ellipsis.
 */
export function wrap(text: string, font: PDFFont, size: number, width: number, maxLines: number) {
  const fits = (line: string) => font.widthOfTextAtSize(line, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    // Past the last line kept, the rest is cut anyway.
    if (lines.length > maxLines) break;
    const candidate = line === '' ? word : `${line} ${word}`;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    // A word wider than a line is split where it reaches the edge.
    for (const char of word) {
      if (lines.length > maxLines) break;
      if (line !== '' && !fits(line + char)) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1] ?? '';
  while (last !== '' && !fits(last + ELLIPSIS)) last = [...last].slice(0, -1).join('');
  kept[maxLines - 1] = last.trimEnd() + ELLIPSIS;
  return kept;
}
