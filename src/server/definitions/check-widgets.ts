import { asNode } from '../../core/definitions/json';
import { DOCUMENT_CHOICES_WIDGET } from '../../core/definitions/document-choices';
import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import { walkUi } from '../../core/definitions/ui-walk';
import { isPointer, schemaHasField } from './check-records';
import type { NameScope } from './check-references';
import { said, type Report } from './problems';

/** The widget filling a field from a catalogue (core/definitions/catalog-fields.ts). */
const CATALOG_WIDGET = 'catalog';
/** Options of a field naming a field beside it, in the same object. */
const SIBLING_OPTIONS = ['labelFrom', 'requiredFrom'] as const;
/** Options of an object (an item) naming one of its own fields. */
const OWN_FIELD_OPTIONS = ['groupLabelFrom'] as const;

/**
 * A widget's options name what it needs: a catalogue select its catalogue (keyed by one field,
 * the value naming an entry by it), a document choice its document type and code; a field's label
 * or requirement taken from another field names one of the same object. A widget missing them
 * is not a catalogue select or a document choice at all for the server, which then accepts any
 * value, or for the form, which shows nothing.
 */
export function checkWidgetOptions(
  entity: EntityDefinition,
  loaded: NameScope,
  report: Report,
): void {
  walkUi(entity.schema, entity.uiSchema, (node, ui, segments) => {
    // A node of the entity's schema, walked beside its uiSchema.
    const schema = node as JsonSchema;
    const at = ['/uiSchema', ...segments.map((s) => (s === '*' ? 'items' : s))].join('/');
    const options = asNode(ui['ui:options']);
    const widget = ui['ui:widget'];
    if (widget === CATALOG_WIDGET) {
      const name = options?.catalog;
      const catalog = loaded.catalogs.find((candidate) => candidate.id === name);
      if (typeof name !== 'string')
        report(`${at}/ui:options/catalog`, said('catalogSelectWithoutCatalog'));
      else if (catalog && catalog.key.length !== 1)
        report(
          `${at}/ui:options/catalog`,
          said('selectCatalogueKeyedBySeveral', {
            catalogue: name,
            size: catalog.key.length,
            fields: catalog.key.join(', '),
          }),
        );
    }
    if (widget === DOCUMENT_CHOICES_WIDGET) {
      if (typeof options?.document !== 'string')
        report(`${at}/ui:options/document`, said('documentChoiceWithoutDocument'));
      if (!isPointer(options?.code))
        report(`${at}/ui:options/code`, said('documentChoiceWithoutCode'));
    }
    for (const option of OWN_FIELD_OPTIONS) {
      const field = options?.[option];
      if (typeof field === 'string' && !schemaHasField(schema, `/${field}`))
        report(`${at}/ui:options/${option}`, said('noFieldInLabelledObject', { field }));
    }
    for (const name of Object.keys(asNode(schema.properties) ?? {})) {
      const own = asNode(asNode(ui[name])?.['ui:options']);
      for (const option of SIBLING_OPTIONS) {
        const field = own?.[option];
        if (typeof field === 'string' && !schemaHasField(schema, `/${field}`))
          report(
            `${at}/${name}/ui:options/${option}`,
            said('noSiblingField', { field, name, option }),
          );
      }
    }
  });
}
