/**
 * The application menu (specification 000, section 2), from the definitions and the session: an
 * entry shows only to a holder of a role of the page it opens. Home, the dashboards; each
 * workflow's menu screens, then its lists; the catalogues, plain ones first, then their
 * categories' folders (dots become dashes), each alphabetical; the studio; the modules' links, in
 * a module's own section or beside Sign In/Out, one behind a switch only once the server said it
 * is on.
 */
import { catalogRoutePath } from '../core/definitions/routes';
import {
  catalogReaderRoles,
  CATALOG_MODULE,
  DASHBOARD_MODULE,
  isEnabled,
  isModuleEnabled,
  type DefinitionBundle,
} from '../core/definitions/types';
import { STUDIO_PATH, STUDIO_ROLES } from '../core/definitions/studio-roles';
import { AUDIT_PATH, AUDIT_ROLES } from '../core/definitions/audit-roles';
import { FINANCE_ROLE } from '../core/payments/report';
import { RETENTION_MANAGE_ROLE, RETENTION_PATH } from '../core/retention/plan';
import { fullRoles } from '../core/documents/workflow';
import type { Language } from '../core/i18n/translate';
import type { FilterCondition } from '../core/search/protocol';
import type { ModuleLink, PortalModule } from '../engine/modules-context';
import {
  DASHBOARD_ROLES,
  HOME_PATH,
  MY_LIBRARY_PATH,
  MY_TASKS_PATH,
  PAYMENT_REPORT_PAGE_PATH,
} from './paths';
import type { Session } from './session';
import { backendOf } from '../core/documents/conventions';

/**
 * What a link's count is: the documents of a workflow's list (searched on its backend) that
 * meet the condition. Only described here, so that building the menu stays pure.
 */
export interface MenuBadge {
  workflow: string;
  backend: string;
  list: string;
  condition: FilterCondition;
  /**
   * Only the documents this account holds: the inbox also lists the messages an officer wrote,
   * which are unread by their holders, not by the officer.
   */
  owner?: string;
}

export type MenuEntry =
  | { kind: 'link'; id: string; label: string; to: string; badge?: MenuBadge }
  | { kind: 'folder'; id: string; label: string; entries: MenuEntry[] }
  | { kind: 'signIn' | 'signOut'; id: string; label: string };

export interface MenuSection {
  id: string;
  /** Heading of the section; none for the fixed entries. */
  label?: string;
  entries: MenuEntry[];
}

/** The links of the modules that are on that this session may see, switches aside. */
export function moduleLinks(
  bundle: Pick<DefinitionBundle, 'modules'>,
  modules: readonly PortalModule[],
  session: Session,
): { module: PortalModule; link: ModuleLink }[] {
  return modules
    .filter((module) => module.menu && isModuleEnabled(bundle, module.id))
    .flatMap((module) => (module.menu?.links ?? []).map((link) => ({ module, link })))
    .filter(({ link }) =>
      link.visitors ? !session.signedIn : session.signedIn && session.hasAnyRole(link.roles ?? []),
    );
}

/** A category as the menu shows it: dots replaced by dashes. */
export function menuCategory(category: string): string {
  return category.trim().replace(/\./g, '-');
}

/**
 * `t` translates a key (`fallback` when it has no text); `options.switches` are the modules'
 * switches the server has answered (an unknown one hides its links).
 */
