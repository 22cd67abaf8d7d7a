import { useEffect, useState } from 'react';
import { Anchor, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AUDIT_PATH } from '../../../core/definitions/audit-roles';
import { auditQuery, type AuditLine, type AuditPage } from '../../../core/audit/lines';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { usePortal } from '../../context';
import { AuditTable } from '../audit/AuditTable';

const SHOWN = 20;

/**
 * A document's audit panel, for those holding `audit-read` (the screen shows it to them only;
 * the server refuses anyone else): the newest lines about this document, reads and changes, and
 * a link to all of them on the audit screen.
 */
export function AuditPanel({ documentId }: { documentId: string }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [lines, setLines] = useState<AuditLine[] | undefined>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setLines(undefined);
    setFailed(false);
    void api
      .get<AuditPage>(
        'system',
        `/audit/events?${auditQuery({ document: documentId }, { limit: String(SHOWN) })}`,
      )
      .then(([error, page]) => {
        if (!current) return;
        if (error) setFailed(true);
        else setLines(page.items);
      });
    return () => {
      current = false;
    };
  }, [api, documentId]);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="audit-panel-title">
      <Stack gap="sm">
        <Title order={3} id="audit-panel-title">
          {t('audit.panelTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('audit.panelIntro')}
        </Text>
        {failed && <ErrorAlert>{t('audit.errors.load')}</ErrorAlert>}
        {!failed && !lines && (
          <Loader size="sm" role="status" aria-label={t('audit.panelLoading')} />
        )}
        <div aria-live="polite">
          {lines && lines.length === 0 && <Text role="status">{t('audit.panelNone')}</Text>}
        </div>
        {lines && lines.length > 0 && (
          <AuditTable lines={lines} caption={t('audit.caption')} document={false} />
        )}
        <Anchor component={Link} to={`${AUDIT_PATH}?${auditQuery({ document: documentId })}`}>
          {t('audit.openAll')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
