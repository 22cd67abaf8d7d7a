import type { Kysely, Transaction } from 'kysely';
import { catalogFieldsOf } from '../../core/definitions/catalog-fields';
import type { EntityDefinition } from '../../core/definitions/types';
import type { WorkflowCertificate, WorkflowDefinition } from '../../core/documents/workflow';
import { formatDate } from '../../core/format';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import { entriesValidAt } from '../catalog/valid-at';
import type { Database } from '../db/schema';
import { renderCertificatePdf, type CertificateContent } from './certificate-pdf';

/** What a certificate needs of the server: where the portal is, and its texts. */
export interface CertificateEnvironment {
  publicUrl: string;
  texts: Partial<Record<Language, TextTree>>;
}

/** The document as its certificate reads it. */
export interface CertifiedDocument {
  number: string | null;
  id: string;
  status: string;
  data: Record<string, unknown>;
}

/** The address of the public check of a document: the home page with the number filled in. */
export function checkUrl(publicUrl: string, number: string): string {
  return `${publicUrl.replace(/\/$/, '')}/#/home?number=${encodeURIComponent(number)}`;
}

/** The language the holder asked to be written to in (the workflow's `holderLanguage`), else English. */
export function holderLanguage(
  workflow: WorkflowDefinition,
  data: Record<string, unknown>,
): Language {
  if (!workflow.holderLanguage) return 'en';
  return resolvePointer(data, workflow.holderLanguage) === 'fr' ? 'fr' : 'en';
}

/**
 * A field's value as printed: a date as DD/MM/YYYY; a code of a field the schema draws with
 * a catalogue (the visa's document and type) followed by the entry's name valid today.
 */
async function printedValue(
  db: Kysely<Database> | Transaction<Database>,
  value: unknown,
  catalog: string | undefined,
  at: Date,
): Promise<string> {
  if (value === undefined || value === null || value === '') return '-';
  const text = String(value);
  if (catalog) {
    const [entry] = await entriesValidAt(db, catalog, at, [text]);
    const name = entry?.data.name;
    if (typeof name === 'string' && name !== '') return `${text} - ${name}`;
  }
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? formatDate(text.slice(0, 10)) : text;
}

/** The catalogue of the select that fills the field at `pointer`, if one does. */
function catalogAt(entity: EntityDefinition, pointer: string): string | undefined {
  return catalogFieldsOf(entity).find((field) => `/${field.segments.join('/')}` === pointer)
    ?.catalog;
}

/** What a certificate is made from: the document, its workflow and entity, the server's texts. */
export interface CertificateSource {
  db: Kysely<Database> | Transaction<Database>;
  workflow: WorkflowDefinition & { certificate: WorkflowCertificate };
  entity: EntityDefinition;
  document: CertifiedDocument;
  environment: CertificateEnvironment;
  language: Language;
}

export async function certificateContent(
  { db, workflow, entity, document, environment, language }: CertificateSource,
  now: Date = new Date(),
): Promise<CertificateContent> {
  const t = (key: string) => translate(environment.texts, language, key);
  const number = document.number ?? document.id;
  const fields = [];
  for (const field of workflow.certificate.fields) {
    fields.push({
      label: t(field.label),
      value: await printedValue(
        db,
        resolvePointer(document.data, field.pointer),
        catalogAt(entity, field.pointer),
        now,
      ),
    });
  }
  return {
    title: t(workflow.certificate.title),
    number,
    status: t(`statuses.${document.status}`),
    fields,
    checkUrl: checkUrl(environment.publicUrl, number),
  };
}

export async function certificatePdf(source: CertificateSource): Promise<Uint8Array> {
  const content = await certificateContent(source);
  return renderCertificatePdf(content, source.environment.texts, source.language);
}
