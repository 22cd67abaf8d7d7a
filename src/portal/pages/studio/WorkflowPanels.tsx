import { useId, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Checkbox,
  Group,
  List,
  NativeSelect,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isNode, type JsonValue, type Node } from '../../../core/definitions/json';
import { WorkflowAction } from '../../../core/definitions/shapes/action';
import { WorkflowDefinition as WorkflowShape } from '../../../core/definitions/shapes/workflow';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import {
  actionTextKey,
  addStatus,
  addTransition,
  removeStatus,
  removeTransition,
  renameStatus,
  setStatus,
  setTransition,
  statusTextKey,
  textFromName,
  transitionAt,
  transitionsNaming,
  WorkflowDesignError,
  type TransitionRef,
} from '../../../core/studio/workflow-design';
import type { DiagramSelection } from '../../../engine/studio/WorkflowDiagram';
import { StudioDialog } from './StudioDialog';
import { WorkflowSchemaForm } from './WorkflowSchemaForm';
import { TEXT_LANGUAGES, type TextLanguage } from './TextFields';
import { setDraftTexts, WorkflowTexts } from './WorkflowTexts';
import type { StudioDraft } from './useStudioDraft';

/** What every panel works with: the workflow, how to keep a change, and the draft's texts. */
export interface PanelContext {
  workflow: WorkflowDefinition;
  draft: Pick<StudioDraft, 'file' | 'setFile' | 'paths'>;
  save: (next: WorkflowDefinition) => void;
  select: (selection: DiagramSelection | undefined) => void;
  stateLabel: (status: string) => string;
  actionLabel: (action: string) => string;
  /** Guard and effect names the engine and modules offer, as the definitions use them. */
  names: { guards: string[]; effects: string[]; roles: string[] };
  /** What each guard taking parameters reads, as the server's implementations declare it. */
  guardParameters?: Readonly<Record<string, readonly GuardParameter[]>>;
}

/** One parameter a guard reads (GET /api/definitions/implementations). */
export interface GuardParameter {
  name: string;
  kind: 'status' | 'pointer' | 'value';
  required: boolean;
}

/** The meta-schema of one status of the machine (its `on` is edited as transitions). */
const STATE_SCHEMA: unknown = (() => {
  const machine = (WorkflowShape.properties as Record<string, unknown>).machine;
  const states = isNode(machine) && isNode(machine.properties) ? machine.properties.states : {};
  return isNode(states) ? states.additionalProperties : {};
})();

/** Runs an edit, or says in words why it is refused. */
function useEdit() {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string | undefined>();
  const run = (edit: () => void): boolean => {
    try {
      edit();
      setProblem(undefined);
      return true;
    } catch (error) {
      if (!(error instanceof WorkflowDesignError)) throw error;
      setProblem(t(`studio.workflow.problems.${error.code}`, error.params));
      return false;
    }
  };
  const shown = problem && (
    <Alert color="red" role="alert">
      {problem}
    </Alert>
  );
  return { run, shown, clear: () => setProblem(undefined) };
}

const upper = (text: string) => text.toUpperCase().replace(/[^A-Z ]/g, '');

type NewTexts = Record<TextLanguage, string>;
const NO_TEXTS: NewTexts = { en: '', fr: '' };
const textsMissing = (texts: NewTexts) =>
  TEXT_LANGUAGES.some((language) => !texts[language].trim());
/** A new part's texts as the draft keeps them under `key`. */
const textsOf = (key: string, texts: NewTexts) =>
  TEXT_LANGUAGES.map((language) => ({ key, language, text: texts[language].trim() }));

/** A new part's English and French texts, both required; `part` says what they name. */
function NewTextFields(props: {
  part: string;
  texts: NewTexts;
  onChange: (texts: NewTexts) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group grow wrap="wrap">
      {TEXT_LANGUAGES.map((language) => (
        <TextInput
          key={language}
          miw={180}
          lang={language}
          required
          label={t(`studio.workflow.texts.${language}`, { part: props.part })}
          value={props.texts[language]}
          onChange={(event) =>
            props.onChange({ ...props.texts, [language]: event.currentTarget.value })
          }
        />
      ))}
    </Group>
  );
}

