import { useContext, type ReactNode } from 'react';
import { ModulesContext, type PortalModule, type ScreenPanelProps } from './modules-context';

export type {
  LanguagePreferences,
  ModuleLink,
  ModulePage,
  PortalModule,
  ScreenPanelProps,
} from './modules-context';

/** Declares a module's browser code; typed, so a wrong widget signature fails to compile. */
export function defineModule<M extends PortalModule>(module: M): M {
  return module;
}

/** Gives the forms below it the widgets of `modules` beside the engine's own. */
export function EngineModulesProvider({
  modules,
  children,
}: {
  modules: readonly PortalModule[];
  children: ReactNode;
}) {
  return <ModulesContext.Provider value={modules}>{children}</ModulesContext.Provider>;
}

/** The panels a screen names, each drawn by its module; an unknown one draws nothing. */
export function ModulePanels({ names, ...props }: { names: readonly string[] } & ScreenPanelProps) {
  const modules = useContext(ModulesContext);
  return names.map((name) => {
    const Panel = modules.find((module) => module.panels?.[name])?.panels?.[name];
    return Panel ? <Panel key={name} {...props} /> : null;
  });
}
