import { useId } from 'react';
import { Badge, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MediaReference } from '../../core/documents/types';
import {
  requestLabel,
  type RequestAnswerInput,
  type RequestItemView,
  type RequestRoundView,
} from '../../core/documents/requests';
import type { Language } from '../../core/i18n/translate';
import type { FormServices } from '../form';
import type { Texts } from '../form/texts';
import { FileInput } from '../form/widgets/FileWidget';
import { FileLink } from '../form/widgets/FileLink';
import { formatDateTime } from '../format';

/** An answer being given to an item: its text, or its file as uploaded. */
export interface DraftAnswer {
  text?: string;
  file?: MediaReference;
}

/** The answers an action sends: those given, by item. */
export function requestAnswersOf(
  answers: Readonly<Record<string, DraftAnswer>>,
): RequestAnswerInput[] {
  return Object.entries(answers).map(([item, answer]) => ({
    item,
    ...(answer.text !== undefined ? { text: answer.text } : {}),
    ...(answer.file ? { media: answer.file.id } : {}),
  }));
}

/** A due date (YYYY-MM-DD) as the portal shows dates, DD/MM/YYYY; a date has no time zone. */
function dueText(due: string): string {
  const [year, month, day] = due.split('-');
  return year && month && day ? `${day}/${month}/${year}` : due;
}

const isAnswered = (item: RequestItemView, draft?: DraftAnswer) =>
  draft ? Boolean(draft.text?.trim() || draft.file) : item.answer !== null || item.media !== null;

/**
 * A document's request for information (docs/workflows.md): the question, then each item with
 * its due date and whether it is answered. `answering`: the owner answers each item here, by a
 * text or a file; otherwise the answers given show (what the officer reads).
 */
export function RequestRoundPanel({
  round,
  answering,
  showQuestion,
  answers,
  onAnswers,
  texts,
  language,
  services,
}: {
  round: RequestRoundView;
  answering: boolean;
  showQuestion: boolean;
  answers: Readonly<Record<string, DraftAnswer>>;
  onAnswers: (answers: Record<string, DraftAnswer>) => void;
  texts: Texts;
  language: Language;
  services: FormServices;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const set = (item: string, answer: DraftAnswer) => onAnswers({ ...answers, [item]: answer });
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="md"
      radius="md"
      data-testid="request-round"
      style={{ borderLeft: '4px solid var(--mantine-color-orange-filled)' }}
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id={headingId}>
          {t('requests.title')}
        </Title>
        {showQuestion && round.question && (
          <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="request-question">
            {round.question}
          </Text>
        )}
        {answering && (
          <Text size="sm" c="dimmed">
            {t('requests.intro')}
          </Text>
        )}
        <Stack gap="md" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {round.items.map((item) => {
            const label = requestLabel(item.label, language);
            const draft = answers[item.id];
            const answered = answering && draft ? isAnswered(item, draft) : isAnswered(item);
            const fieldId = `request-item-${item.id}`;
            return (
              <li key={item.id} data-testid="request-item" data-answered={answered}>
                <Stack gap={4}>
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600} id={`${fieldId}-label`}>
                      {item.code ? `${item.code} - ${label}` : label}
                    </Text>
                    <Badge variant="light" tt="none">
                      {t(item.mandatory ? 'requests.mandatory' : 'requests.optional')}
                    </Badge>
                    {/* Colours whose text passes WCAG AA contrast (axe, in the journey). */}
                    <Badge
                      tt="none"
                      variant={answered ? 'filled' : 'light'}
                      color={answered ? 'teal.9' : 'red'}
                    >
                      {t(answered ? 'requests.answered' : 'requests.notAnswered')}
                    </Badge>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {t(`requests.kinds.${item.kind}`)} ·{' '}
                    {t('requests.due', { date: dueText(item.due) })}
                  </Text>
                  {answering && item.kind === 'answer' && (
                    <Textarea
                      id={fieldId}
                      label={t('requests.answerLabel')}
                      aria-describedby={`${fieldId}-label`}
                      required={item.mandatory}
                      value={draft?.text ?? item.answer ?? ''}
                      maxLength={4000}
                      rows={3}
                      onChange={(e) => set(item.id, { ...draft, text: e.currentTarget.value })}
                    />
                  )}
                  {answering && item.kind === 'document' && (
                    <FileInput
                      id={fieldId}
                      label={t('requests.fileLabel')}
                      help={label}
                      required={item.mandatory}
                      value={draft ? draft.file : (item.media ?? undefined)}
                      texts={texts}
                      language={language}
                      services={services}
                      onChange={(file) => set(item.id, { ...draft, file })}
                      testId={`${fieldId}-file`}
                    />
                  )}
                  {!answering && item.answer && (
                    <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="request-answer">
                      {item.answer}
                    </Text>
                  )}
                  {!answering && item.media && (
                    <FileLink
                      file={item.media}
                      services={services}
                      texts={texts}
                      language={language}
                    />
                  )}
                  {!answering && item.answeredAt && (
                    <Text size="xs" c="dimmed">
                      {t('requests.closed', { date: formatDateTime(item.answeredAt) })}
                    </Text>
                  )}
                </Stack>
              </li>
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}
