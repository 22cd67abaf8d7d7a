import { Anchor, List, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { catalogRoutePath } from '../../core/definitions/routes';
import { catalogReaderRoles, isEnabled } from '../../core/definitions/types';
import { fullRoles } from '../../core/documents/workflow';
import { usePortal } from '../context';
import { useLanguage } from '../useLanguage';

/** The document lists and catalogues the user may open (shown on /home and /dashboard/home). */
export function HomeLinks() {
  const { t } = useTranslation();
  const { bundle, session } = usePortal();
  const language = useLanguage();
  const lists = bundle.workflows.flatMap((workflow) =>
    workflow.lists
      .filter((list) => session.hasAnyRole(fullRoles(workflow, list.roles)))
      // Away from its workflow's menu folder a list says what it lists ("Find visa applications").
      .map((list) => ({
        path: `${workflow.prefix}${list.path}`,
        label: t(list.title ?? list.label),
      })),
  );
  const catalogs = bundle.catalogs
    .filter(isEnabled)
    .filter((catalog) => session.hasAnyRole(catalogReaderRoles(catalog)));

  return (
    <>
      {lists.length > 0 && (
        <nav aria-label={t('app.documents')}>
          <Title order={3} size="h4" mb="xs">
            {t('app.documents')}
          </Title>
          <List>
            {lists.map((list) => (
              <List.Item key={list.path}>
                <Anchor component={Link} to={list.path}>
                  {list.label}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </nav>
      )}
      {catalogs.length > 0 && (
        <nav aria-label={t('app.catalogues')}>
          <Title order={3} size="h4" mb="xs">
            {t('app.catalogues')}
          </Title>
          <List>
            {catalogs.map((catalog) => (
              <List.Item key={catalog.id}>
                <Anchor component={Link} to={catalogRoutePath(catalog.id)}>
                  {(catalog.labels[language] ?? catalog.labels.en)?.title ?? catalog.id}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </nav>
      )}
    </>
  );
}
