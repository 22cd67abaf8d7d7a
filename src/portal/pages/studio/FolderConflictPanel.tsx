import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
  useComputedColorScheme,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../core/api/errors';
import { DEFINITIONS_PUBLISH_ROLE } from '../../../core/definitions/studio-roles';
import { usePortal } from '../../context';
import { NoteDialog } from './NoteDialog';
import { ProblemList } from './ProblemList';
import type { StudioDraft } from './useStudioDraft';
import { LineDiff } from './VersionsLineDiff';

type Conflict = NonNullable<StudioDraft['folderConflict']>;
type Choice = 'folder' | 'published';
type Decision = 'keep' | 'take' | 'merge';

/**
 * The server started on a changed definitions folder but serves a version published since: the
 * folder's files against the served ones, file by file and line by line, and a choice. Keep the
 * published version (recorded, so the next start stays quiet), take the folder's files, or
 * choose per file; taking any is a publish, checked as every publish is.
 */
export function FolderConflictPanel({
  draft,
  conflict,
}: {
  draft: StudioDraft;
  conflict: Conflict;
}) {
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const dark = useComputedColorScheme('light') === 'dark';
  const [folder, setFolder] = useState<ReadonlyMap<string, string> | undefined>();
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<ApiError | undefined>();
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [deciding, setDeciding] = useState<Decision | undefined>();
  const served = draft.baseFiles ?? new Map<string, string>();
  const newest = draft.newest?.version ?? conflict.servedVersion;
  const canPublish = session.hasAnyRole([DEFINITIONS_PUBLISH_ROLE]);

  const compare = async () => {
    setLoading(true);
    setFailure(undefined);
    const [error, answer] = await api.get<{ files: Record<string, string> }>(
      'definitions',
      '/sets/folder',
    );
    setLoading(false);
    if (error) return setFailure(error);
    setFolder(new Map(Object.entries(answer.files)));
  };

  const paths = folder
    ? [...new Set([...served.keys(), ...folder.keys()])]
        .filter((path) => (served.get(path) ?? null) !== (folder.get(path) ?? null))
        .sort()
    : [];
  const chosen = (path: string): Choice => choices[path] ?? 'published';
  const fromFolder = paths.filter((path) => chosen(path) === 'folder');

  /** The folder's text of each path, or null where the folder has no such file. */
  const changesOf = (taken: string[]) =>
    Object.fromEntries(taken.map((path) => [path, folder?.get(path) ?? null]));

  const keep = async (base: number, note: string) =>
    (await api.post('definitions', '/sets/folder/keep', { base, note }))[0];

  const decide = async (decision: Decision, note: string): Promise<ApiError | undefined> => {
    // Every file chosen from the folder is taking it; none is keeping the published version.
    const taken = decision === 'take' ? paths : decision === 'merge' ? fromFolder : [];
    if (taken.length === 0) {
      const error = await keep(newest, note);
      if (error) return error;
    } else {
      const [error, published] = await api.post<{ version: number }>('definitions', '/sets', {
        base: newest,
        note,
        changes: changesOf(taken),
      });
      if (error) return error;
      // The folder's other files stay unserved: recorded as known, the published one on top.
      if (taken.length < paths.length) {
        const keptError = await keep(published.version, note);
        if (keptError) return keptError;
      }
    }
    setDeciding(undefined);
    await draft.reload();
    return undefined;
  };

  return (
    <Alert
      color="yellow"
      role="status"
      title={t('studio.versions.folderConflictTitle')}
      // Mantine's yellow title fails AA contrast on its light panel.
      styles={dark ? {} : { title: { color: '#7a4a00' } }}
    >
      <Stack gap="sm">
        <Text size="sm">{t('studio.versions.folderConflict', conflict)}</Text>
        {!folder && (
          <Group>
            <Button size="xs" variant="default" loading={loading} onClick={() => void compare()}>
              {t('studio.versions.folderCompare', conflict)}
            </Button>
          </Group>
        )}
        {failure && (
          <Alert color="red" role="alert" title={failure.message}>
            {failure.problems && <ProblemList problems={failure.problems} />}
          </Alert>
        )}
        {folder && (
          <FolderFiles
            paths={paths}
            served={served}
            folder={folder}
            conflict={conflict}
            chosen={chosen}
            choose={
              canPublish
                ? (path, choice) => setChoices((old) => ({ ...old, [path]: choice }))
                : undefined
            }
          />
        )}
        {folder && canPublish && (
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setDeciding('keep')}>
              {t('studio.versions.keepButton', { version: newest })}
            </Button>
            {paths.length > 0 && (
              <Button size="xs" variant="default" onClick={() => setDeciding('take')}>
                {t('studio.versions.takeButton')}
              </Button>
            )}
            {paths.length > 1 && (
              <Button
                size="xs"
                // None chosen is keeping, all is taking: their own buttons say so.
                disabled={fromFolder.length === 0 || fromFolder.length === paths.length}
                onClick={() => setDeciding('merge')}
              >
                {t('studio.versions.mergeButton', { count: fromFolder.length })}
              </Button>
            )}
          </Group>
        )}
      </Stack>
      {deciding && (
        <NoteDialog
          opened
          title={t(`studio.versions.${deciding}Title`)}
          submitLabel={t(`studio.versions.${deciding}Submit`)}
          onClose={() => setDeciding(undefined)}
          onSubmit={(note) => decide(deciding, note)}
        >
          <Text size="sm">
            {t(`studio.versions.${deciding}Text`, {
              version: newest,
              count: deciding === 'merge' ? fromFolder.length : paths.length,
            })}
          </Text>
        </NoteDialog>
      )}
    </Alert>
  );
}

