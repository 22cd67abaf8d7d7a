import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, FileButton, Group, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { machineFromStately, statelyModule } from '../../../core/definitions/stately';
import { fileText } from '../../../core/studio/schema-design';
import { downloadText } from '../../../engine';
import { WorkflowDiagram } from '../../../engine/studio/WorkflowDiagram';
import { usePortal } from '../../context';
import { JsonEditor } from './JsonEditor';
import { draftIds, parseNode } from './draftFiles';
import type { StudioDraft } from './useStudioDraft';
import { ErrorAlert } from '../../../engine/ErrorAlert';

const workflowFile = (id: string) => `workflows/${id}.json`;

/** A workflow's machine drawn, its JSON, and export to and import from Stately's editor. */
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

function WorkflowEditor({ id, draft }: { id: string; draft: StudioDraft }) {
  const { t } = useTranslation();
  const { bundle } = usePortal();
  const file = workflowFile(id);
  const text = draft.file(file);
  const workflow = useMemo(() => parseNode(text) as WorkflowDefinition | undefined, [text]);
  const [imported, setImported] = useState<string | undefined>();
  // Stable while the language is: the diagram is laid out again only when they change.
  const stateLabel = useCallback(
    (state: string) => t(`statuses.${state}`, { defaultValue: state }),
    [t],
  );
  const actionLabel = useCallback(
    (action: string) => t(`actions.${action}`, { defaultValue: action }),
    [t],
  );
  const diagramTexts = useMemo(
    () => t('studio.workflow.diagramTexts', { returnObjects: true }) as Record<string, string>,
    [t],
  );
  const [importError, setImportError] = useState<string | undefined>();

  const importFile = async (picked: File | null) => {
    if (!picked || !workflow) return;
    const result = machineFromStately(await picked.text());
    if ('error' in result) {
      setImported(undefined);
      return setImportError(result.error);
    }
    setImportError(undefined);
    draft.setFile(file, fileText({ ...workflow, machine: result.machine }));
    setImported(t('studio.workflow.imported'));
  };

  if (!workflow) return <ErrorAlert>{t('studio.workflow.unreadable', { file })}</ErrorAlert>;
  const texts = bundle.translations.en?.[workflow.document];
  const title =
    typeof texts === 'object' && typeof texts._title === 'string'
      ? t(`${workflow.document}._title`)
      : id;
  return (
    <Stack gap="md">
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
      <WorkflowDiagram
        workflow={workflow}
        title={t('studio.workflow.diagram', { title })}
        stateLabel={stateLabel}
        actionLabel={actionLabel}
        texts={diagramTexts}
      />
      <JsonEditor file={file} draft={draft} />
    </Stack>
  );
}
