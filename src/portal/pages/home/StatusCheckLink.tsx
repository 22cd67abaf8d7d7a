import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { sharesCodes, STATUS_CHECK_PATH } from '../../../core/definitions/status-check';
import { usePortal } from '../../context';

/**
 * The way to the public status check, beside the document check: for an employer or a landlord
 * given a share code. Only when a document type shares codes (`shareCodes`).
 */
export function StatusCheckLink() {
  const { t } = useTranslation();
  const { bundle } = usePortal();
  if (!bundle.workflows.some((workflow) => sharesCodes(workflow))) return null;
  return (
    <Stack gap={4} component="section" aria-labelledby="status-check-link-title">
      <Title id="status-check-link-title" order={3} size="h4">
        {t('status-check.homeTitle')}
      </Title>
      <Text size="sm">{t('status-check.homeIntro')}</Text>
      <Anchor component={Link} to={STATUS_CHECK_PATH} w="fit-content">
        {t('status-check.homeLink')}
      </Anchor>
    </Stack>
  );
}
