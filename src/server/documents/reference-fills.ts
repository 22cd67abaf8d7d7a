import { resolvePointer, setAt } from '../../core/rules/registry';
import { isNode } from '../../core/definitions/json';
import type { EffectContext } from './effect-context';
import { referencedData } from './server-rules';
import { sectionOfPath } from '../../core/rules/sections';

/** A `documentReference` rule's `fills`: target -> sources, the first with a value wins. */
type Fills = Record<string, string[]>;

export function sourceValue(data: Record<string, unknown>, source: string): string | undefined {
  const parts = source
    .split(' ')
    .map((pointer) => resolvePointer(data, pointer))
    .filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
    .map(String)
    .filter((part) => part.trim() !== '');
  return parts.length ? parts.join(' ') : undefined;
}

/**
 * Copies what a valid reference names into the document and clears it when it names nothing
 * valid, so what the document shows always comes from the referenced one, never from typing.
 */
export async function fillReferences({ trx, entity, document, now }: EffectContext): Promise<void> {
  for (const use of entity.rules ?? []) {
    const fills = use.fills as Fills | undefined;
    if (use.rule !== 'documentReference' || !isNode(fills)) continue;
    const section = sectionOfPath(use.path);
    if (!(section in document.data)) continue;
    const value = resolvePointer(document.data, use.path);
    const named = await referencedData(value, use, { db: trx, now });
    for (const [target, sources] of Object.entries(fills)) {
      const found = named && sources.map((s) => sourceValue(named, s)).find((v) => v !== undefined);
      if (found !== undefined) setAt(document.data, target, found);
      else removeAt(document.data, target);
    }
  }
}

/** Deletes the value at a pointer, if it is there (a key set to undefined is not "absent"). */
export function removeAt(data: Record<string, unknown>, pointer: string): void {
  const parts = pointer.split('/').slice(1);
  const last = parts.pop();
  const parent = resolvePointer(data, `/${parts.join('/')}`);
  if (last !== undefined && isNode(parent)) delete parent[last];
}
