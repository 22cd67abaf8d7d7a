import type { PortalModule } from '../engine/module';
import { connectidPortalModule } from './connectid/portal';

/**
 * The business modules whose screens need browser code the engine lacks (a widget or a screen
 * panel of their own), handed to the engine by the portal's composition root
 * (src/portal/main.tsx). A module adding one writes `src/modules/<id>/portal.ts` with
 * `defineModule({ id, widgets, panels })` and lists it here.
 */
export const portalModules: readonly PortalModule[] = [connectidPortalModule];
