import { useState } from 'react';
import { Select, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Node } from '../../../core/definitions/json';
import { WorkflowList } from '../../../core/definitions/shapes/list';
import { WorkflowScreen } from '../../../core/definitions/shapes/screen';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import type { PanelContext } from './WorkflowPanels';
import { WorkflowSchemaForm, type SchemaFormProps } from './WorkflowSchemaForm';
import { WorkflowTexts } from './WorkflowTexts';

type Screen = WorkflowDefinition['screens'][number];
type List = WorkflowDefinition['lists'][number];

/**
 * The workflow's screens (with their sections and actions) and lists (with their columns,
 * filters and sort), each chosen by its route and edited with a form generated from its
 * meta-schema, the texts it names (titles, menu entries) beside it in English and French.
 */
export function WorkflowParts({ context }: { context: PanelContext }) {
  const { t } = useTranslation();
  const { workflow, save } = context;
  const actions = Object.keys(workflow.actions);
  return (
    <Stack gap="md">
      <PartEditor
        kind="screen"
        choose="studio.workflow.chooseScreen"
        parts={workflow.screens}
        option={(s) => `${s.path} (${s.mode})`}
        // The texts a screen names: its title (`label`) and its menu entry (`menu`).
        texts={['label', 'menu']}
        legend={(s) => t('studio.workflow.screenSettings', { path: s.path })}
        schema={WorkflowScreen}
        suggestions={{ roles: context.names.roles, actions, showNotesOf: actions, fire: actions }}
        draft={context.draft}
        onChange={(screens) => save({ ...workflow, screens: screens as Screen[] })}
      />
      <PartEditor
        kind="list"
        choose="studio.workflow.chooseList"
        parts={workflow.lists}
        option={(l) => `${l.id} (${l.path})`}
        // The texts a list names: its menu entry (`label`) and its title elsewhere (`title`).
        texts={['label', 'title']}
        legend={(l) => t('studio.workflow.listSettings', { id: l.id })}
        schema={WorkflowList}
        suggestions={{
          roles: context.names.roles,
          status: Object.keys(workflow.machine.states),
        }}
        draft={context.draft}
        onChange={(lists) => save({ ...workflow, lists: lists as List[] })}
      />
    </Stack>
  );
}

/** Screens or lists: one chosen by its route, then the texts it names and its settings. */
function PartEditor<P extends Partial<Record<K, string>>, K extends keyof P & string>(props: {
  kind: 'screen' | 'list';
  choose: string;
  parts: readonly P[];
  option: (part: P) => string;
  texts: readonly K[];
  legend: (part: P) => string;
  schema: unknown;
  suggestions: SchemaFormProps['suggestions'];
  draft: PanelContext['draft'];
  onChange: (parts: Array<P | Node>) => void;
}) {
  const { t } = useTranslation();
  const { kind, parts } = props;
  const [index, setIndex] = useState<string | null>(null);
  const part = index === null ? undefined : parts[Number(index)];
  return (
    <Stack gap="xs" component="section" aria-labelledby={`workflow-${kind}s`}>
      <Title order={3} id={`workflow-${kind}s`}>
        {t(`studio.workflow.${kind}sTitle`)}
      </Title>
      <Select
        label={t(props.choose)}
        data={parts.map((p, i) => ({ value: String(i), label: props.option(p) }))}
        value={index}
        onChange={setIndex}
        searchable
        clearable
        maw={480}
      />
      {part && index !== null && (
        <>
          {props.texts.map((key) => {
            const textKey = part[key];
            return (
              textKey && (
                <WorkflowTexts
                  key={key}
                  draft={props.draft}
                  textKey={textKey}
                  label={t(`studio.workflow.${kind}Text.${key}`)}
                />
              )
            );
          })}
          <WorkflowSchemaForm
            key={index}
            legend={props.legend(part)}
            schema={props.schema}
            value={part as Node}
            suggestions={props.suggestions}
            onChange={(next) =>
              props.onChange(parts.map((p, j) => (j === Number(index) ? next : p)))
            }
          />
        </>
      )}
    </Stack>
  );
}
