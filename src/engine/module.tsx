import type { ReactNode } from 'react';
import { ModulesContext, type PortalModule } from './modules-context';

export type { PortalModule } from './modules-context';

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
