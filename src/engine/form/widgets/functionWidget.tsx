import type { ComponentType } from 'react';
import type { EngineWidgetProps } from './common';

/**
 * RJSF accepts only plain function components as widgets (not memo objects): wraps a
 * (memoised) component into one, so the inner widget still skips unchanged re-renders.
 */
export function functionWidget(
  Component: ComponentType<EngineWidgetProps>,
  name: string,
): (props: EngineWidgetProps) => React.JSX.Element {
  const Widget = (props: EngineWidgetProps) => <Component {...props} />;
  Object.defineProperty(Widget, 'name', { value: name });
  return Widget;
}
