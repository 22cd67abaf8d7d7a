import { Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isNode } from '../../../core/definitions/json';
import { fileText } from '../../../core/studio/schema-design';
import { flattenTexts, setText } from '../../../core/studio/text-keys';
import { textPlace } from '../../../core/studio/workflow-design';
import { parseNode } from './draftFiles';
import { TEXT_LANGUAGES, type TextLanguage } from './TextFields';
import type { StudioDraft } from './useStudioDraft';

type Draft = Pick<StudioDraft, 'file' | 'setFile' | 'paths'>;

/** Where the draft keeps a text in a language: the module's own file, or the shared one. */
function placeOf(draft: Draft, key: string, language: TextLanguage) {
  return textPlace(key, language, (path) => draft.paths.includes(path));
}

/** The draft's text of `key` in `language` ('' when missing). */
export function draftText(draft: Draft, key: string, language: TextLanguage): string {
  const place = placeOf(draft, key, language);
  return flattenTexts(parseNode(draft.file(place.file))).get(place.key) ?? '';
}

/** Sets texts in the draft's translation files; '' removes one. */
export function setDraftTexts(
  draft: Draft,
  texts: ReadonlyArray<{ key: string; language: TextLanguage; text: string }>,
): void {
  const files = new Map<string, ReturnType<typeof parseNode>>();
  for (const { key, language, text } of texts) {
    const place = placeOf(draft, key, language);
    const tree = files.get(place.file) ?? parseNode(draft.file(place.file)) ?? {};
    files.set(place.file, setText(isNode(tree) ? tree : {}, place.key, text));
  }
  for (const [file, tree] of files) draft.setFile(file, fileText(tree));
}

/**
 * A part's text in English and French, edited beside the part: the key the checker asks for
 * (a status's `statuses.<STATUS>`, an action's `actions.<action>`, a list's or screen's own).
 */
export function WorkflowTexts(props: { draft: Draft; textKey: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Group grow align="flex-start" wrap="wrap">
      {TEXT_LANGUAGES.map((language) => {
        const value = draftText(props.draft, props.textKey, language);
        return (
          <TextInput
            key={language}
            miw={200}
            lang={language}
            label={t(`studio.workflow.texts.${language}`, { part: props.label })}
            description={props.textKey}
            required
            value={value}
            error={value.trim() === '' ? t('studio.workflow.texts.missing') : undefined}
            onChange={(event) =>
              setDraftTexts(props.draft, [
                { key: props.textKey, language, text: event.currentTarget.value },
              ])
            }
          />
        );
      })}
    </Group>
  );
}
