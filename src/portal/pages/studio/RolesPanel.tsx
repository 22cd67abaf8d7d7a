import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  List,
  Loader,
  Select,
  Stack,
  Switch,
  Table,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../core/api/errors';
import { usePortal } from '../../context';
import type { StudioDraft } from './useStudioDraft';
import { StudioDialog } from './StudioDialog';

/** An access unit as the roles answer names it; a grant names its version. */
interface AccessUnit {
  id: string;
  code: string;
  name: string;
  version: number;
}

/** One place a definition names a role. */
interface RoleUse {
  file: string;
  pointer: string;
  part: string;
  name?: string;
  owner: string;
  title: string;
}

interface DefinitionRole {
  code: string;
  name: string;
  uses: RoleUse[];
  /** Codes of the units granting it. */
  units: string[];
}

interface RolesAnswer {
  mayGrant: boolean;
  grantRoles: string[];
  units: AccessUnit[];
  roles: DefinitionRole[];
}

/** Whose roles are listed: the checked draft's, or the published version's when it has problems. */
type Source = 'draft' | 'published';

/**
 * Every role the draft's definitions use, where, and which access units grant it (read from the
 * database); a person who may also change access units grants a role to a unit from here.
 */
export function RolesPanel({ draft }: { draft: StudioDraft }) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const [answer, setAnswer] = useState<RolesAnswer | undefined>();
  const [source, setSource] = useState<Source>('draft');
  const [failure, setFailure] = useState<ApiError | undefined>();
  const [loading, setLoading] = useState(true);
  const [onlyUngranted, setOnlyUngranted] = useState(false);
  const [granting, setGranting] = useState<DefinitionRole | undefined>();
  const [granted, setGranted] = useState<string | undefined>();
  const changed = Object.keys(draft.changes).length > 0;
  const { check } = draft;

  const load = useCallback(async () => {
    setLoading(true);
    setFailure(undefined);
    // A changed draft is checked first: its roles are listed by the digest the check answers.
    let digest: string | undefined;
    if (changed) {
      const [checkError, checked] = await check();
      if (checkError) {
        setLoading(false);
        return setFailure(checkError);
      }
      digest = checked.valid ? checked.version : undefined;
    }
    const query = digest ? `?draft=${digest}` : '';
    const [error, roles] = await api.get<RolesAnswer>('definitions', `/roles${query}`);
    setLoading(false);
    if (error) return setFailure(error);
    setSource(changed && !digest ? 'published' : 'draft');
    setAnswer(roles);
    // The names come in the reader's language: asked again when it changes (`i18n.language`);
    // the draft's `check` is new at every render, and the tab opens afresh on each visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, changed, i18n.language]);

  useEffect(() => {
    void load();
  }, [load]);

  const units = useMemo(
    () => new Map((answer?.units ?? []).map((unit) => [unit.code, unit])),
    [answer],
  );
  const roles = (answer?.roles ?? []).filter((role) => !onlyUngranted || role.units.length === 0);
  const ungranted = (answer?.roles ?? []).filter((role) => role.units.length === 0).length;

  if (loading && !answer)
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text>{t('studio.roles.loading')}</Text>
      </Group>
    );

  return (
    <Stack gap="md">
      <Text size="sm">{t('studio.roles.intro')}</Text>
      {failure && (
        <Alert color="red" role="alert" title={t('studio.roles.loadFailed')}>
          <Text size="sm">{failure.message}</Text>
          <Button mt="xs" size="xs" variant="default" onClick={() => void load()}>
            {t('studio.roles.retry')}
          </Button>
        </Alert>
      )}
      {source === 'published' && (
        <Alert color="yellow" role="status">
          <Text size="sm" c="inherit">
            {t('studio.roles.draftInvalid')}
          </Text>
        </Alert>
      )}
      {granted && (
        <Alert color="green" role="status" withCloseButton onClose={() => setGranted(undefined)}>
          {granted}
        </Alert>
      )}
      {answer && (
        <>
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" role="status">
              {t('studio.roles.summary', { count: answer.roles.length, ungranted })}
            </Text>
            <Group gap="sm">
              {loading && <Loader size="xs" role="status" aria-label={t('studio.roles.loading')} />}
              <Switch
                label={t('studio.roles.onlyUngranted')}
                checked={onlyUngranted}
                onChange={(event) => setOnlyUngranted(event.currentTarget.checked)}
              />
              <Button size="xs" variant="default" onClick={() => void load()} loading={loading}>
                {t('studio.roles.refresh')}
              </Button>
            </Group>
          </Group>
          {!answer.mayGrant && (
            <Text size="sm" c="dimmed">
              {t('studio.roles.cannotGrant', { roles: answer.grantRoles.join(', ') })}
            </Text>
          )}
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="sm">
              <Table.Caption>{t('studio.roles.caption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('studio.roles.role')}</Table.Th>
                  <Table.Th>{t('studio.roles.usedIn')}</Table.Th>
                  <Table.Th>{t('studio.roles.grantedBy')}</Table.Th>
                  {answer.mayGrant && <Table.Th>{t('studio.roles.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {roles.map((role) => (
                  <Table.Tr key={role.code}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {role.name}
                      </Text>
                      <Code>{role.code}</Code>
                    </Table.Td>
                    <Table.Td>
                      <RoleUses uses={role.uses} />
                    </Table.Td>
                    <Table.Td>
                      {role.units.length === 0 ? (
                        <Badge color="red.9" variant="filled">
                          {t('studio.roles.noUnit')}
                        </Badge>
                      ) : (
                        <List size="sm" spacing={2}>
                          {role.units.map((code) => (
                            <List.Item key={code}>
                              {units.get(code)?.name ?? code} <Code>{code}</Code>
                            </List.Item>
                          ))}
                        </List>
                      )}
                    </Table.Td>
                    {answer.mayGrant && (
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setGranting(role)}
                          aria-label={t('studio.roles.grantTo', { role: role.name })}
                        >
                          {t('studio.roles.grant')}
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {roles.length === 0 && <Text size="sm">{t('studio.roles.none')}</Text>}
        </>
      )}
      <GrantDialog
        role={granting}
        units={(answer?.units ?? []).filter((unit) => !granting?.units.includes(unit.code))}
        onClose={() => setGranting(undefined)}
        onGranted={async (unit) => {
          const role = granting;
          setGranting(undefined);
          setGranted(t('studio.roles.granted', { role: role?.name, unit: unit.name }));
          await load();
        }}
        onStale={load}
      />
    </Stack>
  );
}

/** How many of a role's places show before "Show all": a catalogue role is in dozens. */
const SHOWN_PLACES = 3;

/**
 * Where a role is used, in words: one line per workflow or catalogue naming it, its parts
 * gathered ("actions: grant, query"); past a few, the rest behind a button.
 */
function RoleUses({ uses }: { uses: RoleUse[] }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const byOwner = new Map<string, Map<string, string[]>>();
  for (const use of uses) {
    const parts = byOwner.get(use.title) ?? new Map<string, string[]>();
    byOwner.set(use.title, parts);
    const names = parts.get(use.part) ?? [];
    parts.set(use.part, use.name && !names.includes(use.name) ? [...names, use.name] : names);
  }
  const lines = [...byOwner].map(([title, parts]) => ({
    title,
    text: [...parts]
      .map(([part, names]) => {
        const label = t(`studio.roles.parts.${part}`);
        return names.length
          ? t('studio.roles.partNames', { part: label, names: names.join(', ') })
          : label;
      })
      .join(t('studio.roles.partSeparator')),
  }));
  const shown = all ? lines : lines.slice(0, SHOWN_PLACES);
  return (
    <Stack gap={4} align="flex-start">
      <List size="sm" spacing={2}>
        {shown.map((line) => (
          <List.Item key={line.title}>{t('studio.roles.useIn', line)}</List.Item>
        ))}
      </List>
      {lines.length > SHOWN_PLACES && (
        <Button size="compact-xs" variant="subtle" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? t('studio.roles.showFewer') : t('studio.roles.showAll', { count: lines.length })}
        </Button>
      )}
    </Stack>
  );
}

/** Chooses a unit and confirms; the server's refusal (stale, unknown role) shows in it. */
function GrantDialog(props: {
  role: DefinitionRole | undefined;
  units: AccessUnit[];
  onClose: () => void;
  onGranted: (unit: AccessUnit) => Promise<void>;
  /** The unit changed meanwhile: the units are read again for the next try. */
  onStale: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [unitId, setUnitId] = useState<string | null>(null);
  const [unitError, setUnitError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | undefined>();
  const { role } = props;
  const unit = props.units.find((candidate) => candidate.id === unitId);

  useEffect(() => {
    setUnitId(null);
    setUnitError(undefined);
    setFailure(undefined);
  }, [role]);

  const submit = async () => {
    if (!role) return;
    if (!unit) return setUnitError(t('studio.roles.unitRequired'));
    setBusy(true);
    setFailure(undefined);
    const [error, changed] = await api.post<AccessUnit>(
      'definitions',
      `/roles/${encodeURIComponent(role.code)}/grants`,
      { unit: unit.id, version: unit.version },
    );
    setBusy(false);
    if (error) {
      setFailure(error);
      if (error.status === 409) await props.onStale();
      return;
    }
    await props.onGranted(changed);
  };

  return (
    <StudioDialog
      opened={role !== undefined}
      title={t('studio.roles.grantTitle')}
      submitLabel={t('studio.roles.grantSubmit')}
      busy={busy}
      onClose={props.onClose}
      onSubmit={() => void submit()}
    >
      <Text size="sm">
        {t('studio.roles.grantText', { role: role?.name ?? '', code: role?.code ?? '' })}
      </Text>
      <Select
        label={t('studio.roles.unit')}
        placeholder={t('studio.roles.unitPlaceholder')}
        required
        searchable
        data={props.units.map((candidate) => ({
          value: candidate.id,
          label: `${candidate.name} (${candidate.code})`,
        }))}
        value={unitId}
        error={unitError}
        onChange={(value) => {
          setUnitId(value);
          setUnitError(undefined);
        }}
        nothingFoundMessage={t('studio.roles.noUnits')}
      />
      {unit && (
        <Text size="sm" role="status">
          {t('studio.roles.grantConfirm', { role: role?.name ?? '', unit: unit.name })}
        </Text>
      )}
      {failure && (
        <Alert color="red" role="alert" title={failure.message}>
          {failure.status === 409 && (
            <Text size="sm" c="inherit">
              {t('studio.roles.staleUnit')}
            </Text>
          )}
          {failure.fields?.map((field) => (
            <Text key={`${field.path}${field.message}`} size="sm" c="inherit">
              {field.message}
            </Text>
          ))}
        </Alert>
      )}
    </StudioDialog>
  );
}
