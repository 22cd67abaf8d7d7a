import { createContext, type ComponentType } from 'react';
import type { ApiClient } from '../core/api/client';
import type { DocumentView } from '../core/documents/types';
import type { EngineWidgetProps } from './form/widgets/common';

/** What a module's screen panel is given: the document shown and the screen's API client. */
export interface ScreenPanelProps {
  document: DocumentView;
  api: ApiClient;
}

/**
 * The browser-side code of one business module: form widgets its schemas name by `ui:widget`
 * that the engine lacks, and panels its workflows' screens name by `panels` (something done
 * on the document that is not one of its fields nor a workflow action). A module is a value handed to `EngineModulesProvider` by the portal's
 * composition root (src/portal/main.tsx); nothing registers itself on import.
 */
export interface PortalModule {
  /** The module's id, as `modules.json` names it. */
  id: string;
  widgets?: Readonly<Record<string, ComponentType<EngineWidgetProps>>>;
  panels?: Readonly<Record<string, ComponentType<ScreenPanelProps>>>;
}

/**
 * The portal's modules, for the form engine to read when it draws. Kept apart from the widgets
 * themselves so the portal's first page can provide it without loading the form engine.
 */
export const ModulesContext = createContext<readonly PortalModule[]>([]);
