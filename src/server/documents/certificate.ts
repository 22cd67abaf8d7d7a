import type { Kysely, Transaction } from 'kysely';
import type { EntityDefinition } from '../../core/definitions/types';
import type {
  CertificateColumn,
  CertificateField,
  WorkflowCertificate,
  WorkflowDefinition,
} from '../../core/documents/workflow';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { isEmpty, resolvePointer } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import type {
  CertificateContent,
  CertificateRow,
  CertificateSection,
  CertificateTable,
} from './certificate-pdf';
import type { CertificateHolder } from '../../core/documents/certificate-holders';
import type { DocumentDraft } from './effect-context';
import { storedCatalogNames, valueWords, type CatalogNames } from './value-words';

/** What a certificate needs of the server: where the portal is, and its texts. */
export interface CertificateEnvironment {
  publicUrl: string;
  texts: Partial<Record<Language, TextTree>>;
}

/** The document as its certificate reads it. */
export type CertifiedDocument = Pick<DocumentDraft, 'number' | 'id' | 'status' | 'data'>;

/** The address of a route of the portal (its hash router) at the server's public address. */
export function portalUrl(publicUrl: string, route: string): string {
  return `${publicUrl.replace(/\/$/, '')}/#${route}`;
}

/** The public check of a document's number (the home page's); `via` says how it was reached. */
export function checkRoute(number: string, via?: 'qr'): string {
  return `/home?number=${encodeURIComponent(number)}${via ? `&via=${via}` : ''}`;
}

export type { CatalogNames } from './value-words';

/** Nothing to print: no value, an empty text or an empty list. */
const isBlank = (value: unknown) => isEmpty(value) || (Array.isArray(value) && value.length === 0);

/** What a certificate is made from: the document, its workflow and entity, the server's texts. */
export interface CertificateSource {
  db: Kysely<Database> | Transaction<Database>;
  workflow: WorkflowDefinition & { certificate: WorkflowCertificate };
  entity: EntityDefinition;
  document: CertifiedDocument;
  environment: CertificateEnvironment;
  language: Language;
  /** One of the document's people (`certificate.holders`): their certificate, not the document's. */
  holder?: CertificateHolder;
}

/** A certificate's content with its catalogue names read by `names` (the database, or a test's). */
export async function certificateContent(
  { workflow, entity, document, environment, language, holder }: Omit<CertificateSource, 'db'>,
  names: CatalogNames,
): Promise<CertificateContent> {
  const t = (key: string) => translate(environment.texts, language, key);
  const currency = workflow.certificate.currency;
  const printed = valueWords(
    { entity, data: document.data, texts: environment.texts, language, currency },
    names,
  );

  /** Where a field's value is: on a holder's certificate, its `holder` pointer in their item. */
  const placeOf = (field: CertificateField): string =>
    holder && field.holder !== undefined
      ? `${workflow.certificate.holders?.list ?? ''}/${holder.index}${field.holder}`
      : field.pointer;

  /** A field's lines: one for a value, one per item for a list (`each`), one per part (`lines`). */
  const linesOf = async (field: CertificateField): Promise<string[]> => {
    const pointer = placeOf(field);
    const value = resolvePointer(document.data, pointer);
    const { lines: parts, each } = field;
    // Each value with its pointer; the empty ones are left out.
    const found: Array<[unknown, string]> =
      parts !== undefined
        ? parts.map((part) => [resolvePointer(value, part), `${pointer}${part}`])
        : each === undefined
          ? [[value, pointer]]
          : Array.isArray(value)
            ? value.map((item, i) => [resolvePointer(item, each), `${field.pointer}/${i}${each}`])
            : [];
    const lines: string[] = [];
    for (const [inner, at] of found)
      if (!isBlank(inner)) lines.push(await printed(inner, at, field.format));
    return lines;
  };

  /** A list printed as a table (`columns`): one row per item; none for no items. */
  const tableOf = async (
    field: CertificateField,
    columns: CertificateColumn[],
  ): Promise<CertificateTable | undefined> => {
    const value = resolvePointer(document.data, field.pointer);
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const rows: string[][] = [];
    for (const [index, item] of value.entries()) {
      const cells: string[] = [];
      for (const column of columns) {
        const inner = resolvePointer(item, column.pointer);
        const pointer = `${field.pointer}/${index}${column.pointer}`;
        cells.push(isBlank(inner) ? '' : await printed(inner, pointer, column.format));
      }
      rows.push(cells);
    }
    return {
      columns: columns.map((column) => ({
        heading: t(column.label),
        alignRight: column.format === 'money',
      })),
      rows,
    };
  };

  const sections: CertificateSection[] = [];
  for (const field of workflow.certificate.fields) {
    const table = field.columns ? await tableOf(field, field.columns) : undefined;
    let values = field.columns ? [] : await linesOf(field);
    if (values.length === 0 && !table) {
      // Nothing to say: left off, unless the workflow names what its absence means.
      if (field.empty === undefined) continue;
      values = [t(field.empty)];
    }
    const heading = field.section === undefined ? undefined : t(field.section);
    let section = sections.at(-1);
    if (!section || (heading !== undefined && section.heading !== heading)) {
      section = { heading, fields: [] };
      sections.push(section);
    }
    // A table that opens a section of its own name (an invoice's items) is not labelled twice.
    const label = t(field.label);
    const row: CertificateRow = { label: table && label === heading ? '' : label, values };
    // An object's parts (an address) are its lines, not a numbered list.
    if (field.lines) row.numbered = false;
    if (table) row.table = table;
    section.fields.push(row);
  }
  const number = holder?.number ?? document.number ?? document.id;
  const url = environment.publicUrl;
  // Only a workflow declaring the public check gets it; others open in the portal (sign-in).
  // The QR code says it was scanned (`via=qr`): the check's log tells scans from typed numbers.
  const link: CertificateContent['link'] = workflow.verification
    ? {
        url: portalUrl(url, checkRoute(number)),
        opens: 'check',
        qr: portalUrl(url, checkRoute(number, 'qr')),
      }
    : {
        url: portalUrl(url, `${workflow.prefix}/view/${encodeURIComponent(document.id)}`),
        opens: 'view',
      };
  return { title: t(workflow.certificate.title), number, sections, link };
}

/** A certificate's content with the catalogue names of the database, as valid now. */
export function storedCertificateContent(source: CertificateSource): Promise<CertificateContent> {
  // In the certificate's language (English without a translation).
  return certificateContent(source, storedCatalogNames(source.db, source.language));
}

export async function certificatePdf(source: CertificateSource): Promise<Uint8Array> {
  const content = await storedCertificateContent(source);
  // pdf-lib and qrcode load with the first PDF, not with every start of the server.
  const { renderCertificatePdf } = await import('./certificate-pdf');
  return renderCertificatePdf(content, source.environment.texts, source.language);
}
