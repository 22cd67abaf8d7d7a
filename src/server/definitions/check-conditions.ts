import { asNode } from '../../core/definitions/json';
import type { EntityDefinition } from '../../core/definitions/types';
import { walkUi } from '../../core/definitions/ui-walk';
import { schemaHasField } from './check-records';
import { said, type Report } from './problems';

/**
 * A field's `ui:options.when` reads like a section's (`{pointer, in}`), or the field would
 * silently always or never show; such a field cannot be in `required` (required while hidden).
 */
export function checkFieldConditions(entity: EntityDefinition, report: Report): void {
  walkUi(entity.schema, entity.uiSchema, (schema, ui, segments) => {
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
    for (const name of Object.keys(asNode(schema.properties) ?? {})) {
      const when = asNode(asNode(ui[name])?.['ui:options'])?.when;
      if (when === undefined) continue;
      const uiPath = [...segments.map((s) => (s === '*' ? 'items' : s)), name].join('/');
      const at = `/uiSchema/${uiPath}/ui:options/when`;
      const condition = asNode(when);
      const pointer = condition?.pointer;
      if (!condition || typeof pointer !== 'string' || !pointer.startsWith('/'))
        report(at, said('conditionNeedsPointer'));
      else if (!schemaHasField(entity.schema, pointer))
        report(`${at}/pointer`, said('noFieldInDocumentSchema', { field: pointer }));
      if (!Array.isArray(condition?.in) || condition.in.length === 0)
        report(at, said('conditionNeedsIn'));
      const extra = Object.keys(condition ?? {}).find((key) => key !== 'pointer' && key !== 'in');
      if (extra !== undefined) report(at, said('conditionUnknownProperty', { property: extra }));
      if (required.includes(name)) report(at, said('conditionalFieldRequired', { field: name }));
    }
  });
}
