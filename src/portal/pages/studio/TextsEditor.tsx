import { useMemo, useState } from 'react';
import {
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
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fileText } from '../../../core/studio/schema-design';
import { flattenTexts, setText, textKeys } from '../../../core/studio/text-keys';
import { draftIds, parseNode } from './draftFiles';
import type { StudioDraft } from './useStudioDraft';

/** The texts files of the draft, by module: `translations/<language>/<module>.json`, and the shared `translations/<language>.json` as "portal". */
function modulesOf(paths: readonly string[]): string[] {
  const own = draftIds(paths, /^translations\/(?:en|fr)\/([^/]+)\.json$/);
  const shared = paths.some((path) => /^translations\/(en|fr)\.json$/.test(path)) ? [''] : [];
  return [...new Set([...shared, ...own])].sort();
}

const fileOf = (module: string, language: 'en' | 'fr') =>
  module ? `translations/${language}/${module}.json` : `translations/${language}.json`;

const PAGE = 50;

/** Every text of a module in English and French side by side, the missing ones marked. */
export function TextsEditor({ draft }: { draft: StudioDraft }) {
  const { t } = useTranslation();
  const modules = modulesOf(draft.paths);
  const [module, setModule] = useState<string>(modules[0] ?? '');
  const [filter, setFilter] = useState('');
  const [missingOnly, setMissingOnly] = useState(false);
  const [shown, setShown] = useState(PAGE);
  const { file } = draft;
  const trees = useMemo(
    () => ({
      en: parseNode(file(fileOf(module, 'en'))) ?? {},
      fr: parseNode(file(fileOf(module, 'fr'))) ?? {},
    }),
    [file, module],
  );
  const flat = useMemo(() => ({ en: flattenTexts(trees.en), fr: flattenTexts(trees.fr) }), [trees]);
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
  const change = (language: 'en' | 'fr', key: string, text: string) =>
    draft.setFile(fileOf(module, language), fileText(setText(trees[language], key, text)));
  return (
    <Stack gap="md">
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
          }}
          w={{ base: '100%', sm: 280 }}
        />
        <TextInput
          label={t('studio.texts.filter')}
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
      </Group>
      <Text size="sm" role="status">
        {t('studio.texts.count', { count: keys.length, missing: missing.length })}
      </Text>
      {rows.length === 0 ? (
        <Alert color="gray">{t('studio.texts.none')}</Alert>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Caption>{t('studio.texts.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('studio.texts.key')}</Table.Th>
                <Table.Th>English</Table.Th>
                <Table.Th>Français</Table.Th>
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
                  {(['en', 'fr'] as const).map((language) => (
                    <Table.Td key={language}>
                      <TextInput
                        aria-label={`${key} (${language === 'en' ? 'English' : 'Français'})`}
                        lang={language}
                        defaultValue={flat[language].get(key) ?? ''}
                        error={!flat[language].get(key)}
                        onBlur={(event) => {
                          const text = event.currentTarget.value;
                          if (text !== (flat[language].get(key) ?? '')) change(language, key, text);
                        }}
                      />
                    </Table.Td>
                  ))}
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
    </Stack>
  );
}
