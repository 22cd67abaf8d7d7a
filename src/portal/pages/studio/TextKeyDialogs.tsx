import { useState } from 'react';
import { Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fileText } from '../../../core/studio/schema-design';
import {
  keyProblem,
  removeText,
  renameReferences,
  renameText,
  wholeKey,
  type FlatTexts,
} from '../../../core/studio/text-keys';
import { parseNode } from './draftFiles';
import { StudioDialog } from './StudioDialog';
import {
  LANGUAGE_NAMES,
  TEXT_LANGUAGES,
  textsFile,
  writeTexts,
  type TextLanguage,
} from './TextFields';
import type { StudioDraft } from './useStudioDraft';

type Texts = Record<TextLanguage, FlatTexts>;

/** Keys typed as code; their labels stay in the page's font. */
const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** Definitions that may name a text by its whole key (translations name none). */
const NAMING_FILES = /^(modules\.json|(schemas|workflows|catalogs)\/[^/]+\.json)$/;

/** Why a key is refused in a namespace's files, as a translated sentence. */
function useKeyError() {
  const { t } = useTranslation();
  return (texts: Texts, key: string) => {
    const merged = new Map([...texts.fr, ...texts.en]);
    const problem = keyProblem(merged, key.trim());
    return problem && t(`studio.texts.keyProblems.${problem}`);
  };
}

/** A new key with its English and French text, written into both files in one step. */
export function AddTextDialog(props: {
  opened: boolean;
  draft: StudioDraft;
  namespace: string;
  moduleName: string;
  texts: Texts;
  onClose: (done?: string) => void;
}) {
  const { t } = useTranslation();
  const keyError = useKeyError();
  const [key, setKey] = useState('');
  const [values, setValues] = useState<Record<TextLanguage, string>>({ en: '', fr: '' });
  const [tried, setTried] = useState(false);
  const errors = {
    key: keyError(props.texts, key),
    en: values.en.trim() ? undefined : t('studio.texts.textRequired'),
    fr: values.fr.trim() ? undefined : t('studio.texts.textRequired'),
  };
  const close = (done?: string) => {
    setKey('');
    setValues({ en: '', fr: '' });
    setTried(false);
    props.onClose(done);
  };
  return (
    <StudioDialog
      opened={props.opened}
      title={t('studio.texts.addTitle', { module: props.moduleName })}
      submitLabel={t('studio.texts.addSubmit')}
      onClose={() => close()}
      onSubmit={() => {
        setTried(true);
        if (errors.key || errors.en || errors.fr) return;
        const added = key.trim();
        for (const language of TEXT_LANGUAGES)
          writeTexts(props.draft, props.namespace, language, { [added]: values[language].trim() });
        close(t('studio.texts.added', { key: wholeKey(props.namespace, added) }));
      }}
    >
      <TextInput
        label={t('studio.texts.key')}
        description={t('studio.texts.keyHelp')}
        required
        styles={MONO}
        value={key}
        error={tried && errors.key}
        onChange={(event) => setKey(event.currentTarget.value)}
        data-autofocus
      />
      {TEXT_LANGUAGES.map((language) => (
        <TextInput
          key={language}
          label={LANGUAGE_NAMES[language]}
          lang={language}
          required
          value={values[language]}
          error={tried && errors[language]}
          onChange={(event) => {
            const text = event.currentTarget.value;
            setValues((old) => ({ ...old, [language]: text }));
          }}
        />
      ))}
    </StudioDialog>
  );
}

/**
 * A key renamed in both languages' files, and wherever the definitions name it by its whole key
 * (lists, screens, menus, messages); the keys the engine derives (statuses, actions, field
 * labels) are named by no definition, so only their texts move.
 */
export function RenameTextDialog(props: {
  textKey: string | undefined;
  draft: StudioDraft;
  namespace: string;
  texts: Texts;
  onClose: (done?: string) => void;
}) {
  const { t } = useTranslation();
  const keyError = useKeyError();
  const [next, setNext] = useState('');
  const [tried, setTried] = useState(false);
  const { draft, namespace, textKey } = props;
  const error = next.trim() === textKey ? undefined : keyError(props.texts, next);
  const close = (done?: string) => {
    setNext('');
    setTried(false);
    props.onClose(done);
  };
  const rename = (from: string, to: string) => {
    for (const language of TEXT_LANGUAGES) {
      const path = textsFile(namespace, language);
      const tree = parseNode(draft.file(path));
      if (tree) draft.setFile(path, fileText(renameText(tree, from, to)));
    }
    let places = 0;
    for (const path of draft.paths.filter((candidate) => NAMING_FILES.test(candidate))) {
      const definition = parseNode(draft.file(path));
      if (!definition) continue;
      const { renamed, count } = renameReferences(
        definition,
        wholeKey(namespace, from),
        wholeKey(namespace, to),
      );
      if (count === 0) continue;
      places += count;
      draft.setFile(path, fileText(renamed));
    }
    return places;
  };
  return (
    <StudioDialog
      opened={textKey !== undefined}
      title={t('studio.texts.renameTitle', { key: textKey })}
      submitLabel={t('studio.texts.renameSubmit')}
      onClose={() => close()}
      onSubmit={() => {
        setTried(true);
        const to = next.trim();
        if (!textKey || error || !to) return;
        if (to === textKey) return close();
        const places = rename(textKey, to);
        close(t('studio.texts.renamed', { count: places, key: textKey, to }));
      }}
    >
      <Text size="sm">
        {t('studio.texts.renameHelp', { whole: wholeKey(namespace, textKey ?? '') })}
      </Text>
      <TextInput
        label={t('studio.texts.newKey')}
        required
        styles={MONO}
        value={next}
        placeholder={textKey}
        error={tried && (error ?? (next.trim() ? undefined : t('studio.texts.keyRequired')))}
        onChange={(event) => setNext(event.currentTarget.value)}
        data-autofocus
      />
    </StudioDialog>
  );
}

/** A key removed from both languages' files, after a confirmation. */
export function RemoveTextDialog(props: {
  textKey: string | undefined;
  draft: StudioDraft;
  namespace: string;
  onClose: (done?: string) => void;
}) {
  const { t } = useTranslation();
  const { draft, namespace, textKey } = props;
  return (
    <StudioDialog
      opened={textKey !== undefined}
      title={t('studio.texts.removeTitle')}
      submitLabel={t('studio.texts.removeSubmit')}
      submitColor="red"
      onClose={() => props.onClose()}
      onSubmit={() => {
        if (!textKey) return;
        for (const language of TEXT_LANGUAGES) {
          const path = textsFile(namespace, language);
          const tree = parseNode(draft.file(path));
          if (tree) draft.setFile(path, fileText(removeText(tree, textKey)));
        }
        props.onClose(t('studio.texts.removed', { key: wholeKey(namespace, textKey) }));
      }}
    >
      <Text size="sm">
        {t('studio.texts.removeText', { key: wholeKey(namespace, textKey ?? '') })}
      </Text>
    </StudioDialog>
  );
}
