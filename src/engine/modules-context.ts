import { createContext, type ComponentType, type ReactNode } from 'react';
import type { ApiClient } from '../core/api/client';
import type { DefinitionBundle } from '../core/definitions/types';
import type { DocumentView } from '../core/documents/types';
import type { Language } from '../core/i18n/translate';
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

/**
 * A link a module adds to the application menu: seen by signed-in holders of one of `roles`, or
 * (`visitors`) by signed-out visitors only, and while the module's switch `when` is not off.
 */
export interface ModuleLink {
  id: string;
  /** Text key of its label. */
  label: string;
  to: string;
  roles?: readonly string[];
  visitors?: boolean;
  when?: string;
  /** `account`: beside Sign In and Sign Out; otherwise in the module's own menu section. */
  place?: 'account';
  /** Also a button on the public home page, beside Sign In: its label's text key. */
  home?: string;
}

/** Where a signed-in person's choice of language is kept (their profile, say). */
export interface LanguagePreferences {
  read(api: ApiClient, subject: string): Promise<Language | undefined>;
  save(api: ApiClient, subject: string, language: Language): Promise<boolean>;
}

/** The browser-side code of one business module, handed in by src/portal/main.tsx. */
export interface PortalModule {
  /** The module's id, as `modules.json` names it. */
  id: string;
  widgets?: Readonly<Record<string, ComponentType<EngineWidgetProps>>>;
  panels?: Readonly<Record<string, ComponentType<ScreenPanelProps>>>;
  pages?: readonly ModulePage[];
  /** The module's menu section (its heading's text key) and links. */
  menu?: { id: string; label: string; links: readonly ModuleLink[] };
  /**
   * Server switches its pages and links depend on, by name: each asked once per API client,
   * and only when a link or page the person could see names it.
   */
  switches?: Readonly<Record<string, (api: ApiClient) => Promise<boolean>>>;
  languagePreferences?: LanguagePreferences;
  /** The API paths of the module's own backends, by name (its workflows' `backend`). */
  backends?: Readonly<Record<string, string>>;
}

/** The portal's modules, kept apart from the widgets so the first page need not load the form engine. */
export const ModulesContext = createContext<readonly PortalModule[]>([]);
