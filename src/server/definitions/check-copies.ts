import { escapeSegment } from '../../core/rules/registry';
import { fieldKind } from './check-list-filters';
import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';

/** The engine's effect that applies a workflow's `copies`. */
export const COPY_EFFECT = 'copyValues';

/**
 * A workflow's `copies` (target -> source): the copy effect is named only with copies and some
 * action applies them (else targets stay empty, silently); source and target are of one kind.
 */
export function checkCopies({ workflow, entity, report }: WorkflowScope): void {
  const copies = Object.entries(workflow.copies ?? {});
  let applied = false;
  for (const [name, action] of Object.entries(workflow.actions)) {
    for (const list of ['before', 'effects'] as const) {
      (action[list] ?? []).forEach((effect, i) => {
        if (effect !== COPY_EFFECT) return;
        applied = true;
        if (copies.length === 0)
          report(
            `/actions/${name}/${list}/${i}`,
            `"${COPY_EFFECT}" needs the workflow's \`copies\``,
          );
      });
    }
  }
  if (copies.length > 0 && !applied)
    report(
      '/copies',
      `no action applies the copies: name "${COPY_EFFECT}" in an action's \`before\``,
    );
  const schema = entity?.schema;
  if (!schema) return;
  for (const [target, source] of copies) {
    const pointer = `/copies/${escapeSegment(target)}`;
    if (target === source) {
      report(pointer, `"${target}" is copied onto itself`);
      continue;
    }
    if (!schemaHasField(schema, target) || !schemaHasField(schema, source)) continue;
    const from = fieldKind(schema, source);
    const to = fieldKind(schema, target);
    if (from !== to)
      report(pointer, `"${source}" holds a ${from} and "${target}" a ${to}: a copy needs one kind`);
  }
}
