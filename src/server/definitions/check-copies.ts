import { escapeSegment } from '../../core/rules/registry';
import { fieldKind } from './check-list-filters';
import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

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
            said('copyEffectWithoutCopies', { effect: COPY_EFFECT }),
          );
      });
    }
  }
  if (copies.length > 0 && !applied)
    report('/copies', said('copiesNotApplied', { effect: COPY_EFFECT }));
  const schema = entity?.schema;
  if (!schema) return;
  for (const [target, source] of copies) {
    const pointer = `/copies/${escapeSegment(target)}`;
    if (target === source) {
      report(pointer, said('copiedOntoItself', { field: target }));
      continue;
    }
    if (!schemaHasField(schema, target) || !schemaHasField(schema, source)) continue;
    const from = fieldKind(schema, source);
    const to = fieldKind(schema, target);
    if (from !== to) report(pointer, said('copyKindsDiffer', { source, from, target, to }));
  }
}
