import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { ApiError, FieldError } from '../../core/api/errors';
import type { DocumentView } from '../../core/documents/types';
import {
  fullRoles,
  type ScreenMode,
  type WorkflowDefinition,
  type WorkflowScreen,
} from '../../core/documents/workflow';
import { translate } from '../../core/i18n/translate';
import { DocumentInformation, DocumentTimeline, HistoryTable, VersionList } from '../../engine';
import {
  DocumentForm,
  entityValidatorsUrl,
  loadEntityValidators,
  useUnsavedChanges,
  type DocumentData,
  type DocumentFormHandle,
  type EntityValidators,
  withRequiredFields,
} from '../../engine/form';
import { usePortal } from '../context';
import { documentServices } from '../documentServices';
import { useLanguage } from '../useLanguage';
import { NotFoundPage } from './MessagePage';
import { DocumentNextSteps } from './DocumentNextSteps';
import { downloadFromApi } from '../download';
import type { Session } from '../session';
import { useDerivedValues } from '../useDerivedValues';

/** Modes in which the applicant's sections are editable unless the screen says otherwise. */
const EDITING_MODES: ReadonlySet<ScreenMode> = new Set<ScreenMode>([
  'new',
  'edit',
  'amendment',
  'reply-to-query',
  'drop',
  'creation',
  'change',
  'modification',
]);
const CREATING_MODES: ReadonlySet<ScreenMode> = new Set<ScreenMode>(['new', 'drop', 'creation']);

/**
 * One screen of a workflow (new, edit, view, version, verification...): the document in the
 * screen's mode, the actions the machine allows now for this user as buttons, and the document's
 * information, versions and history. Everything comes from the workflow and entity definitions.
 */
