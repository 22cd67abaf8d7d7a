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
        to: `${workflow.prefix}${list.path}`,
        label: t(list.title ?? list.label),
      })),
  );
  const catalogs = bundle.catalogs
    .filter((catalog) => isEnabled(catalog) && session.hasAnyRole(catalogReaderRoles(catalog)))
    .map((catalog) => ({
      to: catalogRoutePath(catalog.id),
      label: (catalog.labels[language] ?? catalog.labels.en)?.title ?? catalog.id,
    }));
  return (
    <>
      <LinkList title={t('app.documents')} links={lists} />
      <LinkList title={t('app.catalogues')} links={catalogs} />
    </>
  );
}

/** A titled list of links; nothing when it has none. */
function LinkList({ title, links }: { title: string; links: { to: string; label: string }[] }) {
  if (links.length === 0) return null;
  return (
    <nav aria-label={title}>
      <Title order={3} size="h4" mb="xs">
        {title}
      </Title>
      <List>
        {links.map((link) => (
          <List.Item key={link.to}>
            <Anchor component={Link} to={link.to}>
              {link.label}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </nav>
  );
}
