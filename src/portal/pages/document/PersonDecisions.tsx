import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  List,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '../../../core/api/errors';
import {
  decisionsOf,
  personsOf,
  type PersonDecision,
} from '../../../core/documents/person-decisions';
import type { WorkflowPersons } from '../../../core/documents/workflow';

/** The field id the error summary focuses for a pointer (ErrorSummary's `root.a.b` scheme). */
const fieldId = (pointer: string) => `root${pointer.replaceAll('/', '.')}`;

/**
 * A decision per person (`persons`, docs/workflows.md): on a screen that grants, a row per
 * person with grant or refuse, the conditions of a person granted and the reason of a refusal;
 * elsewhere, each person's outcome as decided (the applicant's view).
 */
export function PersonDecisions({
  persons,
  data,
  value,
  onChange,
  errors,
}: {
  persons: WorkflowPersons;
  data: unknown;
  /** The decisions being taken; undefined shows those the document holds, read-only. */
  value?: PersonDecision[];
  onChange?: (next: PersonDecision[]) => void;
  errors?: readonly FieldError[];
}) {
  const { t } = useTranslation();
  const people = personsOf(persons, data);
  const editing = value !== undefined && onChange !== undefined;
  const decisions = editing ? value : decisionsOf(persons, data);
  if (!editing && decisions.length === 0) return null;
  const errorAt = (pointer: string) => errors?.find((e) => e.path === pointer)?.message;
  const change = (index: number, patch: Partial<PersonDecision>) => {
    const next = people.map((_, i) => decisions[i] ?? {});
    next[index] = { ...next[index], ...patch };
    onChange?.(next);
  };
  const nameOf = (index: number, name: string) =>
    (decisions[index]?.person ?? name) || t('persons.unnamed', { n: index + 1 });
  return (
    <Stack gap="sm" component="section" aria-labelledby="person-decisions-title">
      <Title order={3} id="person-decisions-title">
        {t('persons.title')}
      </Title>
      {editing && <Text size="sm">{t('persons.help')}</Text>}
      {editing && errorAt(persons.decisions) && (
        <Text c="red" size="sm" role="alert">
          {errorAt(persons.decisions)}
        </Text>
      )}
      {people.map(({ index, name }) => {
        const decision = decisions[index] ?? {};
        const at = `${persons.decisions}/${index}`;
        const person = nameOf(index, name);
        const legend = index === 0 ? t('persons.mainPerson', { person }) : person;
        if (!editing)
          return (
            <Fieldset key={index} legend={legend}>
              <Text fw={600}>
                {decision.outcome === 'REFUSED' ? t('persons.refused') : t('persons.granted')}
              </Text>
              {decision.outcome === 'REFUSED' ? (
                <Text>{t('persons.reasonShown', { reason: decision.reason ?? '' })}</Text>
              ) : decision.conditions?.length ? (
                <List aria-label={t('persons.conditionsOf', { person })}>
                  {decision.conditions.map((c, i) => (
                    <List.Item key={i}>
                      {c.description ? `${c.code} — ${c.description}` : c.code}
                    </List.Item>
                  ))}
                </List>
              ) : (
                <Text>{t('persons.noConditions')}</Text>
              )}
            </Fieldset>
          );
        const conditions = decision.conditions ?? [];
        const setCondition = (i: number, patch: { code?: string; description?: string }) =>
          change(index, {
            conditions: conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)),
          });
        return (
          <Fieldset key={index} legend={legend}>
            <Stack gap="xs">
              <Radio.Group
                label={t('persons.decisionFor', { person })}
                required
                value={decision.outcome ?? ''}
                error={errorAt(`${at}/outcome`)}
                onChange={(outcome) => change(index, { outcome: outcome as 'GRANTED' | 'REFUSED' })}
              >
                <Group mt={4}>
                  <Radio id={fieldId(`${at}/outcome`)} value="GRANTED" label={t('persons.grant')} />
                  <Radio value="REFUSED" label={t('persons.refuse')} />
                </Group>
              </Radio.Group>
              {decision.outcome === 'REFUSED' && (
                <Textarea
                  id={fieldId(`${at}/reason`)}
                  label={t('persons.reason', { person })}
                  required
                  autosize
                  minRows={2}
                  value={decision.reason ?? ''}
                  error={errorAt(`${at}/reason`)}
                  onChange={(e) => change(index, { reason: e.currentTarget.value })}
                />
              )}
              {decision.outcome === 'GRANTED' && (
                <Stack gap={4}>
                  <Text size="sm" fw={500}>
                    {t('persons.conditionsOf', { person })}
                  </Text>
                  {conditions.map((condition, i) => (
                    <Group key={i} align="flex-end" wrap="wrap" gap="xs">
                      <TextInput
                        label={t('persons.code')}
                        maxLength={5}
                        w={90}
                        value={condition.code}
                        onChange={(e) => setCondition(i, { code: e.currentTarget.value })}
                      />
                      <TextInput
                        label={t('persons.description')}
                        style={{ flex: '1 1 180px' }}
                        value={condition.description ?? ''}
                        onChange={(e) => setCondition(i, { description: e.currentTarget.value })}
                      />
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size="lg"
                        aria-label={t('persons.removeCondition', { n: i + 1, person })}
                        onClick={() =>
                          change(index, { conditions: conditions.filter((_, j) => j !== i) })
                        }
                      >
                        ×
                      </ActionIcon>
                    </Group>
                  ))}
                  <Button
                    variant="default"
                    size="xs"
                    w="fit-content"
                    onClick={() => change(index, { conditions: [...conditions, { code: '' }] })}
                  >
                    {t('persons.addCondition', { person })}
                  </Button>
                </Stack>
              )}
            </Stack>
          </Fieldset>
        );
      })}
    </Stack>
  );
}
