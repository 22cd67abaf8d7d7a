import { memo } from 'react';
import { Group, Radio } from '@mantine/core';
import { contextOf, t } from '../context';
import { inputProps, type EngineWidgetProps } from './common';

/** Yes / No radios storing a boolean (nothing chosen stays undefined: not an answer). */
export const YesNoWidget = memo(function YesNoWidget(props: EngineWidgetProps) {
  const { id, value, onChange, onBlur } = props;
  const context = contextOf(props.registry.formContext);
  const disabled = props.disabled || props.readonly;
  return (
    <Radio.Group
      {...inputProps(props)}
      value={value === true ? 'yes' : value === false ? 'no' : null}
      onChange={(next) => {
        onChange(next === 'yes');
        onBlur(id, next === 'yes');
      }}
    >
      <Group mt={4}>
        <Radio value="yes" label={t(context, 'form.yes')} disabled={disabled} />
        <Radio value="no" label={t(context, 'form.no')} disabled={disabled} />
      </Group>
    </Radio.Group>
  );
});
