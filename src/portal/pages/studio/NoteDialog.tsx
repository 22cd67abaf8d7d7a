import { useState, type ReactNode } from 'react';
import { Alert, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../core/api/errors';
import { ProblemList } from './ProblemList';
import { StudioDialog } from './StudioDialog';

/** A confirmation that asks why, for the history; the server's refusal shows in it. */
export function NoteDialog(props: {
  opened: boolean;
  title: string;
  children: ReactNode;
  submitLabel: string;
  submitColor?: string;
  onClose: () => void;
  /** Sends the note: the server's refusal, or nothing once done. */
  onSubmit: (note: string) => Promise<ApiError | undefined>;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | undefined>();
  const [noteError, setNoteError] = useState<string | undefined>();

  const submit = async () => {
    if (!note.trim()) return setNoteError(t('studio.noteRequired'));
    setBusy(true);
    setFailure(undefined);
    const error = await props.onSubmit(note.trim());
    setBusy(false);
    if (error) return setFailure(error);
    setNote('');
  };

  return (
    <StudioDialog
      opened={props.opened}
      title={props.title}
      submitLabel={props.submitLabel}
      submitColor={props.submitColor}
      busy={busy}
      onClose={props.onClose}
      onSubmit={() => void submit()}
    >
      {props.children}
      <Textarea
        label={t('studio.note')}
        description={t('studio.noteHelp')}
        required
        maxLength={500}
        autosize
        minRows={2}
        value={note}
        error={noteError}
        onChange={(event) => {
          setNote(event.currentTarget.value);
          setNoteError(undefined);
        }}
        data-autofocus
      />
      {failure && (
        <Alert color="red" role="alert" title={failure.message}>
          {failure.problems && <ProblemList problems={failure.problems} />}
        </Alert>
      )}
    </StudioDialog>
  );
}