export function buildMenu(
  bundle: Pick<DefinitionBundle, 'catalogs' | 'workflows' | 'modules'>,
  session: Session,
  t: (key: string, fallback?: string) => string,
  language: Language,
  options: {
    modules?: readonly PortalModule[];
    switches?: Readonly<Record<string, boolean | undefined>>;
  } = {},
): MenuSection[] {
  const byLabel = (a: { label: string }, b: { label: string }) =>
    a.label.localeCompare(b.label, language, { sensitivity: 'base' });
  const home: MenuEntry[] = [{ kind: 'link', id: 'home', label: t('app.home'), to: HOME_PATH }];
  if (isModuleEnabled(bundle, DASHBOARD_MODULE) && session.hasAnyRole(DASHBOARD_ROLES))
    home.push({
      kind: 'folder',
      id: 'dashboards',
      label: t('menu.dashboards'),
      entries: [
        { kind: 'link', id: 'myLibrary', label: t('menu.myLibrary'), to: MY_LIBRARY_PATH },
        { kind: 'link', id: 'myTasks', label: t('menu.myTasks'), to: MY_TASKS_PATH },
      ],
    });
  const sections: MenuSection[] = [{ id: 'home', entries: home }];

  for (const workflow of bundle.workflows) {
    const screens: MenuEntry[] = workflow.screens
      .filter((screen) => screen.menu && !screen.path.includes(':'))
      .filter((screen) => session.hasAnyRole(fullRoles(workflow, screen.roles)))
      .map((screen) => ({
        kind: 'link',
        id: `${workflow.id}:${screen.path}`,
        label: t(screen.menu ?? screen.path),
        to: `${workflow.prefix}${screen.path}`,
      }));
    const lists: MenuEntry[] = workflow.lists
      .filter((list) => session.hasAnyRole(fullRoles(workflow, list.roles)))
      .map((list) => ({
        kind: 'link',
        id: `${workflow.id}:${list.id}`,
        label: t(list.label),
        to: `${workflow.prefix}${list.path}`,
        ...(list.badge && {
          badge: {
            workflow: workflow.id,
            backend: backendOf(workflow),
            list: list.id,
            condition: list.badge,
            ...(workflow.inbox && session.subject && { owner: session.subject }),
          },
        }),
      }));
    // The team view (`workload`): for those who may take its assigning action.
    const workload = workflow.workload;
    const assigning = workload && workflow.actions[workload.action];
    if (workload && assigning && session.hasAnyRole(fullRoles(workflow, assigning.roles)))
      lists.push({
        kind: 'link',
        id: `${workflow.id}:workload`,
        label: t(workload.label ?? 'assignment.workloadTitle'),
        to: `${workflow.prefix}${workload.path}`,
      });
    const entries = [...screens, ...lists];
    if (entries.length > 0)
      sections.push({
        id: `workflow:${workflow.id}`,
        label: t(`${workflow.document}._title`, t('app.documents')),
        entries,
      });
  }

  const plain: MenuEntry[] = [];
  const folders = new Map<string, MenuEntry[]>();
  const catalogs = isModuleEnabled(bundle, CATALOG_MODULE) ? bundle.catalogs : [];
  for (const catalog of catalogs) {
    if (!isEnabled(catalog) || !session.hasAnyRole(catalogReaderRoles(catalog))) continue;
    const link: MenuEntry = {
      kind: 'link',
      id: `catalog:${catalog.id}`,
      label: (catalog.labels[language] ?? catalog.labels.en)?.title ?? catalog.id,
      to: catalogRoutePath(catalog.id),
    };
    const category = menuCategory(catalog.category ?? '');
    if (!category) plain.push(link);
    else folders.set(category, [...(folders.get(category) ?? []), link]);
  }
  const folderEntries: MenuEntry[] = [...folders].map(([category, entries]) => ({
    kind: 'folder',
    id: `category:${category}`,
    label: t(`menu.categories.${category}`, category),
    entries: entries.sort(byLabel),
  }));
  if (plain.length + folderEntries.length > 0)
    sections.push({
      id: 'catalogues',
      label: t('app.catalogues'),
      entries: [...plain.sort(byLabel), ...folderEntries.sort(byLabel)],
    });

  if (session.hasAnyRole(STUDIO_ROLES))
    sections.push({
      id: 'studio',
      label: t('menu.studio'),
      entries: [{ kind: 'link', id: 'studio', label: t('menu.studioLink'), to: STUDIO_PATH }],
    });

  if (session.hasAnyRole(AUDIT_ROLES))
    sections.push({
      id: 'audit',
      label: t('audit.menu'),
      entries: [{ kind: 'link', id: 'audit', label: t('audit.menuLink'), to: AUDIT_PATH }],
    });

  if (session.hasAnyRole([FINANCE_ROLE]))
    sections.push({
      id: 'finance',
      label: t('menu.finance'),
      entries: [
        {
          kind: 'link',
          id: 'paymentReport',
          label: t('payment-report.menu'),
          to: PAYMENT_REPORT_PAGE_PATH,
        },
      ],
    });

  if (session.hasAnyRole([RETENTION_MANAGE_ROLE]))
    sections.push({
      id: 'retention',
      label: t('retention.section'),
      entries: [{ kind: 'link', id: 'retention', label: t('retention.menu'), to: RETENTION_PATH }],
    });

  const links = moduleLinks(bundle, options.modules ?? [], session).filter(
    ({ link }) => !link.when || options.switches?.[link.when] === true,
  );
  const entry = ({ link }: { link: ModuleLink }): MenuEntry => ({
    kind: 'link',
    id: link.id,
    label: t(link.label),
    to: link.to,
  });
  for (const module of new Set(links.map((each) => each.module))) {
    const own = links.filter((each) => each.module === module && each.link.place !== 'account');
    if (module.menu && own.length > 0)
      sections.push({ id: module.menu.id, label: t(module.menu.label), entries: own.map(entry) });
  }

  const account = links.filter(({ link }) => link.place === 'account').map(entry);
  account.push(
    session.signedIn
      ? { kind: 'signOut', id: 'signOut', label: t('menu.signOut') }
      : { kind: 'signIn', id: 'signIn', label: t('menu.signIn') },
  );
  sections.push({ id: 'account', entries: account });
  return sections;
}
