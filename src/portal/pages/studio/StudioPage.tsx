import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { DEFINITIONS_PUBLISH_ROLE, STUDIO_PATH } from '../../../core/definitions/studio-roles';
import { formatDateTime } from '../../../engine/format';
import { usePortal } from '../../context';
import { CatalogDesigner } from './CatalogDesigner';
import { CheckSummary } from './CheckSummary';
import { NewDocumentType } from './NewDocumentType';
import { NoteDialog } from './NoteDialog';
import { RolesPanel } from './RolesPanel';
import { SchemaDesigner } from './SchemaDesigner';
import { TextsEditor } from './TextsEditor';
import { useDraftCheck, useStudioDraft, versionWords, type StudioDraft } from './useStudioDraft';
import { VersionsPanel } from './VersionsPanel';
import { WorkflowStudio } from './WorkflowStudio';
import { KeepDialog } from './StudioDialog';
import { ErrorAlert } from '../../../engine/ErrorAlert';

/** The studio's tabs in order, each its own address (`/studio/<tab>`). */
const PANELS = {
  catalogs: CatalogDesigner,
  forms: SchemaDesigner,
  workflows: WorkflowStudio,
  texts: TextsEditor,
  roles: RolesPanel,
  versions: VersionsPanel,
};
const STUDIO_TABS = Object.keys(PANELS) as Array<keyof typeof PANELS>;

/** The studio: definitions changed as a draft of files, checked, previewed and published. */
export function StudioPage() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const draft = useStudioDraft(api);
  const params = useParams();
  const navigate = useNavigate();
  const tab = STUDIO_TABS.find((id) => id === params.tab) ?? 'catalogs';

  if (draft.failure)
    return (
      <Alert color="red" role="alert" title={t('studio.title')}>
        {draft.failure.message}
      </Alert>
    );
  if (!draft.baseFiles || !draft.newest)
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text>{t('studio.loading')}</Text>
      </Group>
    );

  return (
    <Stack gap="md">
      <NewDocumentType draft={draft}>
        <Title order={2}>{t('studio.title')}</Title>
      </NewDocumentType>
      <DraftBar draft={draft} />
      <Tabs
        value={tab}
        onChange={(next) => next && navigate(`${STUDIO_PATH}/${next}`)}
        keepMounted={false}
      >
        <Tabs.List>
          {STUDIO_TABS.map((id) => (
            <Tabs.Tab key={id} value={id}>
              {t(`studio.tabs.${id}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {Object.entries(PANELS).map(([id, Panel]) => (
          <Tabs.Panel key={id} value={id} pt="md">
            <Panel draft={draft} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

/** The draft's state and its actions: check, publish with a note, discard. */
function DraftBar({ draft }: { draft: StudioDraft }) {
  const { t } = useTranslation();
  const { session } = usePortal();
  const canPublish = session.hasAnyRole([DEFINITIONS_PUBLISH_ROLE]);
  const changed = Object.keys(draft.changes);
  const { checking, result, setResult, failure, run } = useDraftCheck(draft);
  const [publishing, setPublishing] = useState(false);
  const [askDiscard, setAskDiscard] = useState(false);
  const [published, setPublished] = useState<string | undefined>();
  const newest = draft.newest;
  const stale = newest !== undefined && draft.base !== undefined && draft.base < newest.version;

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center" wrap="wrap">
        <Text size="sm">
          {t('studio.publishedVersion', {
            version: newest?.version,
            by: newest ? versionWords(newest, t).by : '',
            at: newest ? formatDateTime(newest.publishedAt) : '',
          })}
        </Text>
        <Group gap="xs">
          <Badge color={changed.length ? 'blue.9' : 'gray.7'} variant="filled" role="status">
            {changed.length
              ? t('studio.changedFiles', { count: changed.length })
              : t('studio.noChanges')}
          </Badge>
          <Button
            variant="default"
            onClick={() => run(undefined, {}, true)}
            loading={checking}
            disabled={!changed.length}
          >
            {t('studio.check')}
          </Button>
          {canPublish && (
            <Button onClick={() => setPublishing(true)} disabled={!changed.length || stale}>
              {t('studio.publish')}
            </Button>
          )}
          <Button
            variant="subtle"
            color="red"
            onClick={() => setAskDiscard(true)}
            disabled={!changed.length}
          >
            {t('studio.discard')}
          </Button>
        </Group>
      </Group>
      {stale && (
        <Alert color="red.9" title={t('studio.staleTitle')}>
          <Text size="sm">
            {t('studio.staleText', { base: draft.base, newest: newest?.version })}
          </Text>
          <Button mt="xs" size="xs" variant="default" onClick={draft.rebase}>
            {t('studio.rebase')}
          </Button>
        </Alert>
      )}
      {published && (
        <Alert color="green" role="status" withCloseButton onClose={() => setPublished(undefined)}>
          {published}
        </Alert>
      )}
      <ErrorAlert>{failure?.message}</ErrorAlert>
      {result && <CheckSummary result={result} onClose={() => setResult(undefined)} />}
      <NoteDialog
        opened={publishing}
        title={t('studio.publishTitle')}
        submitLabel={t('studio.publish')}
        onClose={() => setPublishing(false)}
        onSubmit={async (note) => {
          const [error, version] = await draft.publish(note);
          if (error) return error;
          setPublishing(false);
          setResult(undefined);
          setPublished(t('studio.publishedNow', { version: version.version }));
        }}
      >
        <Text size="sm">{t('studio.publishText', { count: changed.length })}</Text>
      </NoteDialog>
      <KeepDialog
        opened={askDiscard}
        title={t('studio.discardTitle')}
        text={t('studio.discardText', { count: changed.length })}
        confirmLabel={t('studio.discard')}
        onClose={() => setAskDiscard(false)}
        onConfirm={() => {
          draft.discard();
          setResult(undefined);
          setAskDiscard(false);
        }}
      />
    </Stack>
  );
}
