import type { RJSFSchema, WidgetProps } from '@rjsf/utils';
import type { EngineFormContext } from '../context';

/** The props every engine widget receives from RJSF. */
export type EngineWidgetProps = WidgetProps<unknown, RJSFSchema, EngineFormContext>;

export function errorOf(props: EngineWidgetProps): string | undefined {
  const errors = props.rawErrors?.filter((e) => e.length > 0) ?? [];
  return errors.length > 0 ? errors.join('\n') : undefined;
}

export function labelOf(props: EngineWidgetProps): string | undefined {
  return props.hideLabel ? undefined : props.label || undefined;
}

export function descriptionOf(props: EngineWidgetProps): string | undefined {
  const description = props.options.description;
  return typeof description === 'string' && !props.hideLabel ? description : undefined;
}

/** What every widget's Mantine input is given alike: its id, label, help, asterisk and errors. */
export function inputProps(props: EngineWidgetProps) {
  return {
    id: props.id,
    label: labelOf(props),
    description: descriptionOf(props),
    withAsterisk: props.required,
    error: errorOf(props),
  };
}