/** A new status: its name in capitals, whether documents end there, its texts. */
export function AddStatusForm({ context }: { context: PanelContext }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [final, setFinal] = useState(false);
  const [texts, setTexts] = useState(NO_TEXTS);
  const edit = useEdit();
  const status = name.trim();
  const add = () =>
    edit.run(() => {
      if (textsMissing(texts)) throw new WorkflowDesignError('textsMissing');
      context.save(addStatus(context.workflow, status, { final }));
      setDraftTexts(context.draft, textsOf(statusTextKey(status), texts));
      setName('');
      setTexts(NO_TEXTS);
      context.select({ kind: 'status', status });
    });
  return (
    <form
      noValidate
      aria-labelledby="workflow-add-status"
      onSubmit={(event) => {
        event.preventDefault();
        add();
      }}
    >
      <Stack gap="xs">
        <Title order={4} id="workflow-add-status">
          {t('studio.workflow.addStatus')}
        </Title>
        <TextInput
          label={t('studio.workflow.statusName')}
          description={t('studio.workflow.statusNameHelp')}
          required
          value={name}
          onChange={(event) => setName(upper(event.currentTarget.value))}
        />
        <NewTextFields part={t('studio.workflow.status')} texts={texts} onChange={setTexts} />
        <Switch
          label={t('studio.workflow.final')}
          checked={final}
          onChange={(event) => setFinal(event.currentTarget.checked)}
        />
        {edit.shown}
        <Group>
          <Button type="submit">{t('studio.workflow.addStatusButton')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A status: its texts, its settings from the meta-schema, renaming, new transitions, removal. */
export function StatusPanel({ context, status }: { context: PanelContext; status: string }) {
  const { t } = useTranslation();
  const { workflow, save } = context;
  const state = workflow.machine.states[status];
  const edit = useEdit();
  const [newName, setNewName] = useState('');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [withTransitions, setWithTransitions] = useState(false);
  const [moveTo, setMoveTo] = useState<string | null>(null);
  if (!isNode(state)) return null;
  const label = context.stateLabel(status);
  const naming = transitionsNaming(workflow, status);
  const initial = status === workflow.machine.initial;
  const others = Object.keys(workflow.machine.states).filter((s) => s !== status);
  const rename = () =>
    edit.run(() => {
      const to = newName.trim();
      save(renameStatus(workflow, status, to));
      const texts = TEXT_LANGUAGES.map((language) => ({
        key: statusTextKey(to),
        language,
        text: context.stateLabel(status),
      }));
      setDraftTexts(context.draft, texts);
      setNewName('');
      context.select({ kind: 'status', status: to });
    });
  const remove = () =>
    edit.run(() => {
      save(
        removeStatus(workflow, status, {
          withTransitions,
          ...(moveTo && { moveTo }),
        }),
      );
      setConfirmRemove(false);
      context.select(undefined);
    });
  return (
    <Stack gap="sm">
      <Title order={3}>{t('studio.workflow.statusTitle', { status: label, name: status })}</Title>
      <WorkflowTexts draft={context.draft} textKey={statusTextKey(status)} label={status} />
      <WorkflowSchemaForm
        legend={t('studio.workflow.settings')}
        schema={STATE_SCHEMA}
        value={state}
        omit={['on']}
        onChange={(next) => edit.run(() => save(setStatus(workflow, status, next)))}
      />
      <AddTransitionForm context={context} from={status} />
      {!initial && (
        <Stack gap="xs">
          <Title order={4}>{t('studio.workflow.renameTitle')}</Title>
          <Group align="flex-end">
            <TextInput
              label={t('studio.workflow.newName')}
              description={t('studio.workflow.renameHelp')}
              value={newName}
              onChange={(event) => setNewName(upper(event.currentTarget.value))}
            />
            <Button variant="default" onClick={rename} disabled={!newName.trim()}>
              {t('studio.workflow.rename')}
            </Button>
          </Group>
        </Stack>
      )}
      {edit.shown}
      {!initial && (
        <Group>
          <Button color="red" variant="light" onClick={() => setConfirmRemove(true)}>
            {t('studio.workflow.removeStatus')}
          </Button>
        </Group>
      )}
      <StudioDialog
        opened={confirmRemove}
        submitColor="red"
        focusCancel
        title={t('studio.workflow.removeStatusTitle', { status: label })}
        submitLabel={t('studio.workflow.removeStatus')}
        onClose={() => setConfirmRemove(false)}
        onSubmit={remove}
      >
        <Text>{t('studio.workflow.removeStatusText', { status: label })}</Text>
        {naming.length > 0 && (
          <>
            <Text>{t('studio.workflow.namedBy', { count: naming.length })}</Text>
            <List size="sm">
              {naming.map((ref) => (
                <List.Item key={`${ref.from}-${ref.action}-${ref.index}`}>
                  {context.stateLabel(ref.from)}: {context.actionLabel(ref.action)}
                </List.Item>
              ))}
            </List>
            <Checkbox
              label={t('studio.workflow.removeThemToo')}
              checked={withTransitions}
              onChange={(event) => setWithTransitions(event.currentTarget.checked)}
            />
          </>
        )}
        <Select
          label={t('studio.workflow.moveTo')}
          description={t('studio.workflow.moveToHelp')}
          data={others.map((s) => ({ value: s, label: context.stateLabel(s) }))}
          value={moveTo}
          onChange={setMoveTo}
          clearable
          comboboxProps={{ withinPortal: false }}
        />
        {edit.shown}
      </StudioDialog>
    </Stack>
  );
}

/** Roles and screens offered while adding a transition. */
function screenOptions(workflow: WorkflowDefinition) {
  return workflow.screens.flatMap((screen, i) =>
    screen.actions ? [{ value: String(i), label: `${screen.path} (${screen.mode})` }] : [],
  );
}

/** A transition from `from`: its target, its action (new or declared), roles, screens, texts. */
export function AddTransitionForm({ context, from }: { context: PanelContext; from: string }) {
  const { t } = useTranslation();
  const { workflow } = context;
  const [to, setTo] = useState<string | null>(null);
  const [action, setAction] = useState('');
  const [roles, setRoles] = useState('');
  const [screens, setScreens] = useState<string[]>([]);
  const [texts, setTexts] = useState(NO_TEXTS);
  const edit = useEdit();
  // Not the status's name: ids cannot hold its spaces.
  const titleId = useId();
  const name = action.trim();
  const isNew = name !== '' && !Object.hasOwn(workflow.actions, name);
  const add = () =>
    edit.run(() => {
      if (!to) throw new WorkflowDesignError('noTarget');
      if (isNew && textsMissing(texts)) throw new WorkflowDesignError('textsMissing');
      const next = addTransition(workflow, {
        from,
        to,
        action: name,
        roles: roles.split(/[\s,]+/).filter(Boolean),
        screens: screens.map(Number),
      });
      context.save(next);
      if (isNew) setDraftTexts(context.draft, textsOf(actionTextKey(name), texts));
      setAction('');
      setRoles('');
      setScreens([]);
      setTexts(NO_TEXTS);
      setTo(null);
      context.select({ kind: 'transition', from, action: name, index: 0 });
    });
  return (
    <form
      noValidate
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault();
        add();
      }}
    >
      <Stack gap="xs">
        <Title order={4} id={titleId}>
          {t('studio.workflow.addTransition', { status: context.stateLabel(from) })}
        </Title>
        <NativeSelect
          label={t('studio.workflow.target')}
          required
          data={[
            { value: '', label: t('studio.workflow.chooseTarget') },
            ...Object.keys(workflow.machine.states).map((s) => ({
              value: s,
              label: context.stateLabel(s),
            })),
          ]}
          value={to ?? ''}
          onChange={(event) => setTo(event.currentTarget.value || null)}
        />
        <Autocomplete
          label={t('studio.workflow.event')}
          description={t('studio.workflow.eventHelp')}
          required
          data={Object.keys(workflow.actions)}
          value={action}
          onChange={setAction}
          onBlur={() => {
            if (isNew && !texts.en) setTexts({ ...texts, en: textFromName(name) });
          }}
        />
        <TextInput
          label={t('studio.workflow.roles')}
          description={t(
            isNew ? 'studio.workflow.rolesHelpNew' : 'studio.workflow.rolesHelpDeclared',
            { roles: context.names.roles.join(', ') },
          )}
          required={isNew}
          value={roles}
          onChange={(event) => setRoles(event.currentTarget.value)}
        />
        <MultiSelect
          label={t('studio.workflow.screens')}
          description={t('studio.workflow.screensHelp')}
          data={screenOptions(workflow)}
          value={screens}
          onChange={setScreens}
          searchable
        />
        {isNew && (
          <NewTextFields part={t('studio.workflow.action')} texts={texts} onChange={setTexts} />
        )}
        {edit.shown}
        <Group>
          <Button type="submit" variant="light">
            {t('studio.workflow.addTransitionButton')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What a guard reads, in words: "status (a status of the machine, required)". */
function guardParametersHelp(
  t: TFunction,
  parameters: readonly GuardParameter[] | undefined,
): string | undefined {
  if (!parameters) return undefined;
  if (parameters.length === 0) return t('studio.workflow.guardTakesNone');
  const named = parameters.map((p) =>
    t('studio.workflow.guardParameter', {
      name: p.name,
      kind: t(`studio.workflow.guardParameterKinds.${p.kind}`),
      required: p.required ? t('studio.workflow.guardParameterRequired') : '',
    }),
  );
  return t('studio.workflow.guardTakes', { parameters: named.join('; ') });
}

/** Parameters of a guard as JSON text, or an error in words. */
function parseParams(text: string): Record<string, JsonValue> | undefined {
  if (!text.trim()) return undefined;
  const value: unknown = JSON.parse(text);
  if (!isNode(value)) throw new SyntaxError('not an object');
  return value as Record<string, JsonValue>;
}

/** A transition: where it leads, its guard, its action's settings and texts, and its removal. */
export function TransitionPanel({ context, at }: { context: PanelContext; at: TransitionRef }) {
  const { t } = useTranslation();
  const { workflow, save } = context;
  const current = transitionAt(workflow, at);
  const action = Object.hasOwn(workflow.actions, at.action)
    ? workflow.actions[at.action]
    : undefined;
  const edit = useEdit();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [guard, setGuard] = useState(current?.guard?.type ?? '');
  const [params, setParams] = useState(
    current?.guard?.params ? JSON.stringify(current.guard.params) : '',
  );
  const [paramsError, setParamsError] = useState<string | undefined>();
  if (!current) return null;
  const from = context.stateLabel(at.from);
  const label = context.actionLabel(at.action);
  const applyGuard = () => {
    let parsed: Record<string, JsonValue> | undefined;
    try {
      parsed = parseParams(params);
      setParamsError(undefined);
    } catch (failure) {
      return setParamsError(
        t('studio.workflow.form.invalidJson', { message: (failure as Error).message }),
      );
    }
    edit.run(() =>
      save(
        setTransition(workflow, at, {
          target: current.target,
          ...(guard.trim() && { guard: { type: guard.trim(), ...(parsed && { params: parsed }) } }),
        }),
      ),
    );
  };
  const remove = () =>
    edit.run(() => {
      save(removeTransition(workflow, at));
      setConfirmRemove(false);
      context.select({ kind: 'status', status: at.from });
    });
  const stillUsed = Object.entries(workflow.machine.states).some(
    ([status, state]) =>
      isNode(state) &&
      isNode(state.on) &&
      Object.hasOwn(state.on, at.action) &&
      (status !== at.from || Array.isArray(state.on[at.action])),
  );
  return (
    <Stack gap="sm">
      <Title order={3}>
        {t('studio.workflow.transitionTitle', {
          action: label,
          from,
          to: context.stateLabel(current.target),
        })}
      </Title>
      <Select
        label={t('studio.workflow.target')}
        data={Object.keys(workflow.machine.states).map((s) => ({
          value: s,
          label: context.stateLabel(s),
        }))}
        value={current.target}
        allowDeselect={false}
        onChange={(target) =>
          target && edit.run(() => save(setTransition(workflow, at, { ...current, target })))
        }
      />
      <Group align="flex-end" wrap="wrap">
        <Autocomplete
          label={t('studio.workflow.guard')}
          description={t('studio.workflow.guardHelp')}
          data={context.names.guards}
          value={guard}
          onChange={(next) => {
            setGuard(next);
            // A guard reading parameters starts with them named, to be filled in.
            const wanted = context.guardParameters?.[next];
            if (wanted?.length && !params.trim())
              setParams(JSON.stringify(Object.fromEntries(wanted.map((p) => [p.name, '']))));
          }}
        />
        <Textarea
          label={t('studio.workflow.guardParams')}
          description={guardParametersHelp(t, context.guardParameters?.[guard.trim()])}
          autosize
          minRows={1}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={params}
          error={paramsError}
          onChange={(event) => setParams(event.currentTarget.value)}
        />
        <Button variant="default" onClick={applyGuard}>
          {t('studio.workflow.applyGuard')}
        </Button>
      </Group>
      <Title order={4}>
        {t('studio.workflow.actionTitle', { action: label, name: at.action })}
      </Title>
      <WorkflowTexts draft={context.draft} textKey={actionTextKey(at.action)} label={at.action} />
      {action && (
        <WorkflowSchemaForm
          legend={t('studio.workflow.actionSettings')}
          schema={WorkflowAction}
          value={action as Node}
          suggestions={{
            roles: context.names.roles,
            assignees: context.names.roles,
            effects: context.names.effects,
            before: context.names.effects,
          }}
          onChange={(next) =>
            save({
              ...workflow,
              actions: {
                ...workflow.actions,
                [at.action]: next as WorkflowDefinition['actions'][string],
              },
            })
          }
        />
      )}
      {edit.shown}
      <Group>
        <Button color="red" variant="light" onClick={() => setConfirmRemove(true)}>
          {t('studio.workflow.removeTransition')}
        </Button>
      </Group>
      <StudioDialog
        opened={confirmRemove}
        submitColor="red"
        focusCancel
        title={t('studio.workflow.removeTransitionTitle', { action: label, from })}
        submitLabel={t('studio.workflow.removeTransition')}
        onClose={() => setConfirmRemove(false)}
        onSubmit={remove}
      >
        <Text>
          {stillUsed
            ? t('studio.workflow.removeTransitionText', { action: label, from })
            : t('studio.workflow.removeTransitionAndAction', { action: label, from })}
        </Text>
      </StudioDialog>
    </Stack>
  );
}
