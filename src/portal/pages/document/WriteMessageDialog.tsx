import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '../../../core/api/errors';
import type { MediaReference, DocumentView } from '../../../core/documents/types';
import {
  fullRoles,
  type WorkflowDefinition,
  type WorkflowInbox,
} from '../../../core/documents/workflow';
import { resolvePointer, setAt } from '../../../core/rules/registry';
import { fieldHelp, fieldLabel } from '../../../engine/form/texts';
import { FileInput } from '../../../engine/form/widgets/FileWidget';
import { usePortal } from '../../context';
import { documentServices } from '../../documentServices';
import { useLanguage } from '../../useLanguage';

/** The inbox's action by which an officer writes to the holder of a document. */
const WRITE = 'write';

/** An inbox workflow, with its inbox declaration known to be there. */
type InboxWorkflow = WorkflowDefinition & { inbox: WorkflowInbox };

/**
 * "Write to the holder" on a document's screen: for an officer who may write inbox messages
 * (the inbox workflow's `write` action) and is not the document's holder. It opens a dialog
 * (subject, message, note, attachment) that sends the message about this document; the
 * holder finds it in their inbox and by e-mail and SMS. Nothing is shown to anyone else.
 */
export function WriteMessageButton({
  workflow,
  document,
}: {
  workflow: WorkflowDefinition;
  document: DocumentView | null;
}) {
  const { t } = useTranslation();
  const { bundle, session } = usePortal();
  const [opened, setOpened] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const sentRef = useRef<HTMLDivElement>(null);
  // How the open form closes (asking first when something was typed): Escape, the close
  // button and Cancel all go through it.
  const closeRef = useRef<(() => void) | null>(null);
  const inbox = bundle.workflows.find(
    (w): w is InboxWorkflow => w.inbox !== undefined && w.id !== workflow.id,
  );
  const action = inbox?.actions[WRITE];

  // The confirmation is where the user is taken once the dialog has closed.
  useEffect(() => {
    if (sent) sentRef.current?.focus();
  }, [sent]);

  if (!inbox || !action || !document) return null;
  if (!session.signedIn || !session.hasAnyRole(fullRoles(inbox, action.roles))) return null;
  // One's own document is no one else's to be written to about.
  if (document.owner === session.subject) return null;

  const number = document.number ?? t(`${workflow.document}._title`);
  return (
    <Stack gap="xs">
      <Group>
        <Button
          variant="light"
          onClick={() => {
            setSent(null);
            setOpened(true);
          }}
        >
          {t('inbox-message.write.button')}
        </Button>
      </Group>
      {sent && (
        <Alert
          ref={sentRef}
          tabIndex={-1}
          color="green"
          role="status"
          withCloseButton
          onClose={() => setSent(null)}
          closeButtonLabel={t('pages.inbox.write.close')}
        >
          {sent}
        </Alert>
      )}
      <Modal
        opened={opened}
        onClose={() => (closeRef.current ?? (() => setOpened(false)))()}
        title={t('inbox-message.write.title', { number })}
        size="lg"
        closeButtonProps={{ 'aria-label': t('pages.inbox.write.close') }}
        // Once sent, focus goes to the confirmation, not back to the button.
        returnFocus={!sent}
      >
        {opened && (
          <WriteMessageForm
            inbox={inbox}
            about={{ type: workflow.id, id: document.id }}
            to={document.ownerName}
            closeRef={closeRef}
            onClose={() => setOpened(false)}
            onSent={() => {
              setOpened(false);
              setSent(
                t(action.success ?? `success.${WRITE}`, {
                  defaultValue: t('documents.done', { action: t(`actions.${WRITE}`) }),
                }),
              );
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

interface Values {
  subject: string;
  body: string;
  note: string;
  attachment?: MediaReference;
}

const EMPTY: Values = { subject: '', body: '', note: '' };

/** The dialog's content, made afresh at each opening. */
function WriteMessageForm({
  inbox,
  about,
  to,
  closeRef,
  onClose,
  onSent,
}: {
  inbox: InboxWorkflow;
  about: { type: string; id: string };
  to: string | null;
  closeRef: RefObject<(() => void) | null>;
  onClose: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const { api, bundle, session } = usePortal();
  const language = useLanguage();
  const pointers = inbox.inbox;
  const backend = inbox.backend ?? 'evisa';
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const services = useMemo(() => documentServices(api, session, inbox), [api, session, inbox]);
  // The attachment is checked, before it is uploaded, against what the message's schema allows.
  const limits = useMemo(() => attachmentLimits(bundle, inbox), [bundle, inbox]);
  const ids = { subject: useId(), body: useId(), note: useId(), attachment: useId() };
  const idOf: Record<string, string> = {
    [pointers.subject]: ids.subject,
    [pointers.body]: ids.body,
    [pointers.note]: ids.note,
    [pointers.attachment]: ids.attachment,
  };
  const dirty =
    values.subject.trim() !== '' ||
    values.body.trim() !== '' ||
    values.note.trim() !== '' ||
    values.attachment !== undefined;

  /** A field's label and help, as the message's form names them. */
  const texts = (pointer: string) => {
    const path = pointer.replace(/^\//, '').replaceAll('/', '.');
    return {
      label: fieldLabel(bundle.translations, language, inbox.document, path),
      help: fieldHelp(bundle.translations, language, inbox.document, path),
    };
  };

  const change = (field: keyof Values, pointer: string) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[pointer]) setErrors(({ [pointer]: _shown, ...rest }) => rest);
  };

  const requestClose = () => {
    if (busy) return;
    if (dirty) setAsking(true);
    else onClose();
  };
  useEffect(() => {
    closeRef.current = requestClose;
    return () => {
      closeRef.current = null;
    };
  });

  /** Shows the problems on their fields (the others above the form) and focuses the first. */
  const show = (problems: FieldError[], fallback?: string) => {
    const onFields: Record<string, string> = {};
    const elsewhere: string[] = [];
    for (const problem of problems) {
      if (idOf[problem.path] && !onFields[problem.path]) onFields[problem.path] = problem.message;
      else if (!idOf[problem.path]) elsewhere.push(problem.message);
    }
    if (problems.length === 0 && fallback) elsewhere.push(fallback);
    setErrors(onFields);
    setFormError(elsewhere);
    const first = [pointers.subject, pointers.body, pointers.note, pointers.attachment].find(
      (pointer) => onFields[pointer],
    );
    if (first) globalThis.document.getElementById(idOf[first]!)?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const required = t('validation.required');
    const missing: FieldError[] = [];
    if (!values.subject.trim())
      missing.push({ path: pointers.subject, rule: 'required', message: required });
    if (!values.body.trim())
      missing.push({ path: pointers.body, rule: 'required', message: required });
    if (missing.length > 0) return show(missing);

    const data: Record<string, unknown> = {};
    setAt(data, pointers.subject, values.subject.trim());
    setAt(data, pointers.body, values.body);
    if (values.note.trim()) setAt(data, pointers.note, values.note.trim());
    if (values.attachment) setAt(data, pointers.attachment, values.attachment);
    setAt(data, pointers.about, about);
    setBusy(true);
    setFormError([]);
    const [error] = await api.post<DocumentView>(backend, `/${inbox.id}`, {
      action: WRITE,
      data,
    });
    setBusy(false);
    if (error) return show(error.fields ?? [], error.message);
    onSent();
  };

  const subject = texts(pointers.subject);
  const body = texts(pointers.body);
  const note = texts(pointers.note);
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack gap="sm">
        {asking && (
          // Named by its title (the question): Mantine's Alert labels itself by its title.
          <Alert color="yellow" role="alertdialog" title={t('pages.inbox.write.discardQuestion')}>
            <Group mt="sm">
              <Button color="red" onClick={onClose}>
                {t('pages.inbox.write.discard')}
              </Button>
              <Button variant="default" onClick={() => setAsking(false)} autoFocus>
                {t('pages.inbox.write.keep')}
              </Button>
            </Group>
          </Alert>
        )}
        {to && <Text fw={500}>{t('inbox-message.write.to', { name: to })}</Text>}
        {formError.length > 0 && (
          <Alert color="red" role="alert">
            {formError.map((message) => (
              <Text key={message} size="sm">
                {message}
              </Text>
            ))}
          </Alert>
        )}
        <TextInput
          id={ids.subject}
          label={subject.label}
          description={subject.help}
          required
          value={values.subject}
          error={errors[pointers.subject]}
          onChange={(event) => change('subject', pointers.subject)(event.currentTarget.value)}
          data-autofocus
        />
        <Textarea
          id={ids.body}
          label={body.label}
          description={body.help}
          required
          autosize
          minRows={5}
          maxRows={14}
          value={values.body}
          error={errors[pointers.body]}
          onChange={(event) => change('body', pointers.body)(event.currentTarget.value)}
        />
        <Textarea
          id={ids.note}
          label={note.label}
          description={note.help}
          autosize
          minRows={2}
          value={values.note}
          error={errors[pointers.note]}
          onChange={(event) => change('note', pointers.note)(event.currentTarget.value)}
        />
        <FileInput
          id={ids.attachment}
          {...texts(pointers.attachment)}
          {...limits}
          value={values.attachment}
          error={errors[pointers.attachment]}
          texts={bundle.translations}
          language={language}
          services={services}
          onChange={(attachment) => {
            setValues((current) => ({ ...current, attachment }));
            setErrors(({ [pointers.attachment]: _shown, ...rest }) => rest);
          }}
        />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={requestClose} disabled={busy}>
            {t('inbox-message.write.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('inbox-message.write.send')}
          </Button>
        </Group>
        {busy && (
          <Text size="sm" role="status">
            {t('messages.processing')}
          </Text>
        )}
      </Stack>
    </form>
  );
}

/** The types and size an attachment may have, as the message's schema says. */
function attachmentLimits(
  bundle: { schemas: ReadonlyArray<{ id: string; schema: unknown }> },
  inbox: InboxWorkflow,
): { accept?: string; maxSize?: number } {
  const entity = bundle.schemas.find((schema) => schema.id === inbox.document);
  const at = inbox.inbox.attachment
    .split('/')
    .slice(1)
    .map((name) => `/properties/${name}`)
    .join('');
  const types = resolvePointer(entity?.schema, `${at}/properties/type/enum`);
  const maximum = resolvePointer(entity?.schema, `${at}/properties/size/maximum`);
  return {
    accept: Array.isArray(types) ? types.filter((v) => typeof v === 'string').join(',') : undefined,
    maxSize: typeof maximum === 'number' ? maximum : undefined,
  };
}
