import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { textKeys } from '../../../core/studio/text-keys';
import { draftIds } from './draftFiles';
import { MissingTexts } from './MissingTexts';
import { AddTextDialog, RemoveTextDialog, RenameTextDialog } from './TextKeyDialogs';
import { draftTexts, TextFields } from './TextFields';
import type { StudioDraft } from './useStudioDraft';

/** The texts files of the draft, by module: `translations/<language>/<module>.json`, and the shared `translations/<language>.json` as "portal". */
function modulesOf(paths: readonly string[]): string[] {
  const own = draftIds(paths, /^translations\/(?:en|fr)\/([^/]+)\.json$/);
  const shared = paths.some((path) => /^translations\/(en|fr)\.json$/.test(path)) ? [''] : [];
  return [...new Set([...shared, ...own])].sort();
}

const PAGE = 50;

/** What a key's dialog is open for. */
type Editing = { kind: 'add' } | { kind: 'rename' | 'remove'; key: string } | undefined;

/**
 * Every text of a module in English and French side by side, the missing ones marked; keys
 * added, renamed and removed in both languages at once, and the texts the check finds missing
 * filled in.
 */
export function TextsEditor({ draft }: { draft: StudioDraft }) {
  const { t } = useTranslation();
  const modules = modulesOf(draft.paths);
  const [module, setModule] = useState<string>(modules[0] ?? '');
  const [filter, setFilter] = useState('');
  const [missingOnly, setMissingOnly] = useState(false);
  const [shown, setShown] = useState(PAGE);
  const [editing, setEditing] = useState<Editing>();
  const [done, setDone] = useState<string | undefined>();
  const { file } = draft;
  const flat = useMemo(
    () => ({ en: draftTexts({ file }, module, 'en'), fr: draftTexts({ file }, module, 'fr') }),
    [file, module],
  );
  const keys = textKeys(flat.en, flat.fr);
  const isMissing = (key: string) => !flat.en.get(key) || !flat.fr.get(key);
  const missing = keys.filter(isMissing);
  const needle = filter.trim().toLowerCase();
  const rows = (missingOnly ? missing : keys).filter(
    (key) =>
      !needle ||
      key.toLowerCase().includes(needle) ||
      (flat.en.get(key) ?? '').toLowerCase().includes(needle) ||
      (flat.fr.get(key) ?? '').toLowerCase().includes(needle),
  );
  const moduleName = module || t('studio.texts.shared');
  const close = (message?: string) => {
    setEditing(undefined);
    if (message) setDone(message);
  };
  const dialog = { draft, namespace: module, onClose: close };
  /** The key a rename or removal dialog is open for. */
  const keyOf = (kind: 'rename' | 'remove') => (editing?.kind === kind ? editing.key : undefined);
  return (
    <Stack gap="md">
      <MissingTexts draft={draft} namespaces={modules} />
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('studio.texts.module')}
          data={modules.map((id) => ({ value: id, label: id || t('studio.texts.shared') }))}
          value={module}
          allowDeselect={false}
          searchable
          onChange={(value) => {
            setModule(value ?? '');
            setShown(PAGE);
            setDone(undefined);
          }}
          w={{ base: '100%', sm: 280 }}
        />
        <TextInput
          label={t('studio.texts.filter')}
          type="search"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          w={{ base: '100%', sm: 280 }}
        />
        <Checkbox
          label={t('studio.texts.missingOnly')}
          checked={missingOnly}
          onChange={(event) => setMissingOnly(event.currentTarget.checked)}
          mb={8}
        />
        <Button variant="default" onClick={() => setEditing({ kind: 'add' })}>
          {t('studio.texts.add')}
        </Button>
      </Group>
      <Text size="sm" role="status">
        {t('studio.texts.count', { count: keys.length, missing: missing.length })}
      </Text>
      {done && (
        <Alert
          color="green.9"
          role="status"
          withCloseButton
          closeButtonLabel={t('studio.close')}
          onClose={() => setDone(undefined)}
        >
          {done}
        </Alert>
      )}
      {rows.length === 0 ? (
        <Alert color="gray">{t('studio.texts.none')}</Alert>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped>
            <Table.Caption>{t('studio.texts.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('studio.texts.key')}</Table.Th>
                <Table.Th>{t('studio.texts.bothLanguages')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('studio.texts.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.slice(0, shown).map((key) => (
                <Table.Tr key={`${module}:${key}`}>
                  <Table.Td>
                    <Text size="xs" ff="monospace">
                      {key}
                    </Text>
                    {isMissing(key) && (
                      <Badge color="red.9" variant="filled" size="sm">
                        {t('studio.texts.missing')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td miw={420}>
                    <TextFields draft={draft} namespace={module} textKey={key} texts={flat} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('studio.texts.rename', { key })}
                        onClick={() => setEditing({ kind: 'rename', key })}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('studio.texts.remove', { key })}
                        onClick={() => setEditing({ kind: 'remove', key })}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {rows.length > shown && (
        <Group>
          <Button variant="default" onClick={() => setShown((n) => n + PAGE)}>
            {t('studio.texts.more', { count: rows.length - shown })}
          </Button>
        </Group>
      )}
      <AddTextDialog
        opened={editing?.kind === 'add'}
        {...dialog}
        moduleName={moduleName}
        texts={flat}
      />
      <RenameTextDialog textKey={keyOf('rename')} {...dialog} texts={flat} />
      <RemoveTextDialog textKey={keyOf('remove')} {...dialog} />
    </Stack>
  );
}
