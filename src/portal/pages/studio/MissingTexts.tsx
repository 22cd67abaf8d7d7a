import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { missingTexts, textHome, type MissingText } from '../../../core/studio/text-keys';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { LANGUAGE_NAMES, TEXT_LANGUAGES, textsWritten, type TextLanguage } from './TextFields';
import { useDraftCheck, type DraftChanges, type StudioDraft } from './useStudioDraft';

/** What was typed for a missing text: `<whole key>|<language>` -> text. */
type Typed = Record<string, string>;
const typedId = (key: string, language: TextLanguage) => `${key}|${language}`;

/**
 * The texts the checker says the draft lacks (a new status, action, list, menu entry, message
 * or field), each with a field per language it lacks, added at once into the file it belongs
 * to: its namespace's, or the shared one. The draft is checked when the tab opens with changes.
 */
export function MissingTexts({ draft, namespaces }: { draft: StudioDraft; namespaces: string[] }) {
  const { t } = useTranslation();
  const { checking, result, failure, run } = useDraftCheck(draft);
  const [typed, setTyped] = useState<Typed>({});
  const [added, setAdded] = useState<number | undefined>();
  const changed = Object.keys(draft.changes).length > 0;
  const missing = useMemo(() => (result ? missingTexts(result.problems) : []), [result]);
  const homes = useMemo(() => new Set(namespaces.filter(Boolean)), [namespaces]);

  // Once, as the tab opens: a draft with changes may already lack texts.
  const firstCheck = useRef(changed ? run : undefined);
  useEffect(() => {
    void firstCheck.current?.();
  }, []);

  const addAll = async () => {
    const byFile = new Map<string, { namespace: string; language: TextLanguage; texts: Typed }>();
    for (const { key, languages } of missing)
      for (const language of languages) {
        const text = (typed[typedId(key, language)] ?? '').trim();
        if (!text) continue;
        const home = textHome(key, homes);
        const id = `${home.namespace}|${language}`;
        const entry = byFile.get(id) ?? { namespace: home.namespace, language, texts: {} };
        entry.texts[home.key] = text;
        byFile.set(id, entry);
      }
    const pending: DraftChanges = {};
    let count = 0;
    for (const { namespace, language, texts } of byFile.values()) {
      const [path, text] = textsWritten(draft, namespace, language, texts);
      pending[path] = text;
      draft.setFile(path, text);
      count += Object.keys(texts).length;
    }
    setTyped({});
    setAdded(count);
    await run(undefined, pending);
  };

  const filled = missing.some(({ key, languages }) =>
    languages.some((language) => (typed[typedId(key, language)] ?? '').trim()),
  );

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="missing-texts-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h4" id="missing-texts-title">
            {t('studio.texts.missingTitle')}
          </Title>
          <Button variant="default" onClick={() => void run()} loading={checking}>
            {t('studio.texts.findMissing')}
          </Button>
        </Group>
        <ErrorAlert>{failure?.message}</ErrorAlert>
        {checking && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('studio.texts.checking')}</Text>
          </Group>
        )}
        {!checking && added !== undefined && (
          <Text size="sm" role="status">
            {t('studio.texts.missingAdded', { count: added })}
          </Text>
        )}
        {!checking && result && missing.length === 0 && (
          <Alert color="green.9" role="status">
            {t('studio.texts.noneMissing')}
          </Alert>
        )}
        {!checking && !result && !failure && <Text size="sm">{t('studio.texts.missingHelp')}</Text>}
        {!checking && missing.length > 0 && (
          <form
            noValidate
            aria-labelledby="missing-texts-title"
            onSubmit={(event) => {
              event.preventDefault();
              void addAll();
            }}
          >
            <Stack gap="sm">
              <Text size="sm" role="status">
                {t('studio.texts.missingCount', { count: missing.length })}
              </Text>
              <Table.ScrollContainer minWidth={640}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('studio.texts.key')}</Table.Th>
                      {TEXT_LANGUAGES.map((language) => (
                        <Table.Th key={language}>{LANGUAGE_NAMES[language]}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {missing.map((text) => (
                      <MissingRow key={text.key} text={text} typed={typed} setTyped={setTyped} />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group>
                <Button type="submit" disabled={!filled}>
                  {t('studio.texts.addMissing')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}

function MissingRow(props: {
  text: MissingText;
  typed: Typed;
  setTyped: (change: (old: Typed) => Typed) => void;
}) {
  const { t } = useTranslation();
  const { key, languages } = props.text;
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="xs" ff="monospace">
          {key}
        </Text>
      </Table.Td>
      {TEXT_LANGUAGES.map((language) => (
        <Table.Td key={language}>
          {languages.includes(language) ? (
            <TextInput
              aria-label={`${key} (${LANGUAGE_NAMES[language]})`}
              lang={language}
              value={props.typed[typedId(key, language)] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                props.setTyped((old) => ({ ...old, [typedId(key, language)]: value }));
              }}
            />
          ) : (
            <Text size="sm" c="dimmed">
              {t('studio.texts.present')}
            </Text>
          )}
        </Table.Td>
      ))}
    </Table.Tr>
  );
}
