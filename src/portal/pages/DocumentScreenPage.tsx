import { documentParam, documentRoute } from '../../core/documents/document-route';
import { resolvePointer, setAt } from '../../core/rules/registry';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { ApiError, FieldError } from '../../core/api/errors';
import type { DocumentView } from '../../core/documents/types';
import {
  fullRoles,
  type WorkflowDefinition,
  type WorkflowScreen,
} from '../../core/documents/workflow';
import { translate } from '../../core/i18n/translate';
import {
  CaseWorkPanels,
  DocumentInformation,
  DocumentTimeline,
  HistoryTable,
  LatestActionNotes,
  ReferringDocuments,
  RenewalButton,
  ScreeningHits,
  StatusBadge,
  VersionList,
} from '../../engine';
import {
  DocumentForm,
  entityValidators,
  useUnsavedChanges,
  type DocumentData,
  type DocumentFormHandle,
  withRequiredFields,
} from '../../engine/form';
import { usePortal } from '../context';
import { refreshMenuBadges } from '../PortalMenu';
import { documentServices } from '../documentServices';
import { useLanguage } from '../useLanguage';
import { NotFoundPage } from './MessagePage';
import { PendingTimers } from '../../engine/documents/PendingTimers';
import { PayableDocumentsPanel, PayersPanel } from '../../engine/documents/PayerConsent';
import { itemsEditable, namedNumbers, withNumber } from './document/linked-numbers';
import { DocumentNextSteps } from './DocumentNextSteps';
import type { Session } from '../session';
import { paramsInWords, useDerivedValues } from '../useDerivedValues';
import { useProfilePrefill } from '../useProfilePrefill';
import { CertificateDownloads } from './document/CertificateDownloads';
import { RefundsPanel } from './document/RefundsPanel';
import { AuditPanel } from './document/AuditPanel';
import { AUDIT_ROLES } from '../../core/definitions/audit-roles';
import { ShareCodesPanel } from '../../engine/documents/ShareCodes';
import { sharesCodes } from '../../engine/documents/share-code-types';
import { PersonDecisions } from './document/PersonDecisions';
import {
  decisionProblems,
  decisionsOf,
  type PersonDecision,
} from '../../core/documents/person-decisions';
import { actionButtonLook, successKey, successText } from './document/actionButton';
import { ConfirmActionModal } from './document/ConfirmActionModal';
import { opensRefund } from '../../core/payments/refunds';
import { ConfirmationPanel, type Confirmation } from './document/ConfirmationPanel';
import { focusField } from './document/ErrorSummary';
import { ErrorSummary, type SummaryEntry } from '../../engine/ErrorSummary';
import { WriteMessageButton } from './document/WriteMessageDialog';
import { AssigneeSelect } from './document/AssigneeSelect';
import { missingRequiredFields, useAnsweredErrors } from './document/answeredErrors';
import { requiredBy } from '../../core/documents/requires';
import { errorFieldLabel } from '../../engine/form/errorLabel';
import { ModulePanels } from '../../engine/module';
import { CREATING_MODES, EDITING_MODES } from '../screenModes';
import { audienceOf } from './document/audience';
import { editableSections, openingSection } from './document/opening-section';
import { backendOf, REFERENCE_POINTER } from '../../core/documents/conventions';
import { ErrorAlert } from '../../engine/ErrorAlert';
import { PageLoading } from '../lazyPage';
import { requestRole } from '../../core/documents/requests';
import {
  RequestItemsEditor,
  requestItemsOf,
  type DraftRequestItem,
} from '../../engine/documents/RequestItemsEditor';
import {
  RequestRoundPanel,
  requestAnswersOf,
  type DraftAnswer,
} from '../../engine/documents/RequestRoundPanel';
import { DelegateNotice, DelegatesPanel } from '../../engine/documents/Delegation';
import { delegationOf, viewDelegation, withoutHolderOnly } from '../../engine/documents/delegation';

