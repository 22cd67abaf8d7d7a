import { useContext, type ComponentType } from 'react';
import { ModulesContext, type PortalModule } from '../../modules-context';
import { CatalogWidget } from './CatalogWidget';
import type { EngineWidgetProps } from './common';
import { DateTimeWidget, DateWidget } from './DateWidgets';
import { DocumentChoicesWidget } from './DocumentChoicesWidget';
import { FileWidget } from './FileWidget';
import { EmailWidget, MoneyWidget, PhoneWidget, TextareaWidget, TextWidget } from './TextWidgets';
import { YesNoWidget } from './YesNoWidget';
import { functionWidget } from './functionWidget';

export type { EngineWidgetProps } from './common';

/**
 * The engine's widgets by their `ui:widget` name (docs/forms.md). A portal module adds its own
 * through its `defineModule` value (src/engine/module.ts), given to `EngineModulesProvider`.
 */
const ENGINE_WIDGETS: Readonly<Record<string, ComponentType<EngineWidgetProps>>> =
  Object.fromEntries(
    (
      [
        ['date', DateWidget],
        ['datetime', DateTimeWidget],
        ['money', MoneyWidget],
        ['yesNo', YesNoWidget],
        ['catalog', CatalogWidget],
        ['documentChoices', DocumentChoicesWidget],
        ['file', FileWidget],
        ['phone', PhoneWidget],
        ['email', EmailWidget],
        // RJSF's own names: plain text and textarea fields, replacing @rjsf/mantine's.
        ['TextWidget', TextWidget],
        ['TextareaWidget', TextareaWidget],
      ] as Array<[string, ComponentType<EngineWidgetProps>]>
    ).map(([name, component]) => [name, functionWidget(component, name)]),
  );

export type WidgetSet = Readonly<Record<string, ComponentType<EngineWidgetProps>>>;

/** The engine's own widgets (RJSF's `widgets` prop when no module adds any). */
export function engineWidgets(): WidgetSet {
  return ENGINE_WIDGETS;
}

/**
 * The engine's widgets joined with modules' ones. A name given twice is refused: which widget
 * a schema meant would be a guess.
 */
export function widgetsWith(modules: readonly PortalModule[]): WidgetSet {
  if (modules.length === 0) return ENGINE_WIDGETS;
  const widgets: Record<string, ComponentType<EngineWidgetProps>> = { ...ENGINE_WIDGETS };
  for (const module of modules) {
    for (const [name, component] of Object.entries(module.widgets ?? {})) {
      if (Object.hasOwn(widgets, name))
        throw new Error(`module ${module.id}: widget "${name}" is already defined`);
      widgets[name] = functionWidget(component, name);
    }
  }
  return widgets;
}

/** One widget set per list of modules (the portal gives one list for the whole visit). */
const joined = new WeakMap<readonly PortalModule[], WidgetSet>();

/** The widgets forms draw with: the engine's and those of the modules the portal provides. */
export function useWidgets(): WidgetSet {
  const modules = useContext(ModulesContext);
  let widgets = joined.get(modules);
  if (!widgets) {
    widgets = widgetsWith(modules);
    joined.set(modules, widgets);
  }
  return widgets;
}

export function isEngineWidget(name: unknown, widgets: WidgetSet = ENGINE_WIDGETS): name is string {
  return typeof name === 'string' && Object.hasOwn(widgets, name);
}
