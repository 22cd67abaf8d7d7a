import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  Paper,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../core/api/client';
import type { FieldError } from '../../core/api/errors';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { formatDate } from '../../core/format';
import { ConfirmDialog } from '../ConfirmDialog';
import { DateTimeField } from '../DateTimeField';
import { ErrorAlert } from '../ErrorAlert';
import { useApiAnswer } from '../useApiAnswer';
import { useApiMessage } from '../useApiMessage';
import { useConfirmation } from '../useConfirmation';
import {
  delegationOf,
  grantsInWords,
  type Delegation,
  type DelegationOfView,
  type NewDelegation,
} from './delegation';

/**
 * Delegated access (docs/delegation.md, "In the portal"): the holder of a document names who may
 * act for them on it and revokes them (after a confirmation); the delegate reads for whom they
 * act and what they may do. The server decides every step: the panel only asks and shows.
 */

/** A grant's words inside a sentence: its label with a small first letter ("submit it"). */
function useGrantWords(workflow: WorkflowDefinition): (grants: readonly string[]) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (grants: readonly string[]) => {
      const labels = new Map(delegationOf(workflow)?.grants.map((g) => [g.id, g.label]));
      return grantsInWords(
        grants,
        (grant) => {
          const text = t(labels.get(grant) ?? grant, { defaultValue: grant });
          return text.charAt(0).toLocaleLowerCase(i18n.language) + text.slice(1);
        },
        i18n.language,
      );
    },
    [workflow, t, i18n.language],
  );
}

const STATE_COLOURS: Record<Delegation['state'], string> = {
  active: 'green',
  expired: 'gray',
  revoked: 'red',
};

export interface DelegatesPanelProps {
  workflow: WorkflowDefinition;
  document: { id: string; number: string | null; status: string; version: number };
  api: ApiClient;
  backend: string;
  /** The document type's name in the reader's language ("Visa application"). */
  typeTitle: string;
}

