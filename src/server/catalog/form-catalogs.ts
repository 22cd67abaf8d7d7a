import { catalogFieldsOf } from '../../core/definitions/catalog-fields';
import type { EntityDefinition } from '../../core/definitions/types';

/** Every catalogue a form draws a field from (its catalogue selects). */
export function formCatalogs(entities: readonly EntityDefinition[]): Set<string> {
  return new Set(entities.flatMap((entity) => catalogFieldsOf(entity).map((f) => f.catalog)));
}
