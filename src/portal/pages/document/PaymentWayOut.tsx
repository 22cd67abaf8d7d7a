import { Anchor, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { documentRoute } from '../../../core/documents/document-route';
import type { DocumentView } from '../../../core/documents/types';
import { fullRoles, type WorkflowDefinition } from '../../../core/documents/workflow';
import { usePortal } from '../../context';
import { HOME_PATH } from '../../paths';

/** The way on from a payment page: the document's screen (when allowed) and home. */
export function PaymentWayOut({
  workflow,
  document,
}: {
  workflow: WorkflowDefinition;
  document: Pick<DocumentView, 'id'>;
}) {
  const { t } = useTranslation();
  const { session } = usePortal();
  const view = workflow.screens.find(
    (screen) => screen.mode === 'view' && session.hasAnyRole(fullRoles(workflow, screen.roles)),
  );
  return (
    <Group gap="lg" component="nav" aria-label={t('documents.links')}>
      {view && (
        <Anchor component={Link} to={documentRoute(workflow, view.path, document)}>
          {t('payment.backToDocument')}
        </Anchor>
      )}
      <Anchor component={Link} to={HOME_PATH}>
        {t('app.home')}
      </Anchor>
    </Group>
  );
}