/** One screen of a workflow, all from the workflow and entity definitions. */
export function DocumentScreenPage({
  workflow,
  screen,
}: {
  workflow: WorkflowDefinition;
  screen: WorkflowScreen;
}) {
  const params = useParams();
  // The document the route names: by id, or by its key (`/view/:loginIdentifier`).
  const id = params[documentParam(screen.path) ?? 'id'];
  const { ver } = params;
  const { bundle, api, session } = usePortal();
  const language = useLanguage();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const entity = bundle.schemas.find((s) => s.id === workflow.document);
  const creating = CREATING_MODES.has(screen.mode);
  const backend = backendOf(workflow);
  const formRef = useRef<DocumentFormHandle>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const [document, setDocument] = useState<DocumentView | null>(null);
  // A new document starts with what the screen takes from the session.
  const [data, setData] = useState<DocumentData>(() =>
    creating && screen.prefill ? prefilled(screen.prefill, session) : {},
  );
  // And, once read, what it takes from the person's profile (an invoice payer's address).
  useProfilePrefill(api, bundle, session, creating ? screen.prefill : undefined, setData);
  // Fetched section by section, so the page never waits for the whole validator.
  const validators = useMemo(() => entity && entityValidators(entity.id), [entity]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  // What the screen that just acted hands over: a success message or a confirmation.
  const location = useLocation();
  const carried = location.state as { success?: string; confirmation?: Confirmation } | null;
  const [success, setSuccess] = useState<string | null>(() => carried?.success ?? null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(
    () => carried?.confirmation ?? null,
  );
  const [notes, setNotes] = useState('');
  // Requests for information: the items a query asks for, the answers a reply gives.
  const [requestItems, setRequestItems] = useState<DraftRequestItem[]>([]);
  const [answers, setAnswers] = useState<Record<string, DraftAnswer>>({});
  const [assignee, setAssignee] = useState('');
  const [owner, setOwner] = useState('');
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  // The decision per person a deciding action takes (`persons`), edited beside the form.
  const [personDecisions, setPersonDecisions] = useState<PersonDecision[]>([]);
  const services = useMemo(
    () => documentServices(api, session, workflow),
    [api, session, workflow],
  );
  const unsaved = useUnsavedChanges(dirty, 'document', bundle.translations, language);
  // Read without depending on it: a language switch must not reload over what is typed.
  const notFound = useEffectEvent(() => t('pages.notFound'));

  useEffect(() => {
    if (creating || !id) return;
    const path =
      screen.mode === 'version' ? `/${workflow.id}/${id}/versions/${ver}` : `/${workflow.id}/${id}`;
    const fire = screen.mode === 'version' ? undefined : screen.fire;
    void api.get<DocumentView>(backend, path).then(async ([error, loaded]) => {
      if (error) return setLoadError(error.status === 404 ? notFound() : error.message);
      let shown = loaded;
      // The action the screen takes as it opens (a message read by its holder), when allowed.
      if (fire && loaded.allowedActions.includes(fire)) {
        const [fireError, fired] = await api.post<DocumentView>(
          backend,
          `/${workflow.id}/${loaded.id}/actions/${fire}`,
          { version: loaded.version },
        );
        if (!fireError) {
          shown = fired;
          refreshMenuBadges();
        }
      }
      setDocument(shown);
      setData(shown.data);
      if (workflow.persons) setPersonDecisions(decisionsOf(workflow.persons, shown.data));
    });
  }, [api, backend, creating, id, ver, screen.mode, screen.fire, workflow.id, workflow.persons]);

  const actions = useMemo(
    () => offeredActions(workflow, screen, session, creating ? 'creating' : document),
    [screen, workflow, session, creating, document],
  );
  // What an offered action requires (the place of issue when issuing) shows as required here.
  const formDefinition = useMemo(
    () =>
      entity &&
      withRequiredFields(
        entity,
        actions.flatMap((name) => {
          const action = workflow.actions[name];
          return action ? requiredBy(action) : [];
        }),
      ),
    [entity, actions, workflow],
  );
  // A screen offering an action that decides each person shows a decision row per person.
  const decidingPersons = actions.some((name) => workflow.persons?.actions.includes(name));
  const assigning = actions.find((name) => workflow.actions[name]?.payload === 'assignee');
  // Handing an assigned document to someone else says why (`reassignReason`), in the notes.
  const reassigning = Boolean(
    assigning && workflow.actions[assigning]?.reassignReason && document?.assignee,
  );
  const needsNotes = reassigning || actions.some((name) => workflow.actions[name]?.notes);
  const notesRequiredFor = actions
    .filter((name) => workflow.actions[name]?.notes === 'required')
    .map((name) => t(`actions.${name}`, { defaultValue: name }));
  const opensRequests = actions.some((name) => requestRole(workflow, name) === 'open');
  const round = screen.mode === 'version' ? undefined : document?.requests;
  const answersRequests =
    round?.open === true &&
    actions.some((name) => ['answer', 'save'].includes(requestRole(workflow, name) ?? ''));
  // Made for someone else (`onBehalf`): whose it will be, required when it is being created.
  const asksOwner = actions.some((name) => workflow.actions[name]?.onBehalf);
  // Read-only once nothing here would save the data (a submitted application at /edit/...).
  const savesData = actions.some((name) => workflow.actions[name]?.payload === 'data');
  const readOnly =
    screen.mode === 'version' ||
    (screen.editable === undefined && !EDITING_MODES.has(screen.mode)) ||
    (!creating && document !== null && !savesData);
  const derivedProblems = useDerivedValues(api, workflow, document?.id, data, setData, !readOnly);
  // The server's rules on the watched values, beside the last refusal's (once each).
  const formErrors = useMemo((): FieldError[] => {
    const shown = new Set(fieldErrors.map((e) => `${e.path}:${e.rule}`));
    const derived = derivedProblems
      .filter((p) => !shown.has(`${p.path}:${p.rule}`))
      .map((p) => ({
        path: p.path,
        rule: p.rule,
        message: t(p.message, paramsInWords(p.params, t)),
      }));
    return derived.length ? [...fieldErrors, ...derived] : fieldErrors;
  }, [derivedProblems, fieldErrors, t]);
  // Set when the reader acts for the document's holder (a delegate): the holder's own sections
  // (`delegation.holderOnly`) stay read-only to them.
  const acting = viewDelegation(document);
  const editable = withoutHolderOnly(
    editableSections(entity?.sections ?? [], screen),
    entity?.sections.map((s) => s.id) ?? [],
    acting?.holderOnly ?? [],
  );
  const hidden = useMemo(() => {
    // The service's workings are for those who see every document of the type.
    const officer = session.hasAnyRole(fullRoles(workflow, workflow.seeAll));
    const internal = officer
      ? []
      : (entity?.sections.filter((s) => s.internal).map((s) => s.id) ?? []);
    // The decisions per person show in their own rows (PersonDecisions), not as a list.
    const decisions = workflow.persons?.decisions.split('/')[1];
    return [...(screen.hidden ?? []), ...internal, ...(decisions ? [decisions] : [])];
  }, [entity, screen.hidden, session, workflow]);

  // Given routes, or routes the data holds; one whose data holds no route is left out.
  const links = (screen.links ?? []).flatMap((link) => {
    const to = 'to' in link ? link.to : resolvePointer(data, link.pointer);
    return typeof to === 'string' && to.startsWith('/') ? [{ label: link.label, to }] : [];
  });
  // A field's marks clear as it changes; the screen's own fields' too.
  const screenValues = { '/notes': notes, '/assignee': assignee, '/owner': owner };
  useAnsweredErrors(data, screenValues, fieldErrors, setFieldErrors, setFailure);
  const errorAt = (path: string) => fieldErrors.find((e) => e.path === path)?.message;

  /** The error summary's entries: each field in error, named, opening its section and field. */
  const summaryEntries = useMemo((): SummaryEntry[] => {
    if (!entity) return [];
    return fieldErrors.map((error) => {
      const own = SCREEN_FIELDS[error.path];
      const label = own
        ? t(own.label)
        : errorFieldLabel(entity, bundle.translations, language, data, error.path);
      return {
        key: `${error.path}:${error.rule}`,
        text: error.path
          ? t('documents.errorEntry', { label, message: error.message })
          : error.message,
        onOpen: () => {
          if (own) return globalThis.document.getElementById(own.id)?.focus();
          const section = error.path.replace(/^\//, '').split('/')[0];
          if (section) formRef.current?.goToSection(section);
          focusField(error.path);
        },
      };
    });
  }, [entity, fieldErrors, bundle.translations, language, t, data]);

  const run = async (name: string) => {
    const action = workflow.actions[name];
    if (!action) return;
    setFailure(null);
    setSuccess(null);
    setConfirmation(null);
    const problems: FieldError[] = [];
    if (action.validate) problems.push(...(formRef.current?.validateAll() ?? []));
    // What the action requires is asked for here, as the server would (no round trip).
    let given = formRef.current?.currentValue() ?? data;
    const persons = workflow.persons?.actions.includes(name) ? workflow.persons : undefined;
    if (persons) {
      given = structuredClone(given);
      setAt(given, persons.decisions, personDecisions);
      // The server checks the same: a decision for each person, a reason for each refusal.
      for (const problem of decisionProblems(persons, given))
        problems.push({
          path: problem.path,
          rule: problem.rule,
          message: t(`validation.${problem.rule}`, problem.params),
        });
    }
    const missing = missingRequiredFields(action, given, t('validation.required'));
    problems.push(...missing.filter((m) => !problems.some((p) => p.path === m.path)));
    if (action.onBehalf && creating && !owner.trim())
      problems.push({ path: '/owner', rule: 'required', message: t('validation.required') });
    if (action.notes === 'required' && !notes.trim())
      problems.push({ path: '/notes', rule: 'required', message: t('documents.notesRequired') });
    const handedOn = assignee.trim() !== '' && assignee.trim() !== document?.assignee;
    if (action.reassignReason && document?.assignee && handedOn && !notes.trim())
      problems.push({
        path: '/notes',
        rule: 'reassignReason',
        message: t('assignment.reasonRequired'),
      });
    if (problems.length > 0) {
      setFieldErrors(problems);
      setFailure({ status: 400, code: 'VALIDATION_FAILED', message: t('documents.fixErrors') });
      return;
    }
    const payload = {
      ...(action.payload === 'data' ? { data: given } : {}),
      ...(notes.trim() ? { notes: notes.trim() } : {}),
      ...(action.payload === 'assignee' ? { assignee: assignee.trim() } : {}),
      ...(action.onBehalf && owner.trim() ? { owner: owner.trim() } : {}),
      ...(requestRole(workflow, name) === 'open' && requestItems.length
        ? { requests: requestItemsOf(requestItems) }
        : {}),
      ...(answersRequests && requestRole(workflow, name) && Object.keys(answers).length
        ? { answers: requestAnswersOf(answers) }
        : {}),
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
    setRequestItems([]);
    setAnswers({});
    setDirty(false);
    formRef.current?.markClean();
    // What the menu counts (unread messages) may have changed with the document.
    refreshMenuBadges();
    const done = { key: successKey(name, action), action: name };
    const message = successText(t, done.key, name);
    const next = nextScreen(workflow, screen, session, creating, document, result, action.stay);
    if (next) {
      const target = documentRoute(workflow, next.screen.path, result);
      const state = next.confirm
        ? {
            confirmation: {
              success: done,
              number: result.number,
              status: result.status,
              audience: audienceOf(result, session),
              ...grantedReference(workflow, result),
            },
          }
        : { success: message };
      // The document is saved: going on to its screen loses nothing, so the guard is not asked.
      unsaved.leave(() => navigate(target, { replace: creating, state }));
      return;
    }
    setSuccess(message);
    setDocument(result);
    setData(result.data);
    // The message is where the user looks: at the top of the page.
    window.scrollTo?.({ top: 0 });
    topRef.current?.focus({ preventScroll: true });
  };

  if (!entity) return <NotFoundPage />;
  if (loadError) return <ErrorAlert>{loadError}</ErrorAlert>;
  if (!validators || (!creating && !document)) return <PageLoading />;
  const heading = translate(bundle.translations, language, `${entity.id}._title`);
  const versionScreen = workflow.screens.find((s) => s.mode === 'version');
  const viewScreen = workflow.screens.find((s) => s.mode === 'view');
  const chrome = screen.chrome !== false;
  const payerLinks = workflow.links;
  // The document as it stands now (not a past version): its panels, steps and history.
  const live = screen.mode === 'version' ? null : document;
  const of = live && {
    api,
    backend,
    type: workflow.id,
    id: live.id,
    current: live.version,
  };
  return (
    <Stack gap="md">
      {unsaved.modal}
      <ConfirmActionModal
        action={confirming}
        entity={entity.id}
        refund={
          confirming && document && opensRefund(workflow, confirming)
            ? { type: workflow.id, id: document.id }
            : undefined
        }
        onClose={() => setConfirming(null)}
        onConfirm={(name) => {
          setConfirming(null);
          void run(name);
        }}
      />
      {confirmation && <ConfirmationPanel confirmation={confirmation} entity={entity.id} />}
      <Group justify="space-between">
        <Title order={confirmation ? 3 : 2}>
          {heading === `${entity.id}._title` ? entity.id : heading}
          {chrome && document?.number ? ` ${document.number}` : ''}
        </Title>
        {chrome && document && <StatusBadge status={document.status} size="lg" />}
      </Group>
      {chrome && document && <PendingTimers document={document} />}
      {acting && <DelegateNotice workflow={workflow} delegation={acting} />}
      {screen.mode === 'version' && document && (
        <Alert color="blue" role="note">
          {t('documents.readOnlyVersion', { version: document.version })}{' '}
          {viewScreen && (
            <Link to={documentRoute(workflow, viewScreen.path, document)}>
              {t('documents.backToDocument')}
            </Link>
          )}
        </Alert>
      )}
      <div ref={topRef} tabIndex={-1} style={{ outline: 'none' }}>
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
      </div>
      {failure && (failure.code === 'VALIDATION_FAILED' || summaryEntries.length > 0) ? (
        <ErrorSummary
          title={t('documents.errorSummary')}
          description={failure.message}
          entries={summaryEntries}
        />
      ) : (
        failure && <ErrorAlert>{failure.message}</ErrorAlert>
      )}
      {of && screen.showNotesOf && <LatestActionNotes {...of} actions={screen.showNotesOf} />}
      {round && round.items.length > 0 && (
        <RequestRoundPanel
          round={round}
          answering={answersRequests}
          // The question shows here unless the screen shows the query's notes above.
          showQuestion={!workflow.requests?.open.some((name) => screen.showNotesOf?.includes(name))}
          answers={answers}
          onAnswers={setAnswers}
          texts={bundle.translations}
          language={language}
          services={services}
        />
      )}
      {/* Screening hits, for the officers who see every document of the type (screening.ts). */}
      {of && workflow.screening && session.hasAnyRole(fullRoles(workflow, workflow.seeAll)) && (
        <ScreeningHits {...of} />
      )}
      <WriteMessageButton workflow={workflow} document={document} />
      {links.length > 0 && (
        <Group gap="md" component="nav" aria-label={t('documents.links')}>
          {links.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to}>
              {t(link.label)}
            </Anchor>
          ))}
        </Group>
      )}
      {asksOwner && (
        <TextInput
          id={SCREEN_FIELDS['/owner']?.id}
          label={t('documents.ownerLabel')}
          description={t(creating ? 'documents.ownerHelp' : 'documents.ownerChangeHelp')}
          required={creating}
          value={owner}
          error={errorAt('/owner')}
          autoComplete="off"
          onChange={(e) => setOwner(e.currentTarget.value)}
          w={{ base: '100%', sm: 480 }}
        />
      )}
      {/* A payer's form whose links take others' documents named to them (payerConsent). */}
      {!readOnly && payerLinks?.payerConsent && itemsEditable(payerLinks, editable) && (
        <PayableDocumentsPanel
          api={api}
          backend={backend}
          named={namedNumbers(payerLinks, data)}
          onAdd={(number) => setData((current) => withNumber(payerLinks, current, number))}
        />
      )}
      <DocumentForm
        ref={formRef}
        key={readOnly ? 'read' : 'edit'}
        definition={formDefinition ?? entity}
        texts={bundle.translations}
        language={language}
        value={data}
        onChange={setData}
        validators={validators}
        readOnly={readOnly}
        editable={editable}
        hidden={hidden}
        initialSection={openingSection(entity.sections, screen, editable, readOnly, hidden, data)}
        services={services}
        extraErrors={formErrors}
        onDirtyChange={setDirty}
      />
      {workflow.persons && (
        <PersonDecisions
          persons={workflow.persons}
          data={data}
          {...(decidingPersons ? { value: personDecisions, onChange: setPersonDecisions } : {})}
          errors={fieldErrors}
        />
      )}
      {opensRequests && workflow.requests && (
        <RequestItemsEditor
          requests={workflow.requests}
          catalogs={bundle.catalogs}
          language={language}
          services={services}
          value={requestItems}
          onChange={setRequestItems}
        />
      )}
      {(needsNotes || assigning) && (
        <Group align="flex-start">
          {assigning && (
            <AssigneeSelect
              id={SCREEN_FIELDS['/assignee']?.id}
              workflow={workflow}
              action={assigning}
              current={document?.assignee ?? null}
              value={assignee}
              error={errorAt('/assignee')}
              onChange={setAssignee}
            />
          )}
          {needsNotes && (
            <Textarea
              id={SCREEN_FIELDS['/notes']?.id}
              label={t('documents.notes')}
              description={
                [
                  notesRequiredFor.length > 0
                    ? t('documents.notesRequiredFor', { actions: notesRequiredFor.join(', ') })
                    : '',
                  reassigning ? t('assignment.reasonHelp') : '',
                ]
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              value={notes}
              error={errorAt('/notes')}
              onChange={(e) => setNotes(e.currentTarget.value)}
              autosize
              minRows={2}
              w={{ base: '100%', sm: 480 }}
            />
          )}
        </Group>
      )}
      {actions.length > 0 && (
        <Group role="group" aria-label={t('documents.actionsLabel')}>
          {actions.map((name) => {
            const danger = workflow.actions[name]?.danger === true;
            return (
              <Button
                key={name}
                loading={busy}
                {...actionButtonLook(workflow.actions[name])}
                onClick={() => (danger ? setConfirming(name) : void run(name))}
              >
                {t(`actions.${name}`, { defaultValue: name })}
              </Button>
            );
          })}
        </Group>
      )}
      {live && screen.panels && <ModulePanels names={screen.panels} document={live} api={api} />}
      {live && <DocumentNextSteps workflow={workflow} screen={screen} document={live} />}
      {live && workflow.renewal && (
        <RenewalButton
          workflow={workflow}
          document={live}
          api={api}
          backend={backend}
          subject={session.subject ?? ''}
          mayStart={session.hasAnyRole(
            fullRoles(workflow, workflow.actions[workflow.renewal.start]?.roles ?? []),
          )}
          onStarted={(renewal) => {
            // The renewal opens where its owner edits it, as a new draft does.
            const edit = workflow.screens.find(
              (s) => s.mode === 'edit' && session.hasAnyRole(fullRoles(workflow, s.roles)),
            );
            if (edit) void navigate(documentRoute(workflow, edit.path, renewal), { state: {} });
          }}
        />
      )}
      {document && (
        <CertificateDownloads workflow={workflow} document={document} onFailure={setFailure} />
      )}
      {live && workflow.payment?.refunds && <RefundsPanel workflow={workflow} document={live} />}
      {busy && (
        <Alert color="blue" role="status">
          {t('messages.processing', { context: backend })}
        </Alert>
      )}
      {chrome && live && of && (
        <>
          <DocumentInformation document={live} />
          <CaseWorkPanels
            workflow={workflow}
            document={live}
            api={api}
            backend={backend}
            roles={session.roles}
            subject={session.subject}
          />
          {/* Who may pay is the holder's to say and read: not their delegate's. */}
          {workflow.payerConsent && !acting && (
            <PayersPanel workflow={workflow} document={live} api={api} backend={backend} />
          )}
          {/* The holder's share codes and who checked the document (shareCodes): the holder's
              alone, so an officer's screen asks nothing the server would refuse. */}
          {sharesCodes(workflow) && live.owner === session.subject && !acting && (
            <ShareCodesPanel type={workflow.id} document={live} api={api} backend={backend} />
          )}
          {/* The holder's own delegates; a delegate reads for whom they act above the form. */}
          {delegationOf(workflow) && live.owner === session.subject && !acting && (
            <DelegatesPanel
              workflow={workflow}
              document={live}
              api={api}
              backend={backend}
              typeTitle={heading === `${entity.id}._title` ? entity.id : heading}
            />
          )}
          {workflow.referencedBy && (
            <ReferringDocuments workflow={workflow} document={live} api={api} backend={backend} />
          )}
          <VersionList
            {...of}
            hrefOf={(v) =>
              versionScreen
                ? `#${documentRoute(workflow, versionScreen.path, live).replace(':ver', String(v))}`
                : '#'
            }
          />
          {workflow.timeline && (
            <DocumentTimeline {...of} estimatedDays={estimatedDays(workflow)} />
          )}
          <HistoryTable {...of} />
          {/* Who read and changed it: for the auditors (audit-read) only (docs/audit.md). */}
          {session.hasAnyRole(AUDIT_ROLES) && <AuditPanel documentId={live.id} />}
        </>
      )}
    </Stack>
  );
}

/** Fields of the screen itself (not of the document) an action's error may name. */
const SCREEN_FIELDS: Record<string, { id: string; label: string } | undefined> = {
  '/notes': { id: 'document-notes', label: 'documents.notes' },
  '/assignee': { id: 'document-assignee', label: 'documents.assigneeLabel' },
  '/owner': { id: 'document-owner', label: 'documents.ownerLabel' },
};

/** The number a granted document is known by (the workflow's `reference`), for the confirmation. */
function grantedReference(
  workflow: WorkflowDefinition,
  result: DocumentView,
): Pick<Confirmation, 'reference'> {
  const value = resolvePointer(result.data, REFERENCE_POINTER);
  if (!workflow.reference || typeof value !== 'string' || value === '') return {};
  return { reference: { label: `${workflow.document}.header.reference._`, value } };
}

/** The actions of a screen this user may take on the document now (all of them when creating). */
function offeredActions(
  workflow: WorkflowDefinition,
  screen: WorkflowScreen,
  session: Session,
  document: DocumentView | null | 'creating',
): string[] {
  return (screen.actions ?? []).filter((name) => {
    const action = workflow.actions[name];
    if (!action || !session.hasAnyRole(fullRoles(workflow, action.roles))) return false;
    if (document === 'creating') return true;
    return document?.allowedActions.includes(name) ?? false;
  });
}

/**
 * Where the user goes once an action succeeded (null: stay). A document that moved on shows on
 * its view under a confirmation, unless the action says `stay` and this screen offers more; a
 * new draft opens on its edit screen.
 */
function nextScreen(
  workflow: WorkflowDefinition,
  screen: WorkflowScreen,
  session: Session,
  creating: boolean,
  before: DocumentView | null,
  after: DocumentView,
  stay = false,
): { screen: WorkflowScreen; confirm: boolean } | null {
  const opens = (s: WorkflowScreen) => session.hasAnyRole(fullRoles(workflow, s.roles));
  const view = workflow.screens.find((s) => s.mode === 'view' && opens(s));
  const edit = workflow.screens.find(
    (s) =>
      s.mode === 'edit' &&
      opens(s) &&
      offeredActions(workflow, s, session, after).some(
        (name) => workflow.actions[name]?.payload === 'data',
      ),
  );
  if (creating) {
    if (edit) return { screen: edit, confirm: false };
    return view ? { screen: view, confirm: true } : null;
  }
  const offersMore = offeredActions(workflow, screen, session, after).length > 0;
  if (before && before.status !== after.status && !(stay && offersMore)) {
    return view && view !== screen ? { screen: view, confirm: true } : null;
  }
  if (offersMore) return null;
  return view && view !== screen ? { screen: view, confirm: false } : null;
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

/** A new document holding what the screen takes from the session's claims. */
function prefilled(
  prefill: NonNullable<WorkflowScreen['prefill']>,
  session: Session,
): DocumentData {
  const start: DocumentData = {};
  for (const [pointer, claim] of Object.entries(prefill)) {
    // The profile's fields come once it is read (useProfilePrefill).
    if (typeof claim !== 'string') continue;
    const value = session[claim];
    if (value) setAt(start, pointer, value);
  }
  return start;
}
