import { isNode } from '../definitions/json';
import { resolvePointer } from '../rules/registry';
import type { CertificateHolders, WorkflowCertificate } from './workflow';

/** One of a document's people holding a certificate: where they are, their number and name. */
export interface CertificateHolder {
  /** Their index in the list. */
  index: number;
  item: Record<string, unknown>;
  number: string;
  /** Their name as the declaration builds it (`name` fields, joined by a space). */
  name: string;
}

/** The people of a document who hold a certificate of their own now (`certificate.holders`). */
export function holdersOf(
  holders: CertificateHolders,
  data: Record<string, unknown>,
): CertificateHolder[] {
  const list = resolvePointer(data, holders.list);
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown, index) => {
    if (!isNode(item)) return [];
    const number = resolvePointer(item, holders.number);
    if (typeof number !== 'string' || number === '') return [];
    const name = holders.name
      .map((field) => item[field])
      .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
      .join(' ');
    return [{ index, item, number, name }];
  });
}

/** The document's own holder named as its people are (`holders.name`); empty without them. */
export function ownHolderName(
  certificate: Pick<WorkflowCertificate, 'fields' | 'holders'>,
  data: Record<string, unknown>,
): string {
  return (certificate.holders?.name ?? [])
    .map((field) => certificate.fields.find((f) => f.holder === `/${field}`)?.pointer)
    .map((pointer) => (pointer ? resolvePointer(data, pointer) : undefined))
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join(' ');
}
