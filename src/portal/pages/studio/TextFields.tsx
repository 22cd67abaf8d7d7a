import { useMemo } from 'react';
import { Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fileText } from '../../../core/studio/schema-design';
import { flattenTexts, setText, type FlatTexts } from '../../../core/studio/text-keys';
import { parseNode } from './draftFiles';
import type { StudioDraft } from './useStudioDraft';

export type TextLanguage = 'en' | 'fr';
export const TEXT_LANGUAGES: readonly TextLanguage[] = ['en', 'fr'];
/** Each language named in itself, as a bilingual analyst looks for it. */
export const LANGUAGE_NAMES: Record<TextLanguage, string> = { en: 'English', fr: 'Français' };

/** A namespace's texts file (`translations/<language>/<namespace>.json`); "" is the shared file. */
export const textsFile = (namespace: string, language: TextLanguage) =>
  namespace ? `translations/${language}/${namespace}.json` : `translations/${language}.json`;

/** The draft's texts of a namespace in one language, flattened to their keys. */
export function draftTexts(
  draft: Pick<StudioDraft, 'file'>,
  namespace: string,
  language: TextLanguage,
) {
  return flattenTexts(parseNode(draft.file(textsFile(namespace, language))) ?? {});
}

/** A namespace's file with texts set: each `key -> text` ("" removes); its path and new text. */
export function textsWritten(
  draft: Pick<StudioDraft, 'file'>,
  namespace: string,
  language: TextLanguage,
  texts: Record<string, string>,
): [path: string, text: string] {
  const path = textsFile(namespace, language);
  const schema = `${namespace ? '../../' : '../'}meta/translations.schema.json`;
  let tree = parseNode(draft.file(path)) ?? { $schema: schema };
  for (const [key, text] of Object.entries(texts)) tree = setText(tree, key, text);
  return [path, fileText(tree)];
}

/** Writes texts into a namespace's file of the draft at once. */
export function writeTexts(
  draft: Pick<StudioDraft, 'file' | 'setFile'>,
  namespace: string,
  language: TextLanguage,
  texts: Record<string, string>,
) {
  draft.setFile(...textsWritten(draft, namespace, language, texts));
}

/**
 * The English and French text of one key of the draft, side by side, each saved into the draft
 * when its field is left (emptied, the text is removed and the checker will say it is missing).
 * For any designer to put beside what it designs: `<TextFields draft={draft} namespace="appeal"
 * textKey="lists.mine" label="List name" />`. `texts` spares a long table from parsing the
 * files once per row.
 */
export function TextFields(props: {
  draft: Pick<StudioDraft, 'file' | 'setFile'>;
  /** The texts' namespace (a document type's id), or "" for the portal's shared texts. */
  namespace: string;
  textKey: string;
  /** What the texts are, shown above each field; without it, each field is named by the key. */
  label?: string;
  texts?: Record<TextLanguage, FlatTexts>;
}) {
  const { t } = useTranslation();
  const { draft, namespace, textKey, label } = props;
  const { file } = draft;
  const own = useMemo(
    () =>
      props.texts ?? {
        en: draftTexts({ file }, namespace, 'en'),
        fr: draftTexts({ file }, namespace, 'fr'),
      },
    [props.texts, file, namespace],
  );
  return (
    <Group grow align="flex-start" gap="xs" wrap="nowrap">
      {TEXT_LANGUAGES.map((language) => {
        const stored = own[language].get(textKey) ?? '';
        const name = label
          ? t('studio.texts.fieldLabel', { label, language: LANGUAGE_NAMES[language] })
          : `${textKey} (${LANGUAGE_NAMES[language]})`;
        return (
          <TextInput
            // A text changed elsewhere (renamed, filled in) shows at once.
            key={`${language}:${stored}`}
            label={label ? name : undefined}
            aria-label={label ? undefined : name}
            lang={language}
            defaultValue={stored}
            error={!stored}
            onBlur={(event) => {
              const text = event.currentTarget.value;
              if (text !== stored) writeTexts(draft, namespace, language, { [textKey]: text });
            }}
          />
        );
      })}
    </Group>
  );
}
