import { useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
  useComputedColorScheme,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEFINITIONS_PUBLISH_ROLE } from '../../../core/definitions/studio-roles';
import { formatDateTime } from '../../../engine/format';
import { usePortal } from '../../context';
import { FolderConflictPanel } from './FolderConflictPanel';
import { NoteDialog } from './NoteDialog';
import { LineDiff } from './VersionsLineDiff';
import { versionWords, type StudioDraft, type VersionSummary } from './useStudioDraft';

type Files = ReadonlyMap<string, string | null>;

const DRAFT = 'draft';

/** Every published version, differences from the newest, and a roll back with a note. */
export function VersionsPanel({ draft }: { draft: StudioDraft }) {
  const { t } = useTranslation();
  const { session } = usePortal();
  const versions = draft.versions ?? [];
  const [compared, setCompared] = useState<string>(DRAFT);
  const [restoring, setRestoring] = useState<VersionSummary | undefined>();
  const conflict = draft.folderConflict;
  const dark = useComputedColorScheme('light') === 'dark';
  // Outline badges keep AA contrast on the table in either scheme.
  const badgeColor = dark ? 'blue.3' : 'blue.9';
  return (
    <Stack gap="md">
      {conflict && <FolderConflictPanel draft={draft} conflict={conflict} />}
      <Table.ScrollContainer minWidth={720}>
        <Table striped>
          <Table.Caption>{t('studio.versions.caption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {['version', 'note', 'by', 'at', 'actions'].map((key) => (
                <Table.Th key={key}>{t(`studio.versions.${key}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.map((version, index) => (
              <Table.Tr key={version.version}>
                {/* The source's badge whole: a narrow screen scrolls the table instead. */}
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {version.version}{' '}
                  <Badge color={badgeColor} variant="outline" size="sm">
                    {t(`studio.versions.sources.${version.source}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{versionWords(version, t).note}</Table.Td>
                <Table.Td>{versionWords(version, t).by}</Table.Td>
                <Table.Td>{formatDateTime(version.publishedAt)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {index > 0 && (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setCompared(String(version.version))}
                      >
                        {t('studio.versions.compare')}
                      </Button>
                    )}
                    {index > 0 && session.hasAnyRole([DEFINITIONS_PUBLISH_ROLE]) && (
                      <Button size="xs" variant="light" onClick={() => setRestoring(version)}>
                        {t('studio.versions.restore')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Select
        label={t('studio.versions.compareWith')}
        data={[
          { value: DRAFT, label: t('studio.versions.draft') },
          ...versions.slice(1).map((v) => ({
            value: String(v.version),
            label: t('studio.versions.versionLabel', {
              version: v.version,
              note: versionWords(v, t).note,
            }),
          })),
        ]}
        value={compared}
        allowDeselect={false}
        onChange={(value) => setCompared(value ?? DRAFT)}
        maw={480}
      />
      <Difference key={compared} draft={draft} compared={compared} />
      {restoring && (
        <NoteDialog
          opened
          title={t('studio.versions.restoreTitle')}
          submitLabel={t('studio.versions.restoreButton', { version: restoring.version })}
          submitColor="red.9"
          onClose={() => setRestoring(undefined)}
          onSubmit={async (note) => {
            const [error] = await draft.restore(restoring.version, note);
            if (error) return error;
            setRestoring(undefined);
          }}
        >
          <Text size="sm">
            {t('studio.versions.restoreText', {
              version: restoring.version,
              newest: draft.newest?.version,
            })}
          </Text>
        </NoteDialog>
      )}
    </Stack>
  );
}

/** The files of `compared` (a version, or the draft) against the newest version's. */
function Difference({ draft, compared }: { draft: StudioDraft; compared: string }) {
  const { t } = useTranslation();
  const [fetched, setFetched] = useState<Files | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const badgeColor = useComputedColorScheme('light') === 'dark' ? 'blue.3' : 'blue.9';
  const newest: Files = draft.baseFiles ?? new Map();
  const { filesOf } = draft;
  useEffect(() => {
    if (compared === DRAFT) return undefined;
    let live = true;
    void filesOf(Number(compared)).then((files) => live && setFetched(files ?? new Map()));
    return () => {
      live = false;
    };
  }, [compared, filesOf]);
  const other =
    compared === DRAFT ? new Map([...newest, ...Object.entries(draft.changes)]) : fetched;
  if (!other)
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">{t('studio.loading')}</Text>
      </Group>
    );
  // Read as "what publishing the compared files would change": from the newest to them.
  const paths = [...new Set([...newest.keys(), ...other.keys()])]
    .filter((path) => (newest.get(path) ?? null) !== (other.get(path) ?? null))
    .sort();
  if (paths.length === 0) return <Alert color="gray">{t('studio.versions.same')}</Alert>;
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {t('studio.versions.changed', { count: paths.length })}
      </Title>
      {paths.map((path) => {
        const before = newest.get(path);
        const after = other.get(path) ?? undefined;
        const kind = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
        return (
          <Paper key={path} withBorder p="xs">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">
                <Code>{path}</Code>{' '}
                <Badge color={badgeColor} size="sm" variant="outline">
                  {t(`studio.versions.kinds.${kind}`)}
                </Badge>
              </Text>
              <Button
                size="xs"
                variant="subtle"
                aria-expanded={open === path}
                onClick={() => setOpen(open === path ? undefined : path)}
              >
                {open === path ? t('studio.versions.hide') : t('studio.versions.show')}
              </Button>
            </Group>
            {open === path && <LineDiff before={before ?? ''} after={after ?? ''} />}
          </Paper>
        );
      })}
    </Stack>
  );
}
