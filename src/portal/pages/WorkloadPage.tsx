import { Alert, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { backendOf } from '../../core/documents/conventions';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { ErrorAlert } from '../../engine/ErrorAlert';
import { useApiGet } from '../useApiGet';

/** The team view as `GET /api/{backend}/{type}/workload` answers it. */
interface Workload {
  statuses: string[];
  rows: Array<{
    officer: { id: string; login: string; name: string; member: boolean } | null;
    counts: Record<string, number>;
    total: number;
  }>;
}

/**
 * A workflow's team view (`workload`; docs/workflows.md, "Assignment and workload"): open cases
 * per officer and status, then the unassigned, for those who may take its assigning action.
 */
export function WorkloadPage({ workflow }: { workflow: WorkflowDefinition }) {
  const { t } = useTranslation();
  const answer = useApiGet<Workload>(backendOf(workflow), `/${workflow.id}/workload`);
  const title = t(workflow.workload?.label ?? 'assignment.workloadTitle');
  const status = (code: string) => t(`statuses.${code}`, { defaultValue: code });
  const view = answer.value;
  const officers = view?.rows.filter((row) => row.officer) ?? [];
  return (
    <Stack gap="md">
      <Title order={2}>{title}</Title>
      <Text c="dimmed">{t('assignment.workloadIntro')}</Text>
      {answer.failed && <ErrorAlert>{t('assignment.workloadFailed')}</ErrorAlert>}
      {!answer.failed && !view && (
        <Loader size="sm" role="status" aria-label={t('assignment.workloadLoading')} />
      )}
      {view && officers.length === 0 && (
        <Alert color="yellow" role="status">
          {t('assignment.workloadEmpty')}
        </Alert>
      )}
      {view && (
        <Table.ScrollContainer minWidth={480}>
          <Table striped withTableBorder highlightOnHover>
            <Table.Caption>{t('assignment.workloadCaption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('assignment.officer')}</Table.Th>
                {view.statuses.map((code) => (
                  <Table.Th key={code} scope="col" ta="right">
                    {status(code)}
                  </Table.Th>
                ))}
                <Table.Th scope="col" ta="right">
                  {t('assignment.total')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.rows.map((row) => {
                // Someone who lost the role is known by name only (their sign-in may be gone).
                const name = !row.officer
                  ? t('assignment.unassigned')
                  : row.officer.member
                    ? `${row.officer.name} (${row.officer.login})`
                    : row.officer.name;
                return (
                  <Table.Tr key={row.officer?.id ?? ''} data-officer={row.officer?.login ?? ''}>
                    <Table.Th scope="row" fw={row.officer ? 500 : 700}>
                      {name}
                      {row.officer && !row.officer.member && (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          — {t('assignment.notMember')}
                        </Text>
                      )}
                    </Table.Th>
                    {view.statuses.map((code) => (
                      <Table.Td key={code} ta="right">
                        {row.counts[code] ?? 0}
                      </Table.Td>
                    ))}
                    <Table.Td ta="right" fw={700}>
                      {row.total}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
