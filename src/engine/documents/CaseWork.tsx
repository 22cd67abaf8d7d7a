import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../core/api/client';
import {
  CASE_NOTE_MAX_LENGTH,
  flagTextKey,
  maySeeFlags,
  maySetFlag,
  mayUseCaseNotes,
  type CaseNote,
  type DocumentFlags,
} from '../../core/documents/case-work';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { ConfirmDialog } from '../ConfirmDialog';
import { ErrorAlert } from '../ErrorAlert';
import { useApiAnswer } from '../useApiAnswer';
import { useApiMessage } from '../useApiMessage';
import { useConfirmation } from '../useConfirmation';
import { formatDateTime } from '../format';

/**
 * Officers' own work on a document (docs/workflows.md, "Case notes and flags"): its flags as
 * badges they set and clear, and its internal case notes. Shown only to the officers the
 * workflow names, never on a document of their own; the server refuses everyone else anyway.
 */
export interface CaseWorkProps {
  workflow: WorkflowDefinition;
  document: { id: string; owner: string };
  api: ApiClient;
  backend: string;
  /** The reader's roles and subject (the owner of a document never sees its case work). */
  roles: readonly string[];
  subject: string | undefined;
}

/** The flags and case notes panels this reader may use, if any. */
export function CaseWorkPanels(props: CaseWorkProps) {
  const { workflow, document, roles, subject } = props;
  if (document.owner === subject) return null;
  return (
    <>
      {maySeeFlags(workflow, roles) && <FlagsPanel {...props} />}
      {mayUseCaseNotes(workflow, roles) && <CaseNotesPanel {...props} />}
    </>
  );
}

/** The document's flags as badges, each clearable after a confirmation; the others to set. */
export function FlagsPanel({ workflow, document, api, backend, roles }: CaseWorkProps) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const [busy, setBusy] = useState<string | null>(null);
  const clearing = useConfirmation<string>((flag) => void change(flag, false));
  const base = `/${workflow.id}/${document.id}/flags`;
  const answer = useApiAnswer(() => api.get<DocumentFlags>(backend, base), [api, backend, base]);
  const { failure, setFailure } = answer;
  const flags = answer.value?.flags ?? null;
  const change = async (flag: string, set: boolean) => {
    setBusy(flag);
    setFailure('');
    const path = `${base}/${encodeURIComponent(flag)}`;
    const [error, changed] = set
      ? await api.put<DocumentFlags>(backend, path)
      : await api.delete<DocumentFlags>(backend, path);
    setBusy(null);
    if (error) setFailure(messageOf(error));
    else answer.setValue(changed);
  };
  const name = (flag: string) => t(flagTextKey(workflow.id, flag), { defaultValue: flag });
  const declared = Object.keys(workflow.flags ?? {});
  const unset = declared.filter(
    (flag) => !flags?.includes(flag) && maySetFlag(workflow, roles, flag),
  );
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="case-flags" data-case-flags>
      <Title order={3} size="h5" id="case-flags" mb="xs">
        {t('case-work.flagsTitle')}
      </Title>
      <Stack gap="xs">
        {flags === null && !failure && (
          <Loader size="sm" role="status" aria-label={t('case-work.flagsTitle')} />
        )}
        {flags !== null && (
          <Group gap="xs" aria-live="polite">
            {flags.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('case-work.noFlags')}
              </Text>
            )}
            {flags.map((flag) => (
              <Badge
                key={flag}
                color="orange"
                variant="light"
                tt="none"
                data-flag={flag}
                rightSection={
                  maySetFlag(workflow, roles, flag) ? (
                    <CloseButton
                      size="xs"
                      aria-label={t('case-work.clearFlag', { flag: name(flag) })}
                      disabled={busy !== null}
                      onClick={() => clearing.ask(flag)}
                    />
                  ) : undefined
                }
              >
                {name(flag)}
              </Badge>
            ))}
          </Group>
        )}
        {flags !== null && unset.length > 0 && (
          <Group gap="xs" role="group" aria-label={t('case-work.setFlag')}>
            <Text size="sm">{t('case-work.setFlag')}:</Text>
            {unset.map((flag) => (
              <Button
                key={flag}
                size="compact-sm"
                variant="default"
                loading={busy === flag}
                disabled={busy !== null && busy !== flag}
                onClick={() => void change(flag, true)}
              >
                {name(flag)}
              </Button>
            ))}
          </Group>
        )}
        <ErrorAlert>{failure}</ErrorAlert>
      </Stack>
      <ConfirmDialog
        {...clearing.dialog}
        title={t('case-work.clearConfirmTitle')}
        message={t('case-work.clearConfirm', {
          flag: clearing.pending ? name(clearing.pending) : '',
        })}
        cancelLabel={t('case-work.cancel')}
        confirmLabel={t('case-work.clear')}
      />
    </Paper>
  );
}

