import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '../../../core/api/errors';
import type { EntityDefinition, JsonSchema } from '../../../core/definitions/types';
import type { DocumentView } from '../../../core/documents/types';
import {
  fullRoles,
  type WorkflowDefinition,
  type WorkflowInbox,
} from '../../../core/documents/workflow';
import { resolvePointer, setAt } from '../../../core/rules/registry';
import { fieldsOf, SchemaFields } from '../../../engine/form/SchemaFields';
import { usePortal } from '../../context';
import { documentServices } from '../../documentServices';
import { useLanguage } from '../../useLanguage';
import { successKey, successText } from './actionButton';

/** The inbox's action by which an officer writes to the holder of a document. */
const WRITE = 'write';

/** An inbox workflow, with its inbox declaration known to be there. */
type InboxWorkflow = WorkflowDefinition & { inbox: WorkflowInbox };

/**
 * "Write to the holder" on a document's screen, for an officer who may write inbox messages and
 * is not the holder: a dialog that sends a message about this document.
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
  // How the open form closes (asking first when something was typed).
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
              setSent(successText(t, successKey(WRITE, action), WRITE));
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

/** The dialog's content, made afresh at each opening: the message's fields, from its schema. */
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
  const backend = inbox.backend ?? 'evisa';
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const services = useMemo(() => documentServices(api, session, inbox), [api, session, inbox]);
  const form = useMemo(() => messageForm(bundle, inbox), [bundle, inbox]);
  const idPrefix = useId();
  const idOf = (name: string) => `${idPrefix}${name}`;
  const filled = (value: unknown) => (typeof value === 'string' ? value.trim() !== '' : !!value);
  const dirty = Object.values(values).some(filled);
  /** The field a problem's path names: `/message/subject` -> subject. */
  const fieldAt = (path: string) =>
    path.startsWith(`${form.pointer}/`) && form.fields.includes(path.slice(form.pointer.length + 1))
      ? path.slice(form.pointer.length + 1)
      : undefined;

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
      const field = fieldAt(problem.path);
      if (field) onFields[field] ??= problem.message;
      else elsewhere.push(problem.message);
    }
    if (problems.length === 0 && fallback) elsewhere.push(fallback);
    setErrors(onFields);
    setFormError(elsewhere);
    const first = form.fields.find((field) => onFields[field]);
    if (first) globalThis.document.getElementById(idOf(first))?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const missing: FieldError[] = form.required
      .filter((field) => !filled(values[field]))
      .map((field) => ({
        path: `${form.pointer}/${field}`,
        rule: 'required',
        message: t('validation.required'),
      }));
    if (missing.length > 0) return show(missing);

    // Texts are sent trimmed, and a field left empty not at all.
    const data: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(values))
      if (filled(value))
        setAt(data, `${form.pointer}/${field}`, typeof value === 'string' ? value.trim() : value);
    setAt(data, inbox.inbox.about, about);
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
        <SchemaFields
          entityId={inbox.document}
          schema={form.schema}
          ui={form.ui}
          path={form.pointer.slice(1).replaceAll('/', '.')}
          values={values}
          errors={errors}
          idOf={idOf}
          texts={bundle.translations}
          language={language}
          services={services}
          onChange={(field, value) => {
            setValues((current) => ({ ...current, [field]: value }));
            if (errors[field]) setErrors(({ [field]: _shown, ...rest }) => rest);
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

/** The message's form: the object holding the inbox's subject, its fields and required ones. */
function messageForm(bundle: { schemas: readonly EntityDefinition[] }, inbox: InboxWorkflow) {
  const entity = bundle.schemas.find((schema) => schema.id === inbox.document);
  const pointer = inbox.inbox.subject.slice(0, inbox.inbox.subject.lastIndexOf('/'));
  const at = pointer.replace(/\/([^/]+)/g, '/properties/$1');
  const schema = (resolvePointer(entity?.schema, at) ?? {}) as JsonSchema;
  const ui = resolvePointer(entity?.uiSchema, pointer) as JsonSchema | undefined;
  return {
    pointer,
    schema,
    ui,
    fields: fieldsOf(schema, ui),
    required: Array.isArray(schema.required) ? (schema.required as string[]) : [],
  };
}
