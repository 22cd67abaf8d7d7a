import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, FileButton, Grid, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { statelyModule, workflowFromStately } from '../../../core/definitions/stately';
import { fileText } from '../../../core/studio/schema-design';
import {
  actionTextKey,
  definedNames,
  textFromName,
  transitionAt,
} from '../../../core/studio/workflow-design';
import { downloadText } from '../../../engine';
import { WorkflowDiagram, type DiagramSelection } from '../../../engine/studio/WorkflowDiagram';
import { JsonEditor } from './JsonEditor';
import { draftDefinitions, draftIds, parseNode } from './draftFiles';
import type { StudioDraft } from './useStudioDraft';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import {
  AddStatusForm,
  StatusPanel,
  TransitionPanel,
  type GuardParameter,
  type PanelContext,
} from './WorkflowPanels';
import { useApiGet } from '../../useApiGet';
import { WorkflowParts } from './WorkflowParts';
import { WorkflowSchemaForm } from './WorkflowSchemaForm';
import { WorkflowDefinition as WorkflowShape } from '../../../core/definitions/shapes/workflow';
import type { Node } from '../../../core/definitions/json';
import { TEXT_LANGUAGES } from './TextFields';
import { draftText, setDraftTexts } from './WorkflowTexts';

const workflowFile = (id: string) => `workflows/${id}.json`;

/**
 * The workflow's keywords moving documents already stored (`statusMoves`, `dataMoves`), as
 * their shape declares them: what a changed machine or schema needs to publish (docs/workflows.md).
 */
const STORED_MOVES_SCHEMA = (() => {
  const { properties } = WorkflowShape as unknown as { properties: Record<string, unknown> };
  return {
    type: 'object',
    properties: { statusMoves: properties.statusMoves, dataMoves: properties.dataMoves },
  };
})();

/** GET /api/definitions/implementations: what the engine and the modules implement. */
interface Implementations {
  guards: Array<{ name: string; owner: string; parameters: GuardParameter[] }>;
  effects: Array<{ name: string; owner: string; derives: boolean }>;
}

/**
 * A workflow's designer: the machine drawn, a status or transition chosen in it (or in the
 * table) edited beside it, screens and lists below, the JSON, and Stately's editor.
 */
export function WorkflowStudio({ draft }: { draft: StudioDraft }) {
  const { t } = useTranslation();
  const ids = draftIds(draft.paths, /^workflows\/([^/]+)\.json$/);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <Stack gap="md">
      <Select
        label={t('studio.workflow.choose')}
        placeholder={t('studio.workflow.choosePlaceholder')}
        data={ids}
        value={selected}
        onChange={setSelected}
        searchable
        maw={480}
      />
      {selected && <WorkflowEditor key={selected} id={selected} draft={draft} />}
    </Stack>
  );
}

/** The names the definitions use, and every one the service implements once known. */
function offeredNames(
  defined: PanelContext['names'],
  implementations: Implementations | undefined,
): PanelContext['names'] {
  if (!implementations) return defined;
  const union = (used: string[], offered: Array<{ name: string }>) =>
    [...new Set([...used, ...offered.map((o) => o.name)])].sort();
  return {
    ...defined,
    guards: union(defined.guards, implementations.guards),
    effects: union(defined.effects, implementations.effects),
  };
}