/** The files that differ, each with its lines and, for publishers, which one to keep. */
function FolderFiles(props: {
  paths: string[];
  served: ReadonlyMap<string, string>;
  folder: ReadonlyMap<string, string>;
  conflict: Conflict;
  chosen: (path: string) => Choice;
  choose?: (path: string, choice: Choice) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | undefined>();
  const badgeColor = useComputedColorScheme('light') === 'dark' ? 'blue.3' : 'blue.9';
  const { paths, served, folder, choose } = props;
  if (paths.length === 0) return <Text size="sm">{t('studio.versions.folderSame')}</Text>;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('studio.versions.folderDiffers', {
          count: paths.length,
          version: props.conflict.servedVersion,
        })}
      </Title>
      {paths.map((path) => {
        const before = served.get(path);
        const after = folder.get(path);
        // Read as what taking the folder's file would change in the published version.
        const kind = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
        return (
          <Paper key={path} withBorder p="xs">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm">
                <Code>{path}</Code>{' '}
                <Badge color={badgeColor} size="sm" variant="outline">
                  {t(`studio.versions.folderKinds.${kind}`)}
                </Badge>
              </Text>
              <Group gap="xs" wrap="wrap">
                {choose && (
                  <SegmentedControl
                    size="xs"
                    aria-label={t('studio.versions.choiceLabel', { path })}
                    value={props.chosen(path)}
                    onChange={(value) => choose(path, value as Choice)}
                    data={[
                      { value: 'published', label: t('studio.versions.choicePublished') },
                      { value: 'folder', label: t('studio.versions.choiceFolder') },
                    ]}
                  />
                )}
                <Button
                  size="xs"
                  variant="subtle"
                  aria-expanded={open === path}
                  onClick={() => setOpen(open === path ? undefined : path)}
                >
                  {open === path ? t('studio.versions.hide') : t('studio.versions.show')}
                </Button>
              </Group>
            </Group>
            {open === path && <LineDiff before={before ?? ''} after={after ?? ''} />}
          </Paper>
        );
      })}
    </Stack>
  );
}
