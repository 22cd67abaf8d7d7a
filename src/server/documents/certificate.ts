import type { Kysely, Transaction } from 'kysely';
import { catalogFieldsOf } from '../../core/definitions/catalog-fields';
import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import type {
  CertificateField,
  WorkflowCertificate,
  WorkflowDefinition,
} from '../../core/documents/workflow';
import { formatDate } from '../../core/format';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import { entriesValidAt } from '../catalog/valid-at';
import type { Database } from '../db/schema';
import {
  renderCertificatePdf,
  type CertificateContent,
  type CertificateSection,
} from './certificate-pdf';

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

/** The name of a catalogue entry valid at the time of printing, if there is one. */
export type CatalogNames = (catalog: string, code: string) => Promise<string | undefined>;

/** Catalogue names read from the database, as valid at `at`. */
export function catalogNamesFrom(
  db: Kysely<Database> | Transaction<Database>,
  at: Date,
): CatalogNames {
  return async (catalog, code) => {
    const [entry] = await entriesValidAt(db, catalog, at, [code]);
    const name = entry?.data.name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  };
}

/** The schema of the property at a data pointer (array items for a numeric segment). */
function schemaAt(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const segment of pointer.split('/').slice(1)) {
    if (!node) return undefined;
    const properties = node.properties as Record<string, JsonSchema> | undefined;
    node = /^\d+$/.test(segment) ? (node.items as JsonSchema | undefined) : properties?.[segment];
  }
  return node;
}

/** The catalogue of the select that fills the field at `pointer`, if one does. */
function catalogAt(entity: EntityDefinition, pointer: string): string | undefined {
  return catalogFieldsOf(entity).find((field) => `/${field.segments.join('/')}` === pointer)
    ?.catalog;
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

/** What a certificate is made from: the document, its workflow and entity, the server's texts. */
export interface CertificateSource {
  db: Kysely<Database> | Transaction<Database>;
  workflow: WorkflowDefinition & { certificate: WorkflowCertificate };
  entity: EntityDefinition;
  document: CertifiedDocument;
  environment: CertificateEnvironment;
  language: Language;
}

/** A certificate's content with its catalogue names read by `names` (the database, or a test's). */
export async function certificateContent(
  { workflow, entity, document, environment, language }: Omit<CertificateSource, 'db'>,
  names: CatalogNames,
): Promise<CertificateContent> {
  // Every key names a text in both languages: the definitions check refuses one that does not.
  const t = (key: string) => translate(environment.texts, language, key);

  /**
   * One value as words: a date as DD/MM/YYYY, an enumeration value as its name (the form's
   * `<entity>.<path>.enum.<value>` text), a catalogue code as the entry's name (the code
   * itself only when no entry is valid any more), anything else as written.
   */
  const printed = async (value: unknown, pointer: string): Promise<string> => {
    const text = String(value);
    const path = pointer
      .split('/')
      .slice(1)
      .filter((s) => !/^\d+$/.test(s))
      .join('.');
    if (Array.isArray(schemaAt(entity.schema, pointer)?.enum)) {
      return t(`${entity.id}.${path}.enum.${text}`);
    }
    const catalog = catalogAt(entity, pointer);
    if (catalog) return (await names(catalog, text)) ?? text;
    if (typeof value === 'boolean') return t(value ? 'form.yes' : 'form.no');
    return /^\d{4}-\d{2}-\d{2}$/.test(text) ? formatDate(text) : text;
  };

  /** A field's lines: one for a value, one per item for a list (`each`). */
  const linesOf = async (field: CertificateField): Promise<string[]> => {
    const value = resolvePointer(document.data, field.pointer);
    if (field.each === undefined)
      return isEmpty(value) ? [] : [await printed(value, field.pointer)];
    if (!Array.isArray(value)) return [];
    const lines: string[] = [];
    for (const [index, item] of value.entries()) {
      const inner = resolvePointer(item, field.each);
      if (!isEmpty(inner))
        lines.push(await printed(inner, `${field.pointer}/${index}${field.each}`));
    }
    return lines;
  };

  const sections: CertificateSection[] = [];
  for (const field of workflow.certificate.fields) {
    let values = await linesOf(field);
    if (values.length === 0) {
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
    section.fields.push({ label: t(field.label), values });
  }
  const number = document.number ?? document.id;
  return {
    title: t(workflow.certificate.title),
    number,
    sections,
    checkUrl: checkUrl(environment.publicUrl, number),
  };
}

export async function certificatePdf(source: CertificateSource): Promise<Uint8Array> {
  const content = await certificateContent(source, catalogNamesFrom(source.db, new Date()));
  return renderCertificatePdf(content, source.environment.texts, source.language);
}
