import type { WorkflowLinks } from '../../../core/documents/workflow';
import { resolvePointer, setAt } from '../../../core/rules/registry';

/** The numbers a form's items name (`links`), as typed, upper-cased. */
export function namedNumbers(links: WorkflowLinks, data: Record<string, unknown>): string[] {
  const items = resolvePointer(data, links.items);
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const value = (item as Record<string, unknown> | null)?.[links.number];
    return typeof value === 'string' && value.trim() ? [value.trim().toUpperCase()] : [];
  });
}

/**
 * The form's data with one more item naming `number`: in the first item left blank, else a new
 * one at the end; the server fills the rest of the item as the form is derived.
 */
export function withNumber(
  links: WorkflowLinks,
  data: Record<string, unknown>,
  number: string,
): Record<string, unknown> {
  if (namedNumbers(links, data).includes(number)) return data;
  const next = structuredClone(data);
  const found = resolvePointer(next, links.items);
  const items = Array.isArray(found) ? (found as Array<Record<string, unknown> | null>) : [];
  const blank = items.findIndex((item) => {
    const value = item?.[links.number];
    return typeof value !== 'string' || value.trim() === '';
  });
  if (blank >= 0) items[blank] = { ...(items[blank] ?? {}), [links.number]: number };
  else items.push({ [links.number]: number });
  setAt(next, links.items, items);
  return next;
}

/** Whether the screen lets the items be changed: their section is among the editable ones. */
export function itemsEditable(links: WorkflowLinks, editable: readonly string[] | 'all'): boolean {
  const section = links.items.split('/')[1] ?? '';
  return editable === 'all' || editable.includes(section);
}
