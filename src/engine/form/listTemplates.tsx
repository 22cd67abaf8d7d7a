import { useMemo, type ComponentType } from 'react';
import { Box, Group, Title } from '@mantine/core';
import { Templates as MantineTemplates } from '@rjsf/mantine';
import {
  buttonId,
  getTemplate,
  getUiOptions,
  type ArrayFieldItemButtonsTemplateProps,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type IconButtonProps,
  type RJSFSchema,
} from '@rjsf/utils';
import { contextOf, type EngineFormContext } from './context';
import { listPathOf, listTexts, type ListTexts } from './listTexts';

/*
 * The templates of lists (docs/forms.md, "Lists"): object items under a heading naming them as a
 * group, every button named for what it does to which item ("Remove dependant 1").
 */

type Registry = ArrayFieldTemplateProps<unknown, RJSFSchema, EngineFormContext>['registry'];
type ButtonProps = IconButtonProps<unknown, RJSFSchema, EngineFormContext>;

function textsOf(registry: Registry, path: ReadonlyArray<string | number>): ListTexts {
  const { texts, language, entityId } = contextOf(registry.formContext);
  return listTexts(texts, language, entityId, listPathOf(path));
}

const ThemeArrayFieldTemplate = MantineTemplates.ArrayFieldTemplate!;
const ThemeArrayFieldItemTemplate = MantineTemplates.ArrayFieldItemTemplate!;

/** A theme button with a name of its own (its title, which the theme sets, and its label). */
function named(Button: ComponentType<ButtonProps>, name: string): ComponentType<ButtonProps> {
  function Named(props: ButtonProps) {
    return <Button {...props} title={name} aria-label={name} />;
  }
  return Named;
}

/** The theme's list, its add button named after the list ("Add a dependant"). */
export function ArrayFieldTemplate(
  props: ArrayFieldTemplateProps<unknown, RJSFSchema, EngineFormContext>,
) {
  const { registry } = props;
  const add = textsOf(registry, props.fieldPathId.path).add;
  const withNamedAdd = useMemo(() => {
    const buttons = registry.templates.ButtonTemplates;
    return {
      ...registry,
      templates: {
        ...registry.templates,
        ButtonTemplates: { ...buttons, AddButton: named(buttons.AddButton, add) },
      },
    };
  }, [registry, add]);
  return <ThemeArrayFieldTemplate {...props} registry={withNamedAdd} />;
}

/** An object item under a heading naming it as a group, unless it names itself (`groupLabelFrom`). */
export function ArrayFieldItemTemplate(
  props: ArrayFieldItemTemplateProps<unknown, RJSFSchema, EngineFormContext>,
) {
  const { buttonsProps, registry, index, schema } = props;
  const itself = getUiOptions(props.uiSchema).groupLabelFrom !== undefined;
  if (itself || schema.type !== 'object') return <ThemeArrayFieldItemTemplate {...props} />;
  const heading = textsOf(registry, buttonsProps.fieldPathId.path).item(index + 1);
  const headingId = `${buttonsProps.fieldPathId.$id}__heading`;
  const Buttons = getTemplate<
    'ArrayFieldItemButtonsTemplate',
    unknown,
    RJSFSchema,
    EngineFormContext
  >('ArrayFieldItemButtonsTemplate', registry, getUiOptions(props.uiSchema));
  // Buttons beside the heading, fields full width below (not half a phone's width).
  return (
    <Box
      role="group"
      aria-labelledby={headingId}
      className={props.className || 'rjsf-array-item'}
      mb="md"
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" mb="xs">
        <Title order={5} id={headingId}>
          {heading}
        </Title>
        {props.hasToolbar && (
          <Group wrap="nowrap" gap={2}>
            <Buttons {...buttonsProps} />
          </Group>
        )}
      </Group>
      {props.children}
    </Box>
  );
}

/** An item's buttons, the theme's, each named for what it does to this item. */
export function ArrayFieldItemButtonsTemplate(
  props: ArrayFieldItemButtonsTemplateProps<unknown, RJSFSchema, EngineFormContext>,
) {
  const { disabled, readonly, registry, uiSchema, fieldPathId, index } = props;
  const { CopyButton, MoveDownButton, MoveUpButton, RemoveButton } =
    registry.templates.ButtonTemplates;
  const names = textsOf(registry, fieldPathId.path);
  const number = index + 1;
  const moving = props.hasMoveUp || props.hasMoveDown;
  // [kind, class suffix, button, shown, disabled, action]; each named by its kind's text.
  const buttons = [
    ['moveUp', 'move-up', MoveUpButton, moving, !props.hasMoveUp, props.onMoveUpItem],
    ['moveDown', 'move-down', MoveDownButton, moving, !props.hasMoveDown, props.onMoveDownItem],
    ['copy', 'copy', CopyButton, props.hasCopy, false, props.onCopyItem],
    ['remove', 'remove', RemoveButton, props.hasRemove, false, props.onRemoveItem],
  ] as const;
  return (
    <>
      {buttons
        .filter(([, , , shown]) => shown)
        .map(([kind, css, Button, , off, onClick]) => (
          <Button
            key={kind}
            id={buttonId(fieldPathId, kind)}
            className={`rjsf-array-item-${css}`}
            disabled={disabled || readonly || off}
            onClick={onClick}
            uiSchema={uiSchema}
            registry={registry}
            title={names[kind](number)}
            aria-label={names[kind](number)}
          />
        ))}
    </>
  );
}