export function DocumentScreenPage({
  workflow,
  screen,
}: {
  workflow: WorkflowDefinition;
  screen: WorkflowScreen;
}) {
  const { id, ver } = useParams();
  const { bundle, api, session } = usePortal();
  const language = useLanguage();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const entity = bundle.schemas.find((s) => s.id === workflow.document);
  const creating = CREATING_MODES.has(screen.mode);
  const backend = workflow.backend ?? 'evisa';
  const formRef = useRef<DocumentFormHandle>(null);
  const [document, setDocument] = useState<DocumentView | null>(null);
  const [data, setData] = useState<DocumentData>({});
  const [validators, setValidators] = useState<EntityValidators | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  // A success message carried over from the screen that just saved the document.
  const location = useLocation();
  const [success, setSuccess] = useState<string | null>(
    () => (location.state as { success?: string } | null)?.success ?? null,
  );
  const [notes, setNotes] = useState('');
  const [assignee, setAssignee] = useState('');
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);
  const services = useMemo(() => documentServices(api, session), [api, session]);
  const unsaved = useUnsavedChanges(dirty, 'document', bundle.translations, language);
  useDerivedValues(
    api,
    workflow,
    document?.id,
    data,
    setData,
    screen.mode !== 'version' && (screen.editable !== undefined || EDITING_MODES.has(screen.mode)),
  );

  useEffect(() => {
    if (!entity) return;
    loadEntityValidators(entityValidatorsUrl(entity.id)).then(setValidators, () =>
      setLoadError(t('messages.unableToLoad')),
    );
  }, [entity, t]);

  useEffect(() => {
    if (creating || !id) return;
    const path =
      screen.mode === 'version' ? `/${workflow.id}/${id}/versions/${ver}` : `/${workflow.id}/${id}`;
    void api.get<DocumentView>(backend, path).then(([error, loaded]) => {
      if (error) return setLoadError(error.status === 404 ? t('pages.notFound') : error.message);
      setDocument(loaded);
      setData(loaded.data);
    });
  }, [api, backend, creating, id, ver, screen.mode, workflow.id, t]);

  const actions = useMemo(() => {
    const names = screen.actions ?? [];
    return names.filter((name) => {
      const action = workflow.actions[name];
      if (!action || !session.hasAnyRole(fullRoles(workflow, action.roles))) return false;
      return creating ? true : (document?.allowedActions.includes(name) ?? false);
    });
  }, [screen.actions, workflow, session, creating, document]);
  // What an offered action requires (the place of issue when issuing) shows as required here.
  const formDefinition = useMemo(
    () =>
      entity &&
      withRequiredFields(
        entity,
        actions.flatMap((name) => workflow.actions[name]?.requires ?? []),
      ),
    [entity, actions, workflow],
  );
  const needsNotes = actions.some((name) => workflow.actions[name]?.notes);
  const needsAssignee = actions.some((name) => workflow.actions[name]?.payload === 'assignee');
  const readOnly =
    screen.mode === 'version' || (screen.editable === undefined && !EDITING_MODES.has(screen.mode));
  const editable =
    screen.editable === undefined
      ? (entity?.sections.filter((s) => !s.officer).map((s) => s.id) ?? [])
      : screen.editable;

  const run = useCallback(
    async (name: string) => {
      const action = workflow.actions[name];
      if (!action) return;
      setFailure(null);
      setSuccess(null);
      if (action.validate && (formRef.current?.validateAll().length ?? 0) > 0) {
        setFailure({ status: 400, code: 'VALIDATION_FAILED', message: t('documents.fixErrors') });
        return;
      }
      const payload = {
        ...(action.payload === 'data' ? { data } : {}),
        ...(notes.trim() ? { notes: notes.trim() } : {}),
        ...(action.payload === 'assignee' ? { assignee: assignee.trim() } : {}),
      };
      setBusy(true);
      const [error, result] = creating
        ? await api.post<DocumentView>(backend, `/${workflow.id}`, { action: name, ...payload })
        : await api.post<DocumentView>(backend, `/${workflow.id}/${document?.id}/actions/${name}`, {
            version: document?.version,
            ...payload,
          });
      setBusy(false);
      if (error) {
        setFailure(error);
        setFieldErrors(error.fields ?? []);
        return;
      }
      setFieldErrors([]);
      setNotes('');
      setDirty(false);
      formRef.current?.markClean();
      const message = t(action.success ?? `success.${name}`, {
        defaultValue: t('documents.done', { action: t(`actions.${name}`) }),
      });
      setSuccess(message);
      if (creating) {
        const edit = workflow.screens.find(
          (s) => s.mode === 'edit' && session.hasAnyRole(fullRoles(workflow, s.roles)),
        );
        const view = workflow.screens.find((s) => s.mode === 'view');
        const next = edit ?? view;
        // The document is saved: going on to its screen loses nothing, so the guard is not asked.
        if (next) {
          const target = `${workflow.prefix}${next.path.replace(':id', result.id)}`;
          unsaved.leave(() => navigate(target, { replace: true, state: { success: message } }));
        }
        return;
      }
      setDocument(result);
      setData(result.data);
    },
    [
      workflow,
      backend,
      creating,
      data,
      notes,
      assignee,
      api,
      document,
      navigate,
      session,
      t,
      unsaved,
    ],
  );

  if (!entity) return <NotFoundPage />;
  if (loadError) {
    return (
      <Alert color="red" role="alert">
        {loadError}
      </Alert>
    );
  }
  if (!validators || (!creating && !document)) {
    return (
      <Center p="xl">
        <Loader aria-label={t('messages.loading')} role="status" />
      </Center>
    );
  }
  const heading = translate(bundle.translations, language, `${entity.id}._title`);
  const versionScreen = workflow.screens.find((s) => s.mode === 'version');
  const viewScreen = workflow.screens.find((s) => s.mode === 'view');
  return (
    <Stack gap="md">
      {unsaved.modal}
      <Group justify="space-between">
        <Title order={2}>
          {heading === `${entity.id}._title` ? entity.id : heading}
          {document?.number ? ` ${document.number}` : ''}
        </Title>
        {document && (
          <Badge size="lg">
            {t(`statuses.${document.status}`, { defaultValue: document.status })}
          </Badge>
        )}
      </Group>
      {screen.mode === 'version' && document && (
        <Alert color="blue" role="note">
          {t('documents.readOnlyVersion', { version: document.version })}{' '}
          {viewScreen && (
            <Link to={`${workflow.prefix}${viewScreen.path.replace(':id', document.id)}`}>
              {t('documents.backToDocument')}
            </Link>
          )}
        </Alert>
      )}
      {success && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          onClose={() => setSuccess(null)}
          closeButtonLabel={t('catalog.cancel')}
        >
          {success}
        </Alert>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure.message}
        </Alert>
      )}
      <DocumentForm
        ref={formRef}
        definition={formDefinition ?? entity}
        texts={bundle.translations}
        language={language}
        value={data}
        onChange={setData}
        validators={validators}
        readOnly={readOnly}
        editable={editable}
        hidden={screen.hidden}
        initialSection={firstEditable(entity.sections, editable, readOnly, screen.hidden)}
        services={services}
        extraErrors={fieldErrors}
        onDirtyChange={setDirty}
      />
      {(needsNotes || needsAssignee) && (
        <Group align="flex-end">
          {needsAssignee && (
            <TextInput
              label={t('documents.assigneeLabel')}
              value={assignee}
              onChange={(e) => setAssignee(e.currentTarget.value)}
            />
          )}
          {needsNotes && (
            <Textarea
              label={t('documents.notes')}
              value={notes}
              onChange={(e) => setNotes(e.currentTarget.value)}
              autosize
              minRows={2}
              w={480}
            />
          )}
        </Group>
      )}
      {actions.length > 0 && (
        <Group role="group" aria-label={t('documents.actionsLabel')}>
          {actions.map((name) => (
            <Button key={name} loading={busy} onClick={() => void run(name)}>
              {t(`actions.${name}`, { defaultValue: name })}
            </Button>
          ))}
        </Group>
      )}
      {document && screen.mode !== 'version' && (
        <DocumentNextSteps workflow={workflow} screen={screen} document={document} />
      )}
      {document && certificateOffered(workflow, document, session) && (
        <Group>
          <Button
            variant="default"
            onClick={() =>
              void downloadFromApi(
                session,
                `/${backend}/${workflow.id}/${document.id}/certificate`,
                `${document.number ?? document.id}.pdf`,
                language,
              ).then((done) => {
                if (!done)
                  setFailure({
                    status: 0,
                    code: 'DOWNLOAD_FAILED',
                    message: t('messages.unableToFetch'),
                  });
              })
            }
          >
            {t('certificate.download')}
          </Button>
        </Group>
      )}
      {busy && (
        <Alert color="blue" role="status">
          {t('messages.processing')}
        </Alert>
      )}
      {document && screen.mode !== 'version' && (
        <>
          <DocumentInformation document={document} />
          <VersionList
            api={api}
            backend={backend}
            type={workflow.id}
            id={document.id}
            current={document.version}
            hrefOf={(v) =>
              versionScreen
                ? `#${workflow.prefix}${versionScreen.path.replace(':id', document.id).replace(':ver', String(v))}`
                : '#'
            }
          />
          {workflow.timeline && (
            <DocumentTimeline
              api={api}
              backend={backend}
              type={workflow.id}
              id={document.id}
              current={document.version}
              estimatedDays={estimatedDays(workflow)}
            />
          )}
          <HistoryTable
            api={api}
            backend={backend}
            type={workflow.id}
            id={document.id}
            current={document.version}
          />
        </>
      )}
    </Stack>
  );
}

