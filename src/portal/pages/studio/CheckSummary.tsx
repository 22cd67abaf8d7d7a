import { Alert, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemList } from './ProblemList';
import type { CheckResult, DocumentImpact } from './useStudioDraft';

/** What a workflow's new data moves will do to its stored documents, as the check answers it. */
interface MigrationPlan {
  workflow: string;
  checked: number;
  moved: number;
  examples: string[];
}

type Checked = CheckResult & { migrations?: MigrationPlan[] };

/**
 * The checker's answer, the very verdict a publish gives: the problems by file and place (among
 * them the stored documents the draft would leave invalid, counted by type), or what a publish
 * would do, the data moves it would make included.
 */
export function CheckSummary({ result, onClose }: { result: Checked; onClose?: () => void }) {
  const { t } = useTranslation();
  const closing = { withCloseButton: onClose !== undefined, onClose };
  const impact = (result.impact ?? []).filter((entry) => entry.invalid > 0);
  const migrations = (result.migrations ?? []).filter((plan) => plan.moved > 0);
  if (!result.valid)
    return (
      <Alert
        color="red"
        role="alert"
        title={t('studio.invalid', { count: result.problems.length })}
        {...closing}
      >
        <ProblemList problems={result.problems} />
        <ImpactList impact={impact} text="studio.publishCheck.refused" />
      </Alert>
    );
  return (
    <Alert
      color={impact.length || migrations.length || result.warnings.length ? 'blue.9' : 'green.9'}
      role="status"
      title={t('studio.valid')}
      {...closing}
    >
      {result.warnings.length > 0 && (
        <>
          <Text size="sm">{t('studio.warnings')}</Text>
          <ProblemList problems={result.warnings} />
        </>
      )}
      {migrations.length > 0 && (
        <>
          <Text size="sm" mt="xs">
            {t('studio.publishCheck.migrationsTitle')}
          </Text>
          <List size="sm">
            {migrations.map((plan) => (
              <List.Item key={plan.workflow}>
                {t('studio.publishCheck.migration', { ...plan })}
                {plan.examples.length > 0 &&
                  ` (${t('studio.publishCheck.examples', { examples: plan.examples.join(', ') })})`}
              </List.Item>
            ))}
          </List>
        </>
      )}
      <ImpactList impact={impact} text="studio.impact" />
      {result.warnings.length === 0 && impact.length === 0 && migrations.length === 0 && (
        <Text size="sm">{t('studio.nothingToSay')}</Text>
      )}
    </Alert>
  );
}

/** Stored documents by type (the draft's refusers, or a publish's), under `<text>Title`. */
function ImpactList({ impact, text }: { impact: DocumentImpact[]; text: string }) {
  const { t } = useTranslation();
  if (impact.length === 0) return null;
  return (
    <>
      <Text size="sm" mt="xs">
        {t(`${text}Title`)}
      </Text>
      <List size="sm">
        {impact.map((entry) => (
          <List.Item key={entry.document}>
            {t(text, { document: entry.document, invalid: entry.invalid, checked: entry.checked })}{' '}
            {entry.fields.map((field) => `${field.pointer} (${field.count})`).join(', ')}
            {entry.examples.length > 0 &&
              ` (${t('studio.publishCheck.examples', { examples: entry.examples.join(', ') })})`}
          </List.Item>
        ))}
      </List>
    </>
  );
}