/** One workflow's designer (exported for its component test). */
export function WorkflowEditor({ id, draft }: { id: string; draft: StudioDraft }) {
  const { t, i18n } = useTranslation();
  const file = workflowFile(id);
  const text = draft.file(file);
  const workflow = useMemo(() => parseNode(text) as WorkflowDefinition | undefined, [text]);
  const [imported, setImported] = useState<string | undefined>();
  // What the service implements; the names the definitions use while it is asked or failed.
  const offered = useApiGet<Implementations>('definitions', '/implementations');
  const implementations = offered.value;
  const language = i18n.language.startsWith('fr') ? 'fr' : 'en';
  // The draft's texts (a status added there has none published yet); stable while they and the
  // language are, so the diagram is laid out again only when they change.
  const stateLabel = useCallback(
    (state: string) =>
      draftText(draft, `statuses.${state}`, language) ||
      t(`statuses.${state}`, { defaultValue: state }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the texts are read through draft.file
    [draft.file, language, t],
  );
  const actionLabel = useCallback(
    (action: string) =>
      draftText(draft, actionTextKey(action), language) ||
      t(`actions.${action}`, { defaultValue: action }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the texts are read through draft.file
    [draft.file, language, t],
  );
  const diagramTexts = useMemo(
    () => t('studio.workflow.diagramTexts', { returnObjects: true }) as Record<string, string>,
    [t],
  );
  const [importError, setImportError] = useState<string | undefined>();

  const [selection, setSelection] = useState<DiagramSelection | undefined>();
  const allWorkflows = useMemo(
    () => draftDefinitions(draft, 'workflows').map((w) => w.definition as WorkflowDefinition),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the files are read through draft.file
    [draft.paths, draft.file],
  );

  const importFile = async (picked: File | null) => {
    if (!picked || !workflow) return;
    const result = workflowFromStately(workflow, await picked.text());
    if ('error' in result) {
      setImported(undefined);
      return setImportError(result.error);
    }
    setImportError(undefined);
    draft.setFile(file, fileText(result.workflow));
    // A new action needs its text in each language: the one the editor gave, else its name.
    setDraftTexts(
      draft,
      result.added.flatMap((action) =>
        TEXT_LANGUAGES.flatMap((language) =>
          draftText(draft, actionTextKey(action), language)
            ? []
            : [
                {
                  key: actionTextKey(action),
                  language,
                  text: result.labels[action]?.[language] ?? textFromName(action),
                },
              ],
        ),
      ),
    );
    setSelection(undefined);
    setImported(
      [
        t('studio.workflow.imported'),
        result.added.length > 0 &&
          t('studio.workflow.importedAdded', { actions: result.added.join(', ') }),
        result.removed.length > 0 &&
          t('studio.workflow.importedRemoved', { actions: result.removed.join(', ') }),
      ]
        .filter(Boolean)
        .join(' '),
    );
  };

  if (!workflow) return <ErrorAlert>{t('studio.workflow.unreadable', { file })}</ErrorAlert>;
  // A selection the last change removed (a status renamed, a transition gone) is dropped.
  const shown =
    selection?.kind === 'status'
      ? Object.hasOwn(workflow.machine.states, selection.status)
        ? selection
        : undefined
      : selection && transitionAt(workflow, selection)
        ? selection
        : undefined;
  const context: PanelContext = {
    workflow,
    draft,
    save: (next) => draft.setFile(file, fileText(next)),
    select: setSelection,
    stateLabel,
    actionLabel,
    names: offeredNames(definedNames(allWorkflows, workflow), implementations),
    ...(implementations && {
      guardParameters: Object.fromEntries(
        implementations.guards.map((guard) => [guard.name, guard.parameters]),
      ),
    }),
  };
  const title = draftText(draft, `${workflow.document}._title`, language) || id;
  return (
    <Stack gap="md">
      {offered.failed && (
        <Alert color="yellow" role="status">
          {t('studio.workflow.implementationsFailed')}
        </Alert>
      )}
      <Group>
        <Button
          variant="default"
          onClick={() =>
            downloadText(`${id}.machine.ts`, statelyModule(workflow), 'text/typescript')
          }
        >
          {t('studio.workflow.export')}
        </Button>
        <FileButton onChange={(picked) => void importFile(picked)} accept=".ts,.js,.json">
          {(props) => (
            <Button variant="default" {...props}>
              {t('studio.workflow.import')}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {t('studio.workflow.importHelp')}
        </Text>
      </Group>
      <ErrorAlert>{importError}</ErrorAlert>
      {imported && (
        <Alert color="green" role="status">
          {imported}
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <WorkflowDiagram
            workflow={workflow}
            title={t('studio.workflow.diagram', { title })}
            stateLabel={stateLabel}
            actionLabel={actionLabel}
            texts={diagramTexts}
            selected={shown}
            onSelect={setSelection}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Paper withBorder p="md" component="section" aria-label={t('studio.workflow.panel')}>
            <Stack gap="lg">
              {shown?.kind === 'status' && (
                <StatusPanel key={shown.status} context={context} status={shown.status} />
              )}
              {shown?.kind === 'transition' && (
                <TransitionPanel
                  key={`${shown.from}/${shown.action}/${shown.index}`}
                  context={context}
                  at={shown}
                />
              )}
              {!shown && (
                <Text size="sm" c="dimmed">
                  {t('studio.workflow.chooseHelp')}
                </Text>
              )}
              <AddStatusForm context={context} />
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
      <WorkflowParts context={context} />
      <WorkflowSchemaForm
        legend={t('studio.workflow.storedMoves')}
        schema={STORED_MOVES_SCHEMA}
        value={workflow as unknown as Node}
        onChange={(next) => context.save(next as unknown as WorkflowDefinition)}
      />
      <JsonEditor file={file} draft={draft} />
    </Stack>
  );
}