/** The section a form opens on: the first one the user may fill in, else the first. */
function firstEditable(
  sections: ReadonlyArray<{ id: string }>,
  editable: readonly string[] | 'all',
  readOnly: boolean,
  hidden: readonly string[] | undefined,
): string | undefined {
  if (readOnly) return undefined;
  return sections.find(
    (s) => !hidden?.includes(s.id) && (editable === 'all' || editable.includes(s.id)),
  )?.id;
}

/** The certificate (e-visa) is printable now, and this user may print it. */
function certificateOffered(
  workflow: WorkflowDefinition,
  document: DocumentView,
  session: Session,
): boolean {
  const certificate = workflow.certificate;
  if (!certificate || !certificate.statuses.includes(document.status)) return false;
  return (
    document.owner === session.subject || session.hasAnyRole(fullRoles(workflow, certificate.roles))
  );
}

/** Usual days per status, from the machine's `meta.estimatedDays`. */
function estimatedDays(workflow: WorkflowDefinition): Record<string, number> {
  const days: Record<string, number> = {};
  for (const [status, state] of Object.entries(workflow.machine.states)) {
    const meta = (state as { meta?: { estimatedDays?: number } }).meta;
    if (typeof meta?.estimatedDays === 'number') days[status] = meta.estimatedDays;
  }
  return days;
}
