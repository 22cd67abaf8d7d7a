/**
 * The issued document as a web page reads it: the content the PDF draws (certificate.ts), as
 * text in the holder's language, so a screen reader or a browser's zoom gets what the paper has.
 */
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import type { CertificateContent, CertificateRow } from './certificate-pdf';
import type { CertificateView, CertificateViewField } from '../../core/documents/certificate-view';

/** One row of the PDF as a field: one value, its lines (an address, a list), or its table. */
function fieldOf(row: CertificateRow): CertificateViewField {
  const field: CertificateViewField = { label: row.label };
  if (row.table)
    field.table = {
      columns: row.table.columns.map((column) => column.heading),
      rows: row.table.rows,
      // Amounts read right-aligned, as on the PDF.
      alignRight: row.table.columns.map((column) => column.alignRight),
    };
  else if (row.values.length === 1) field.value = row.values[0];
  else {
    field.lines = row.values;
    // Several values of a list (conditions) are numbered, as on the PDF; an address's lines not.
    if (row.numbered !== false) field.numbered = true;
  }
  return field;
}

/** The content of a certificate as the view route answers it (api-contract/certificate-view.ts). */
export function certificateView(
  content: CertificateContent,
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): CertificateView {
  const t = (key: string) => translate(texts, language, `certificate.${key}`);
  const checks = content.link.opens === 'check';
  return {
    language,
    issuer: t('issuer'),
    title: content.title,
    number: content.number,
    sections: content.sections.map((section) => ({
      heading: section.heading ?? null,
      fields: section.fields.map(fieldOf),
    })),
    // The public check as typed (no `via=qr`: the page's link is not a scan).
    checkUrl: checks ? content.link.url : null,
    checkText: checks ? t('checkAt') : null,
    notes: checks ? [t('keep'), t('footer')] : [t('footer')],
  };
}
