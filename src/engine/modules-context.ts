import { createContext, type ComponentType } from 'react';
import type { EngineWidgetProps } from './form/widgets/common';

/**
 * The browser-side code of one business module: form widgets its schemas name by `ui:widget`
 * that the engine lacks. A module is a value handed to `EngineModulesProvider` by the portal's
 * composition root (src/portal/main.tsx); nothing registers itself on import.
 */
export interface PortalModule {
  /** The module's id, as `modules.json` names it. */
  id: string;
  widgets?: Readonly<Record<string, ComponentType<EngineWidgetProps>>>;
}

/**
 * The portal's modules, for the form engine to read when it draws. Kept apart from the widgets
 * themselves so the portal's first page can provide it without loading the form engine.
 */
export const ModulesContext = createContext<readonly PortalModule[]>([]);
