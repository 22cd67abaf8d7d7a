import type { ComponentType } from 'react';
import { CatalogWidget } from './CatalogWidget';
import type { EngineWidgetProps } from './common';
import { DateTimeWidget, DateWidget } from './DateWidgets';
import { DocumentChoicesWidget } from './DocumentChoicesWidget';
import { FileWidget } from './FileWidget';
import { EmailWidget, MoneyWidget, PhoneWidget, TextareaWidget, TextWidget } from './TextWidgets';
import { YesNoWidget } from './YesNoWidget';
import { functionWidget } from './functionWidget';

export type { EngineWidgetProps } from './common';

/** Widgets by their `ui:widget` name (docs/forms.md). Add one with `registerWidget`. */
const widgets = new Map<string, ComponentType<EngineWidgetProps>>(
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

let version = 0;

export function registerWidget(name: string, component: ComponentType<EngineWidgetProps>): void {
  widgets.set(name, functionWidget(component, name));
  version += 1;
}

export function isEngineWidget(name: unknown): name is string {
  return typeof name === 'string' && widgets.has(name);
}

/** The widgets as RJSF's `widgets` prop; a new object only after a registration. */
let cached: { version: number; map: Record<string, ComponentType<EngineWidgetProps>> } | undefined;
export function engineWidgets(): Record<string, ComponentType<EngineWidgetProps>> {
  if (!cached || cached.version !== version) cached = { version, map: Object.fromEntries(widgets) };
  return cached.map;
}
