import { createContext, type ComponentType, type ReactNode } from 'react';
import type { ApiClient } from '../core/api/client';
import type { DefinitionBundle } from '../core/definitions/types';
import type { DocumentView } from '../core/documents/types';
import type { EngineWidgetProps } from './form/widgets/common';

/** What a module's screen panel is given: the document shown and the screen's API client. */
export interface ScreenPanelProps {
  document: DocumentView;
  api: ApiClient;
}

/** A page of a module's own, routed while the module is on. */
export interface ModulePage {
  path: string;
  /** The page (a lazy one is fetched when first opened, and preloaded as its route opens). */
  page: ComponentType & { preload?(): void };
  /** Drawn alone (registration's frame), not inside the portal's menu and header. */
  standalone?: boolean;
  /** The roles that open it; none: anybody, signed in or not. */
  roles?: readonly string[];
  /** Decides, before anything else, whether the page shows (registration: when it is on). */
  guard?: ComponentType<{ children: ReactNode }>;
  /** The document types whose definitions (schemas, texts) the page shows. */
  documents?(bundle: DefinitionBundle): string[];
}

/** The browser-side code of one business module: widgets, panels and pages, handed in by src/portal/main.tsx. */
export interface PortalModule {
  /** The module's id, as `modules.json` names it. */
  id: string;
  widgets?: Readonly<Record<string, ComponentType<EngineWidgetProps>>>;
  panels?: Readonly<Record<string, ComponentType<ScreenPanelProps>>>;
  pages?: readonly ModulePage[];
}

/** The portal's modules, kept apart from the widgets so the first page need not load the form engine. */
export const ModulesContext = createContext<readonly PortalModule[]>([]);
