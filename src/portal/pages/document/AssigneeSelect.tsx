import { useEffect, useMemo } from 'react';
import { Alert, Loader, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { useApiGet } from '../../useApiGet';
import { backendOf } from '../../../core/documents/conventions';
import { ErrorAlert } from '../../../engine/ErrorAlert';

/**
 * Someone an assignment may name, as `GET /api/{backend}/{type}/assignees/{action}` lists them:
 * with their open cases of the type, fewest first (docs/workflows.md, "Assignment and workload").
 */
interface Assignable {
  id: string;
  login: string;
  name: string;
  openCases: number;
}

/** "Officer to assign": the people holding a role the action declares (`assignees`), least busy first. */
export function AssigneeSelect({
  id,
  workflow,
  action,
  current,
  value,
  onChange,
  error,
}: {
  id?: string;
  workflow: WorkflowDefinition;
  /** The action taking the assignee (`payload: "assignee"`). */
  action: string;
  /** Whom the document is assigned to now (an account id), if anyone. */
  current: string | null;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const answer = useApiGet<{ items: Assignable[] }>(
    backendOf(workflow),
    `/${workflow.id}/assignees/${encodeURIComponent(action)}`,
  );
  const state = answer.failed ? 'failed' : answer.value ? 'ready' : 'loading';
  const items = useMemo(() => answer.value?.items ?? [], [answer]);
  // Reassigning starts from whom it is assigned to now.
  useEffect(() => {
    if (!value && current && items.some((item) => item.id === current)) onChange(current);
  }, [items, current, value, onChange]);

  return (
    <Stack gap="xs" w={{ base: '100%', sm: 360 }}>
      <Select
        id={id}
        label={t('documents.assigneeLabel')}
        description={t('assignment.help')}
        placeholder={t(state === 'loading' ? 'assignment.loading' : 'assignment.placeholder')}
        withAsterisk
        searchable
        allowDeselect={false}
        disabled={state !== 'ready' || items.length === 0}
        rightSection={
          state === 'loading' ? (
            <Loader size="xs" role="status" aria-label={t('assignment.loading')} />
          ) : undefined
        }
        // "Ana Lima (verifier2) — 4 open cases": searched by name or sign-in name alike.
        data={items.map((item) => ({
          value: item.id,
          label: t('assignment.option', {
            name: item.name,
            login: item.login,
            open: t('assignment.openCases', { count: item.openCases }),
          }),
        }))}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        nothingFoundMessage={t('assignment.none')}
        comboboxProps={{ keepMounted: false }}
        error={error}
      />
      {state === 'failed' && <ErrorAlert>{t('assignment.failed')}</ErrorAlert>}
      {state === 'ready' && items.length === 0 && (
        <Alert color="yellow" role="status">
          {t('assignment.none')}
        </Alert>
      )}
    </Stack>
  );
}
