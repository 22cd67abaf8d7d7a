import { Alert, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemList } from './ProblemList';
import type { CheckResult } from './useStudioDraft';

/** The checker's answer: the problems by file and place, or what a publish would do. */
export function CheckSummary({ result, onClose }: { result: CheckResult; onClose?: () => void }) {
  const { t } = useTranslation();
  const closing = { withCloseButton: onClose !== undefined, onClose };
  if (!result.valid)
    return (
      <Alert
        color="red"
        role="alert"
        title={t('studio.invalid', { count: result.problems.length })}
        {...closing}
      >
        <ProblemList problems={result.problems} />
      </Alert>
    );
  const impact = (result.impact ?? []).filter((entry) => entry.invalid > 0);
  return (
    <Alert
      color={impact.length || result.warnings.length ? 'blue.9' : 'green.9'}
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
      {impact.length > 0 && (
        <>
          <Text size="sm" mt="xs">
            {t('studio.impactTitle')}
          </Text>
          <List size="sm">
            {impact.map((entry) => (
              <List.Item key={entry.document}>
                {t('studio.impact', {
                  document: entry.document,
                  invalid: entry.invalid,
                  checked: entry.checked,
                })}{' '}
                {entry.fields.map((field) => `${field.pointer} (${field.count})`).join(', ')}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {result.warnings.length === 0 && impact.length === 0 && (
        <Text size="sm">{t('studio.nothingToSay')}</Text>
      )}
    </Alert>
  );
}
