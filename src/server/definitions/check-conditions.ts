import { asNode, type Node } from '../../core/definitions/json';
import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import { schemaHasField } from './check-records';
import type { Report } from './problems';

/**
 * A field's `ui:options.when` reads like a section's (`{pointer, in}`), or the field would
 * silently always or never show; such a field cannot be in `required` (required while hidden).
 */
export function checkFieldConditions(entity: EntityDefinition, report: Report): void {
  const visit = (schema: Node | undefined, ui: Node | undefined, uiPath: string[]) => {
    if (!schema || !ui) return;
    const properties = asNode(schema.properties) ?? {};
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
    for (const [name, child] of Object.entries(properties)) {
      const childUi = asNode(ui[name]);
      const at = `/uiSchema/${[...uiPath, name].join('/')}/ui:options/when`;
      const when = asNode(childUi?.['ui:options'])?.when;
      if (when !== undefined) {
        const condition = asNode(when);
        const pointer = condition?.pointer;
        if (!condition || typeof pointer !== 'string' || !pointer.startsWith('/'))
          report(at, 'a condition needs "pointer", a field of the document');
        else if (!schemaHasField(entity.schema as JsonSchema, pointer))
          report(`${at}/pointer`, `no field "${pointer}" in the document's schema`);
        if (!Array.isArray(condition?.in) || condition.in.length === 0)
          report(at, 'a condition needs "in", one value or more');
        const extra = Object.keys(condition ?? {}).find((key) => key !== 'pointer' && key !== 'in');
        if (extra !== undefined) report(at, `unknown property "${extra}" (pointer and in only)`);
        if (required.includes(name))
          report(
            at,
            `"${name}" applies only sometimes and cannot be in required: require it with an if/then on the deciding value`,
          );
      }
      visit(asNode(child), childUi, [...uiPath, name]);
    }
    if (asNode(schema.items)) visit(asNode(schema.items), asNode(ui.items), [...uiPath, 'items']);
  };
  visit(asNode(entity.schema), asNode(entity.uiSchema), []);
}
