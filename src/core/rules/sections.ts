/** Sections of an entity definition (docs/forms.md, "Sections"): the top-level properties. */
import {
  conditionHolds,
  inapplicableFields,
  withoutValuesAt,
} from '../definitions/conditional-fields';
import { asNode } from '../definitions/json';
import type { EntityDefinition, EntitySection, JsonSchema, JsonValue } from '../definitions/types';
import { asksForAnswer } from './registry';

export type { EntitySection };

/** An entity definition as the forms read it (sections may be left out: every property is one). */
export type EntityFormDefinition = Omit<EntityDefinition, 'sections'> & {
  sections?: EntitySection[];
};

/** The sections in order: the definition's list, else every top-level property. */
export function sectionsOf(definition: EntityFormDefinition): EntitySection[] {
  if (definition.sections && definition.sections.length > 0) return definition.sections;
  return Object.keys(asNode(definition.schema.properties) ?? {}).map((id) => ({ id }));
}

/** The schema of one section, so `{ [sectionId]: value }` validates on its own. */
export function sectionSchema(schema: JsonSchema, sectionId: string): JsonSchema {
  const property = asNode(schema.properties)?.[sectionId] as JsonValue | undefined;
  const required = Array.isArray(schema.required) && schema.required.includes(sectionId);
  return {
    type: 'object',
    properties: property === undefined ? {} : { [sectionId]: property },
    ...(required && { required: [sectionId] }),
    ...(schema.definitions !== undefined && { definitions: schema.definitions }),
    ...(schema.$defs !== undefined && { $defs: schema.$defs }),
  };
}

/** The section a JSON pointer belongs to (`/applicant/familyName` -> `applicant`). */
export function sectionOfPath(pointer: string): string {
  return pointer.replace(/^\//, '').split('/')[0] ?? '';
}

/** Whether a section applies to the document as it stands (its `when`, if any, holds). */
export function sectionApplies(section: EntitySection, data: unknown): boolean {
  return !section.when || conditionHolds(section.when, data);
}

/** The document without the sections and fields that do not apply; the same object when all do. */
export function applicableData<T extends Record<string, unknown>>(
  definition: EntityFormDefinition,
  data: T,
): T {
  const dropped = sectionsOf(definition).filter(
    (section) => section.id in data && !sectionApplies(section, data),
  );
  let result: Record<string, unknown> = data;
  if (dropped.length > 0) {
    result = { ...data };
    for (const section of dropped) delete result[section.id];
  }
  // A field whose condition reads a dropped section's value does not apply either.
  return withoutValuesAt(result, inapplicableFields(definition, result)) as T;
}

/** The sections a person must fill in: required, conditionally required, or asking for an answer. */
export function requiredSections(definition: EntityFormDefinition, data: unknown): Set<string> {
  const sections = sectionsOf(definition);
  const required = new Set<string>();
  const root = definition.schema;
  for (const name of namesIn(root.required)) required.add(name);
  const branches = [root, ...(Array.isArray(root.allOf) ? root.allOf : [])].flatMap((node) => {
    const branch = asNode(node);
    return [asNode(branch?.then), asNode(branch?.else)];
  });
  const conditional = new Set(branches.flatMap((branch) => namesIn(branch?.required)));
  for (const section of sections)
    if (section.when && conditional.has(section.id) && sectionApplies(section, data))
      required.add(section.id);
  for (const use of definition.rules ?? [])
    if (asksForAnswer(use, data)) required.add(sectionOfPath(use.path));
  return new Set(sections.map((section) => section.id).filter((id) => required.has(id)));
}

function namesIn(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((name): name is string => typeof name === 'string')
    : [];
}
