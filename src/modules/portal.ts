import type { PortalModule } from '../engine/module';

/**
 * The business modules whose forms need browser code the engine lacks (a widget of their own),
 * handed to the engine by the portal's composition root (src/portal/main.tsx). Every module
 * today is served by the engine's widgets, so the list is empty; a module adding one writes
 * `src/modules/<id>/portal.tsx` with `defineModule({ id, widgets })` and lists it here.
 */
export const portalModules: readonly PortalModule[] = [];
