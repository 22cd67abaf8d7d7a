import { useState } from 'react';
import { Select, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Node } from '../../../core/definitions/json';
import { WorkflowList } from '../../../core/definitions/shapes/list';
import { WorkflowScreen } from '../../../core/definitions/shapes/screen';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import type { PanelContext } from './WorkflowPanels';
import { WorkflowSchemaForm } from './WorkflowSchemaForm';
import { WorkflowTexts } from './WorkflowTexts';

type Screen = WorkflowDefinition['screens'][number];
type List = WorkflowDefinition['lists'][number];

/** The texts a screen names: its title (`label`) and its menu entry (`menu`). */
const SCREEN_TEXTS = ['label', 'menu'] as const;
/** The texts a list names: its menu entry (`label`) and its title elsewhere (`title`). */
const LIST_TEXTS = ['label', 'title'] as const;

/**
 * The workflow's screens (with their sections and actions) and lists (with their columns,
 * filters and sort), each chosen by its route and edited with a form generated from its
 * meta-schema, the texts it names (titles, menu entries) beside it in English and French.
 */
export function WorkflowParts({ context }: { context: PanelContext }) {
  const { t } = useTranslation();
  const { workflow, save } = context;
  const [screenIndex, setScreenIndex] = useState<string | null>(null);
  const [listIndex, setListIndex] = useState<string | null>(null);
  const screen = screenIndex === null ? undefined : workflow.screens[Number(screenIndex)];
  const list = listIndex === null ? undefined : workflow.lists[Number(listIndex)];
  const actions = Object.keys(workflow.actions);
  const setScreen = (i: number, next: Node) =>
    save({
      ...workflow,
      screens: workflow.screens.map((s, j) => (j === i ? (next as Screen) : s)),
    });
  const setList = (i: number, next: Node) =>
    save({ ...workflow, lists: workflow.lists.map((l, j) => (j === i ? (next as List) : l)) });
  return (
    <Stack gap="md">
      <Stack gap="xs" component="section" aria-labelledby="workflow-screens">
        <Title order={3} id="workflow-screens">
          {t('studio.workflow.screensTitle')}
        </Title>
        <Select
          label={t('studio.workflow.chooseScreen')}
          data={workflow.screens.map((s, i) => ({
            value: String(i),
            label: `${s.path} (${s.mode})`,
          }))}
          value={screenIndex}
          onChange={setScreenIndex}
          searchable
          clearable
          maw={480}
        />
        {screen && screenIndex !== null && (
          <>
            {SCREEN_TEXTS.map(
              (key) =>
                screen[key] && (
                  <WorkflowTexts
                    key={key}
                    draft={context.draft}
                    textKey={screen[key]}
                    label={t(`studio.workflow.screenText.${key}`)}
                  />
                ),
            )}
            <WorkflowSchemaForm
              key={screenIndex}
              legend={t('studio.workflow.screenSettings', { path: screen.path })}
              schema={WorkflowScreen}
              value={screen as Node}
              suggestions={{
                roles: context.names.roles,
                actions,
                showNotesOf: actions,
                fire: actions,
              }}
              onChange={(next) => setScreen(Number(screenIndex), next)}
            />
          </>
        )}
      </Stack>
      <Stack gap="xs" component="section" aria-labelledby="workflow-lists">
        <Title order={3} id="workflow-lists">
          {t('studio.workflow.listsTitle')}
        </Title>
        <Select
          label={t('studio.workflow.chooseList')}
          data={workflow.lists.map((l, i) => ({ value: String(i), label: `${l.id} (${l.path})` }))}
          value={listIndex}
          onChange={setListIndex}
          searchable
          clearable
          maw={480}
        />
        {list && listIndex !== null && (
          <>
            {LIST_TEXTS.map(
              (key) =>
                list[key] && (
                  <WorkflowTexts
                    key={key}
                    draft={context.draft}
                    textKey={list[key]}
                    label={t(`studio.workflow.listText.${key}`)}
                  />
                ),
            )}
            <WorkflowSchemaForm
              key={listIndex}
              legend={t('studio.workflow.listSettings', { id: list.id })}
              schema={WorkflowList}
              value={list as Node}
              suggestions={{
                roles: context.names.roles,
                status: Object.keys(workflow.machine.states),
              }}
              onChange={(next) => setList(Number(listIndex), next)}
            />
          </>
        )}
      </Stack>
    </Stack>
  );
}