/** "People who may act for you": the document's delegations, for its holder. */
export function DelegatesPanel({
  workflow,
  document,
  api,
  backend,
  typeTitle,
}: DelegatesPanelProps) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const words = useGrantWords(workflow);
  const [done, setDone] = useState('');
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const revoking = useConfirmation<Delegation>((delegation) => void revoke(delegation));
  const typeBase = `/${workflow.id}/delegations`;
  const answer = useApiAnswer(
    () => api.get<{ items: Delegation[] }>(backend, `/${workflow.id}/${document.id}/delegations`),
    [api, backend, workflow.id, document.id],
  );
  const { failure, setFailure, reload } = answer;
  const items = answer.value?.items ?? null;

  const revoke = async (delegation: Delegation) => {
    setBusy(delegation.id);
    setFailure('');
    setDone('');
    const [error] = await api.post<Delegation>(backend, `${typeBase}/${delegation.id}/revoke`, {});
    setBusy(null);
    if (error) return setFailure(messageOf(error));
    setDone(t('delegates.revoked', { delegate: delegation.delegate }));
    reload();
  };

  const scopeText = (delegation: Delegation) =>
    delegation.documentId === null
      ? t('delegates.scopeAll', { type: typeTitle })
      : t('delegates.scopeOne');
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-labelledby="document-delegates"
      data-delegates
    >
      <Title order={3} size="h5" id="document-delegates" mb="xs">
        {t('delegates.title')}
      </Title>
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('delegates.help')}
        </Text>
        {items === null && !failure && (
          <Loader size="sm" role="status" aria-label={t('delegates.loading')} />
        )}
        {items !== null && items.length === 0 && <Text size="sm">{t('delegates.none')}</Text>}
        {items !== null && items.length > 0 && (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {items.map((delegation) => (
              <Group
                key={delegation.id}
                component="li"
                gap="xs"
                justify="space-between"
                align="flex-start"
                wrap="wrap"
                data-delegate={delegation.delegate}
                data-state={delegation.state}
              >
                <Stack gap={2} style={{ flex: '1 1 240px', minWidth: 0 }}>
                  <Group gap="xs" wrap="wrap">
                    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {delegation.delegate}
                    </Text>
                    <Badge color={STATE_COLOURS[delegation.state]} variant="light" tt="none">
                      {t(`delegates.states.${delegation.state}`)}
                    </Badge>
                  </Group>
                  <Text size="sm">
                    {t('delegates.mayDo', { grants: words(delegation.grants) })}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {scopeText(delegation)} ·{' '}
                    {delegation.until
                      ? t('delegates.until', { date: formatDate(delegation.until) })
                      : t('delegates.untilRevoked')}
                  </Text>
                </Stack>
                {delegation.state === 'active' && (
                  <Button
                    size="compact-sm"
                    variant="default"
                    color="red"
                    loading={busy === delegation.id}
                    disabled={busy !== null && busy !== delegation.id}
                    aria-label={t('delegates.revokeNamed', { delegate: delegation.delegate })}
                    onClick={() => revoking.ask(delegation)}
                  >
                    {t('delegates.revoke')}
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}
        {done && (
          <Alert color="green" role="status">
            {done}
          </Alert>
        )}
        <Group>
          <Button
            variant="light"
            disabled={items === null}
            onClick={() => {
              setDone('');
              setAdding(true);
            }}
          >
            {t('delegates.add')}
          </Button>
        </Group>
        <ErrorAlert>{failure}</ErrorAlert>
      </Stack>
      <AddDelegateDialog
        opened={adding}
        workflow={workflow}
        documentId={document.id}
        documentNumber={document.number}
        typeTitle={typeTitle}
        api={api}
        backend={backend}
        onClose={() => setAdding(false)}
        onAdded={(delegation) => {
          setAdding(false);
          setDone(t('delegates.added', { delegate: delegation.delegate }));
          reload();
        }}
      />
      <ConfirmDialog
        {...revoking.dialog}
        title={t('delegates.revokeTitle')}
        message={t(
          revoking.pending?.documentId === null
            ? 'delegates.revokeConfirmAll'
            : 'delegates.revokeConfirm',
          { delegate: revoking.pending?.delegate ?? '', type: typeTitle },
        )}
        cancelLabel={t('delegates.cancel')}
        confirmLabel={t('delegates.revoke')}
      />
    </Paper>
  );
}

interface AddDelegateDialogProps {
  opened: boolean;
  workflow: WorkflowDefinition;
  documentId: string;
  documentNumber: string | null;
  typeTitle: string;
  api: ApiClient;
  backend: string;
  onClose: () => void;
  onAdded: (delegation: Delegation) => void;
}

/** The fields of the dialog a refusal may name, by the body's pointer. */
const FIELDS = ['/delegate', '/grants', '/until', '/documentId'] as const;

/** "Add a delegate": who, what they may do, for which documents, until when. */
function AddDelegateDialog({
  opened,
  workflow,
  documentId,
  documentNumber,
  typeTitle,
  api,
  backend,
  onClose,
  onAdded,
}: AddDelegateDialogProps) {
  const { t } = useTranslation();
  const messageOf = useApiMessage();
  const definition = delegationOf(workflow);
  const [delegate, setDelegate] = useState('');
  const [grants, setGrants] = useState<string[]>([]);
  const [scope, setScope] = useState<'one' | 'all'>('one');
  const [until, setUntil] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  // Each opening starts blank: a past attempt's words are not carried to the next.
  useEffect(() => {
    if (!opened) return;
    setDelegate('');
    setGrants([]);
    setScope('one');
    setUntil('');
    setErrors([]);
    setFailure('');
  }, [opened]);
  const errorAt = (path: string) =>
    errors.find((e) => e.path === path || e.path.startsWith(`${path}/`))?.message;

  const save = async () => {
    const problems: FieldError[] = [];
    if (!delegate.trim())
      problems.push({
        path: '/delegate',
        rule: 'required',
        message: t('delegates.delegateRequired'),
      });
    if (grants.length === 0)
      problems.push({ path: '/grants', rule: 'minItems', message: t('delegates.grantsRequired') });
    setErrors(problems);
    setFailure('');
    if (problems.length > 0) return;
    const body: NewDelegation = {
      delegate: delegate.trim(),
      grants,
      ...(scope === 'one' ? { documentId } : {}),
      ...(until ? { until } : {}),
    };
    setBusy(true);
    const [error, answer] = await api.post<Delegation>(
      backend,
      `/${workflow.id}/delegations`,
      body,
    );
    setBusy(false);
    if (!error) return onAdded(answer);
    const named = (error.fields ?? []).filter((f) =>
      FIELDS.some((p) => f.path === p || f.path.startsWith(`${p}/`)),
    );
    if (named.length > 0) setErrors(named);
    else setFailure(messageOf(error));
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('delegates.addTitle')} size="lg">
      <Stack>
        <TextInput
          label={t('delegates.delegateLabel')}
          description={t('delegates.delegateHelp')}
          required
          value={delegate}
          error={errorAt('/delegate')}
          autoComplete="off"
          data-autofocus
          onChange={(e) => setDelegate(e.currentTarget.value)}
        />
        <Checkbox.Group
          label={t('delegates.grantsLabel')}
          description={t('delegates.holderOnlyNote')}
          required
          value={grants}
          onChange={setGrants}
          error={errorAt('/grants')}
        >
          <Stack gap="xs" mt="xs">
            {definition?.grants.map((grant) => (
              <Checkbox key={grant.id} value={grant.id} label={t(grant.label)} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Radio.Group
          label={t('delegates.scopeLabel')}
          value={scope}
          onChange={(value) => setScope(value === 'all' ? 'all' : 'one')}
          error={errorAt('/documentId')}
        >
          <Stack gap="xs" mt="xs">
            <Radio
              value="one"
              label={
                documentNumber
                  ? t('delegates.scopeOneNumbered', { number: documentNumber })
                  : t('delegates.scopeOne')
              }
            />
            <Radio value="all" label={t('delegates.scopeAll', { type: typeTitle })} />
          </Stack>
        </Radio.Group>
        <Stack gap={4}>
          <DateTimeField
            label={t('delegates.untilLabel')}
            withTime={false}
            value={until}
            onChange={setUntil}
            error={errorAt('/until')}
            w={220}
          />
          <Text size="xs" c="dimmed">
            {definition?.maxDays
              ? t('delegates.untilHelpMax', { days: definition.maxDays })
              : t('delegates.untilHelp')}
          </Text>
        </Stack>
        <ErrorAlert>{failure}</ErrorAlert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('delegates.cancel')}
          </Button>
          <Button loading={busy} onClick={() => void save()}>
            {t('delegates.addConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** For the delegate: for whom they act and what they may do, above the form. */
export function DelegateNotice({
  workflow,
  delegation,
}: {
  workflow: WorkflowDefinition;
  delegation: DelegationOfView;
}) {
  const { t } = useTranslation();
  const words = useGrantWords(workflow);
  return (
    <Alert color="blue" role="note" title={t('delegates.actingTitle')} data-acting-for>
      {t('delegates.acting', { holder: delegation.holderName, grants: words(delegation.grants) })}
      {delegation.holderOnly.length > 0 && ` ${t('delegates.actingHolderOnly')}`}
    </Alert>
  );
}
