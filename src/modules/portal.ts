import type { PortalModule } from '../engine/module';
import { connectidPortalModule } from './connectid/portal';

/**
 * The business modules whose screens need browser code the engine lacks (widgets or panels of
 * their own), handed to the engine by src/portal/main.tsx. A new one writes
 * `src/modules/<id>/portal.ts` (`defineModule({ id, widgets, panels })`) and is listed here.
 */
export const portalModules: readonly PortalModule[] = [connectidPortalModule];