/** The internal notes thread: each note with its author and time, editable, its earlier texts shown. */
export function CaseNotesPanel({ workflow, document, api, backend }: CaseWorkProps) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const [draft, setDraft] = useState('');
  const [adding, setAdding] = useState(false);
  const base = `/${workflow.id}/${document.id}/case-notes`;
  const answer = useApiAnswer(
    () => api.get<{ items: CaseNote[] }>(backend, base),
    [api, backend, base],
  );
  const { failure, setFailure } = answer;
  const notes = answer.value?.items ?? null;
  const setNotes = (change: (current: CaseNote[] | null) => CaseNote[]) =>
    answer.setValue((current) => ({ items: change(current?.items ?? null) }));
  const add = async () => {
    setAdding(true);
    setFailure('');
    const [error, note] = await api.post<CaseNote>(backend, base, { text: draft });
    setAdding(false);
    if (error) return setFailure(messageOf(error));
    setDraft('');
    setNotes((current) => [...(current ?? []), note]);
  };
  const replace = (note: CaseNote) =>
    setNotes((current) => (current ?? []).map((n) => (n.id === note.id ? note : n)));
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="case-notes" data-case-notes>
      <Title order={3} size="h5" id="case-notes">
        {t('case-work.notesTitle')}
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        {t('case-work.notesHelp')}
      </Text>
      <Stack gap="sm">
        {notes === null && !failure && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('case-work.loadingNotes')}</Text>
          </Group>
        )}
        {notes?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('case-work.noNotes')}
          </Text>
        )}
        {notes !== null && notes.length > 0 && (
          <Stack gap="xs" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
            {notes.map((note) => (
              <li key={note.id}>
                <NoteItem
                  note={note}
                  path={`${base}/${note.id}`}
                  api={api}
                  backend={backend}
                  onSaved={replace}
                  onStale={answer.reload}
                />
              </li>
            ))}
          </Stack>
        )}
        <NoteText label={t('case-work.newNote')} value={draft} onChange={setDraft} />
        <Group>
          <Button onClick={() => void add()} loading={adding} disabled={draft.trim() === ''}>
            {t('case-work.addNote')}
          </Button>
        </Group>
        <ErrorAlert>{failure}</ErrorAlert>
      </Stack>
    </Paper>
  );
}

function NoteText({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={label}
      value={value}
      rows={3}
      maxLength={CASE_NOTE_MAX_LENGTH}
      description={t('case-work.characters', {
        count: value.length,
        max: CASE_NOTE_MAX_LENGTH,
      })}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** One note: its text, who wrote it when, its earlier texts; edited in place. */
function NoteItem({
  note,
  path,
  api,
  backend,
  onSaved,
  onStale,
}: {
  note: CaseNote;
  path: string;
  api: ApiClient;
  backend: string;
  onSaved: (note: CaseNote) => void;
  /** Someone else changed it: the thread is read again, the reader's text kept. */
  onStale: () => void;
}) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const [editing, setEditing] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState('');
  const save = async () => {
    if (editing === null) return;
    setSaving(true);
    setFailure('');
    const [error, saved] = await api.put<CaseNote>(backend, path, {
      text: editing,
      version: note.version,
    });
    setSaving(false);
    if (error) {
      setFailure(messageOf(error));
      if (error.status === 409) onStale();
      return;
    }
    setEditing(null);
    onSaved(saved);
  };
  return (
    <Paper withBorder p="xs" data-case-note={note.id}>
      <Text size="xs" c="dimmed">
        {t('case-work.writtenBy', { name: note.author.name, at: formatDateTime(note.createdAt) })}
        {note.version > 1 &&
          ` · ${t('case-work.editedBy', { name: note.updatedBy.name, at: formatDateTime(note.updatedAt) })}`}
      </Text>
      {editing === null ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {note.text}
        </Text>
      ) : (
        <NoteText label={t('case-work.editNote')} value={editing} onChange={setEditing} />
      )}
      <Group gap="xs" mt="xs">
        {editing === null ? (
          <Button size="compact-sm" variant="default" onClick={() => setEditing(note.text)}>
            {t('case-work.edit')}
          </Button>
        ) : (
          <>
            <Button
              size="compact-sm"
              onClick={() => void save()}
              loading={saving}
              disabled={editing.trim() === ''}
            >
              {t('case-work.save')}
            </Button>
            <Button size="compact-sm" variant="default" onClick={() => setEditing(null)}>
              {t('case-work.cancel')}
            </Button>
          </>
        )}
      </Group>
      {failure && (
        <Alert color="red" role="alert" mt="xs">
          {failure}
        </Alert>
      )}
      {note.edits.length > 0 && (
        <details>
          <summary>
            <Text span size="xs">
              {t('case-work.history', { count: note.edits.length })}
            </Text>
          </summary>
          <Stack gap={4} mt={4}>
            {[...note.edits].reverse().map((edit) => (
              <div key={edit.version}>
                <Text size="xs" c="dimmed">
                  {t('case-work.historyLine', {
                    version: edit.version,
                    name: edit.by.name,
                    at: formatDateTime(edit.at),
                  })}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {edit.text}
                </Text>
              </div>
            ))}
          </Stack>
        </details>
      )}
    </Paper>
  );
}
