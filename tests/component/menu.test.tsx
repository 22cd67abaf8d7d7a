import fs from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import { EngineModulesProvider } from '../../src/engine/module';
import { portalModules } from '../../src/modules/portal';
import { PortalContext } from '../../src/portal/context';
import type { SearchRequest } from '../../src/core/search/protocol';
import { changeLanguage, initI18n } from '../../src/portal/i18n';
import { buildMenu, menuCategory, type MenuEntry } from '../../src/portal/menu';
import { PortalMenu, refreshMenuBadges } from '../../src/portal/PortalMenu';
import { signedInSession, signedOutSession, type Session } from '../../src/portal/session';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

/** The fake session: the `Session` interface is the seam (keycloak-js is exercised end to end). */
function fakeSession(roles?: string[]): Session {
  const login = vi.fn();
  if (!roles) return signedOutSession(login);
  return signedInSession(
    {
      sub: 'account-ana',
      groups: roles.map((role) => `/${role}`),
      name: 'Ana Officer',
      preferred_username: 'ana',
    },
    { token: async () => 'token', login, logout: vi.fn() },
  );
}

let bundle: DefinitionBundle;
/** The inbox's workflow as defined, kept out of `bundle` so the other tests' menus stay as they are. */
let inbox: WorkflowDefinition;

beforeAll(async () => {
  const realCatalogs = await Promise.all(
    ['administration', 'country', 'identity-types', 'user-types'].map((id) =>
      readJson<CatalogDefinition>(`catalogs/${id}.json`),
    ),
  );
  const country = realCatalogs.find((c) => c.id === 'country')!;
  const variant = (id: string, category: string, title: string, extra = {}) => ({
    ...country,
    id,
    category,
    labels: {
      en: { ...country.labels.en, title },
      fr: { ...country.labels.fr, title: `${title} (fr)` },
    },
    ...extra,
  });
  const catalogs: CatalogDefinition[] = [
    ...realCatalogs,
    variant('zeta', '', 'Zeta codes'),
    variant('alpha', '', 'Alpha codes'),
    variant('ports', 'ops.sea', 'Ports'),
    variant('retired', '', 'Retired codes', { enabled: false }),
  ];
  const workflows = await Promise.all(
    ['test-document', 'sample-permit'].map((id) =>
      readJson<WorkflowDefinition>(`tests/fixtures/definitions/workflows/${id}.json`),
    ),
  );
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const) {
    translations[language] = {
      ...(await readJson<TextTree>(`translations/${language}.json`)),
      'test-document': await readJson<TextTree>(
        `tests/fixtures/definitions/translations/${language}/test-document.json`,
      ),
      'sample-permit': await readJson<TextTree>(
        `tests/fixtures/definitions/translations/${language}/sample-permit.json`,
      ),
      'inbox-message': await readJson<TextTree>(`translations/${language}/inbox-message.json`),
    };
  }
  inbox = await readJson<WorkflowDefinition>('workflows/inbox-message.json');
  type Modules = { modules: DefinitionBundle['modules'] };
  const modules = [
    ...(await readJson<Modules>('modules.json')).modules,
    ...(await readJson<Modules>('tests/fixtures/definitions/modules.fixture.json')).modules,
  ];
  bundle = { modules, catalogs, workflows, schemas: [], translations, version: 'test' };
  await initI18n(bundle);
});

/**
 * An API answering the registration options as a server with self-registration on or off
 * (404) does; every other call fails.
 */
function registrationApi(on: boolean) {
  const get = vi.fn(async (backend: string, path: string) =>
    on && backend === 'connectid' && path === '/registration/options'
      ? ([null, { userTypes: [], identityTypes: [] }] as const)
      : ([{ status: 404, code: 'NOT_FOUND', message: 'Not found' }, null] as const),
  );
  return { get, api: { get } as unknown as ApiClient };
}

/** Renders the menu, opens every folder, and lists what it shows in order. */
function visibleEntries(session: Session, api: ApiClient = registrationApi(false).api): string[] {
  const view = render(
    <MantineProvider env="test">
      <EngineModulesProvider modules={portalModules}>
        <PortalContext.Provider value={{ bundle, session, api }}>
          <MemoryRouter initialEntries={['/home']}>
            <nav aria-label="menu">
              <PortalMenu />
            </nav>
          </MemoryRouter>
        </PortalContext.Provider>
      </EngineModulesProvider>
    </MantineProvider>,
  );
  const nav = within(view.getByRole('navigation', { name: 'menu' }));
  for (const folder of nav.queryAllByRole('button', { expanded: false })) fireEvent.click(folder);
  const entries = view.container.querySelectorAll('h2, a, button');
  const shown = [...entries].map((element) => {
    const label = element.textContent?.replace(/[▸▾]/g, '').trim() ?? '';
    if (element.tagName === 'H2') return `# ${label}`;
    if (element.getAttribute('aria-expanded') !== null) return `[${label}]`;
    if (element.tagName === 'A') return `${label} -> ${element.getAttribute('href')}`;
    return `(${label})`;
  });
  view.unmount();
  return shown;
}

const DASHBOARDS = [
  '[Dashboards]',
  'My Library -> /dashboard/my-library',
  'My Tasks -> /dashboard/my-tasks',
];
const OWN_ACCOUNT = ['Manage Account -> /connectid/profile', '(Sign Out)'];
const USER_MANAGEMENT = [
  '# User management',
  'Change password -> /connectid/profile/password',
  'Security and sign-in -> /connectid/profile/security',
  'My data -> /connectid/profile/data',
];

const SSO_FOLDER = [
  '[Single sign-on]',
  'Administrations -> /catalog/search/administration',
  'Countries -> /catalog/search/country',
  'Identity types -> /catalog/search/identity-types',
  'User types -> /catalog/search/user-types',
];

describe('application menu', () => {
  it.each<[string, string[] | undefined, string[]]>([
    ['signed out', undefined, ['Home -> /home', '(Sign In)']],
    ['signed in without roles', [], ['Home -> /home', '(Sign Out)']],
    [
      'profile roles',
      ['view-profile'],
      ['Home -> /home', ...DASHBOARDS, ...USER_MANAGEMENT, ...OWN_ACCOUNT],
    ],
    [
      'manage-account alone opens the dashboards and the profile too',
      ['manage-account'],
      ['Home -> /home', ...DASHBOARDS, ...USER_MANAGEMENT, ...OWN_ACCOUNT],
    ],
    [
      'one list of one workflow',
      ['test-document-assign'],
      [
        'Home -> /home',
        '# Test document',
        'For assignment -> /test/document/assignable',
        '(Sign Out)',
      ],
    ],
    [
      'lists of two workflows (any role of a list opens it)',
      ['test-document-search', 'test-document-reject', 'sample-permit-search'],
      [
        'Home -> /home',
        '# Test document',
        'Find -> /test/document',
        'Assigned to me -> /test/document/mylist',
        '# Sample permit',
        'Sample permits -> /sample/permit',
        '(Sign Out)',
      ],
    ],
    [
      'roles of other screens show no list',
      ['test-document-read', 'test-document-submit'],
      ['Home -> /home', '(Sign Out)'],
    ],
    [
      'catalogue readers: plain entries first, then folders, each alphabetical; dots become dashes',
      ['catalog-read', 'sso-catalog-read'],
      [
        'Home -> /home',
        '# Catalogues',
        'Alpha codes -> /catalog/search/alpha',
        'Zeta codes -> /catalog/search/zeta',
        '[ops-sea]',
        'Ports -> /catalog/search/ports',
        ...SSO_FOLDER,
        '(Sign Out)',
      ],
    ],
    [
      'catalogue managers may search too',
      ['sso-catalog-manage'],
      [
        'Home -> /home',
        '# Catalogues',
        '[Single sign-on]',
        'Administrations -> /catalog/search/administration',
        'Identity types -> /catalog/search/identity-types',
        'User types -> /catalog/search/user-types',
        '(Sign Out)',
      ],
    ],
  ])('%s', (_name, roles, expected) => {
    expect(visibleEntries(fakeSession(roles))).toEqual(expected);
  });

  it('shows nothing of a module switched off in modules.json', () => {
    const full = bundle;
    const off = (ids: string[]) =>
      full.modules.map((module) => ({ ...module, enabled: !ids.includes(module.id) }));
    try {
      bundle = { ...full, modules: off(['dashboard', 'catalog']) };
      expect(visibleEntries(fakeSession(['view-profile', 'catalog-read']))).toEqual([
        'Home -> /home',
        ...USER_MANAGEMENT,
        ...OWN_ACCOUNT,
      ]);
      // Manage Account is the module's page too: off, its link would lead nowhere.
      bundle = { ...full, modules: off(['connectid']) };
      expect(visibleEntries(fakeSession(['view-profile']))).toEqual([
        'Home -> /home',
        ...DASHBOARDS,
        '(Sign Out)',
      ]);
    } finally {
      bundle = full;
    }
  });

  it('leads no two entries to one page ("Profile" and "Manage Account" were both the profile)', () => {
    const everything = fakeSession([
      'view-profile',
      'manage-account',
      'catalog-read',
      'sso-catalog-manage',
      'test-document-search',
      'test-document-assign',
      'sample-permit-search',
    ]);
    const targets = buildMenu(bundle, everything, (key) => key, 'en', {
      modules: portalModules,
      switches: { selfRegistration: true },
    })
      .flatMap((section) => section.entries)
      .flatMap((entry) => (entry.kind === 'folder' ? entry.entries : [entry]))
      .flatMap((entry) => (entry.kind === 'link' ? [entry.to] : []));
    expect(targets).toContain('/connectid/profile');
    expect(targets.filter((to, i) => targets.indexOf(to) !== i)).toEqual([]);
  });

  it('never lists a disabled catalogue', () => {
    expect(visibleEntries(fakeSession(['catalog-read'])).join('\n')).not.toContain('Retired');
  });

  it('replaces dots by dashes in category names', () => {
    expect(menuCategory('ops.sea.ports')).toBe('ops-sea-ports');
  });

  it('signs in and out from the menu', () => {
    const signedOut = fakeSession();
    const first = render(
      <MantineProvider env="test">
        <EngineModulesProvider modules={portalModules}>
          <PortalContext.Provider
            value={{ bundle, session: signedOut, api: registrationApi(false).api }}
          >
            <MemoryRouter>
              <PortalMenu />
            </MemoryRouter>
          </PortalContext.Provider>
        </EngineModulesProvider>
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(signedOut.login).toHaveBeenCalledWith();
    first.unmount();

    const signedIn = fakeSession(['view-profile']);
    render(
      <MantineProvider env="test">
        <EngineModulesProvider modules={portalModules}>
          <PortalContext.Provider
            value={{ bundle, session: signedIn, api: registrationApi(false).api }}
          >
            <MemoryRouter>
              <PortalMenu />
            </MemoryRouter>
          </PortalContext.Provider>
        </EngineModulesProvider>
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(signedIn.logout).toHaveBeenCalled();
  });
});

describe('user management entries', () => {
  function renderMenu(session: Session, api: ApiClient) {
    return render(
      <MantineProvider env="test">
        <EngineModulesProvider modules={portalModules}>
          <PortalContext.Provider value={{ bundle, session, api }}>
            <MemoryRouter initialEntries={['/home']}>
              <PortalMenu />
            </MemoryRouter>
          </PortalContext.Provider>
        </EngineModulesProvider>
      </MantineProvider>,
    );
  }

  it('offers Register to a signed-out visitor when the server lets visitors register', async () => {
    const { api, get } = registrationApi(true);
    const view = renderMenu(fakeSession(), api);
    const link = await screen.findByRole('link', { name: 'Register' });
    expect(link.getAttribute('href')).toBe('/register');
    expect(screen.getByRole('group', { name: 'User management' })).toBeTruthy();
    expect(get).toHaveBeenCalledWith('connectid', '/registration/options');
    view.unmount();
  });

  it('offers no Register when self-registration is off', async () => {
    const { api, get } = registrationApi(false);
    renderMenu(fakeSession(), api);
    await waitFor(() => expect(get).toHaveBeenCalled());
    await Promise.resolve();
    expect(screen.queryByRole('link', { name: 'Register' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'User management' })).toBeNull();
  });

  it('never offers Register, nor asks, once signed in', async () => {
    const { api, get } = registrationApi(true);
    renderMenu(fakeSession(['view-profile']), api);
    expect(await screen.findByRole('link', { name: 'Change password' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Register' })).toBeNull();
    expect(get).not.toHaveBeenCalled();
  });

  it('describes the entries in buildMenu, in French too', async () => {
    const entries = (session: Session, selfRegistration: boolean) =>
      buildMenu(bundle, session, (key) => key, 'en', {
        modules: portalModules,
        switches: { selfRegistration },
      })
        .filter((section) => section.id === 'userManagement')
        .flatMap((section) => section.entries)
        .map((entry) => (entry.kind === 'link' ? `${entry.label} ${entry.to}` : entry.label));
    expect(entries(fakeSession(), true)).toEqual(['menu.register /register']);
    expect(entries(fakeSession(), false)).toEqual([]);
    expect(entries(fakeSession(['manage-account']), true)).toEqual([
      'menu.changePassword /connectid/profile/password',
      'menu.security /connectid/profile/security',
      'menu.myData /connectid/profile/data',
    ]);
    expect(entries(fakeSession(['connectid-account-search']), true)).toEqual([]);
    await changeLanguage('fr');
    try {
      renderMenu(fakeSession(), registrationApi(true).api);
      expect(await screen.findByRole('link', { name: "S'inscrire" })).toBeTruthy();
    } finally {
      await changeLanguage('en');
    }
  });
});

describe('a menu entry with a count (the inbox)', () => {
  const reader = () => fakeSession(['inbox-message-search', 'inbox-message-read']);
  const withInbox = () => ({ ...bundle, workflows: [...bundle.workflows, inbox] });

  /** An API whose searches answer the totals given, one per call (the last one repeated). */
  function countingApi(...totals: number[]) {
    const search = vi.fn(async (_backend: string, _path: string, _request: SearchRequest) => {
      const total = totals.length > 1 ? totals.shift()! : totals[0]!;
      return [null, { items: [], total, page: 1, itemsPerPage: 2, capped: false }] as const;
    });
    return { search, api: { search } as unknown as ApiClient };
  }

  function renderMenu(api: ApiClient, at = '/dashboard/home') {
    return render(
      <MantineProvider env="test">
        <EngineModulesProvider modules={portalModules}>
          <PortalContext.Provider value={{ bundle: withInbox(), session: reader(), api }}>
            <MemoryRouter initialEntries={[at]}>
              <PortalMenu />
            </MemoryRouter>
          </PortalContext.Provider>
        </EngineModulesProvider>
      </MantineProvider>,
    );
  }

  it('is described by buildMenu for a list with a badge, and only for it', () => {
    const sections = buildMenu(withInbox(), reader(), (key) => key, 'en');
    const links = sections.flatMap((section) => section.entries);
    const entry = links.find((e) => e.id === 'inbox-message:find') as Extract<
      MenuEntry,
      { kind: 'link' }
    >;
    expect(entry).toMatchObject({ to: '/inbox/message', label: 'inbox-message.lists.find' });
    expect(entry.badge).toEqual({
      workflow: 'inbox-message',
      backend: 'evisa',
      list: 'find',
      condition: { field: 'status', criterion: 'notEquals', value: 'READ' },
      // The inbox counts the messages written to the user, not those they wrote.
      owner: 'account-ana',
    });
    const others = buildMenu(bundle, fakeSession(['test-document-search']), (key) => key, 'en');
    const plain = others.flatMap((section) => section.entries);
    expect(plain.some((e) => e.kind === 'link' && e.badge)).toBe(false);
  });

  it('shows how many are unread, in the link name too, asking once per location', async () => {
    const { api, search } = countingApi(2, 1);
    renderMenu(api);
    const link = await screen.findByRole('link', { name: 'Inbox, 2 unread' });
    expect(link.getAttribute('href')).toBe('/inbox/message');
    expect(within(link).getByText('2')).toBeTruthy();
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith('evisa', '/inbox-message', {
      list: 'find',
      filter: [
        { field: 'status', criterion: 'notEquals', value: 'READ' },
        { field: 'owner', criterion: 'equals', value: 'account-ana' },
      ],
      options: { page: 1, itemsPerPage: 2 },
    });

    // Going elsewhere (after reading a message) counts again.
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(await screen.findByRole('link', { name: 'Inbox, 1 unread' })).toBeTruthy();
    expect(search).toHaveBeenCalledTimes(2);
  });

  it('counts again when a page asks, without a timer', async () => {
    const { api, search } = countingApi(3, 0);
    renderMenu(api);
    await screen.findByRole('link', { name: 'Inbox, 3 unread' });
    refreshMenuBadges();
    // Nothing unread: the link is the list's name alone, with no number.
    const link = await screen.findByRole('link', { name: 'Inbox' });
    expect(link.textContent).toBe('Inbox');
    expect(search).toHaveBeenCalledTimes(2);
  });

  it('shows no count when the search fails', async () => {
    const search = vi.fn(async () => [{ status: 500, code: 'X', message: 'down' }, null] as const);
    renderMenu({ search } as unknown as ApiClient);
    await waitFor(() => expect(search).toHaveBeenCalled());
    expect(screen.getByRole('link', { name: 'Inbox' }).textContent).toBe('Inbox');
  });

  it('reads the count in French', async () => {
    await changeLanguage('fr');
    try {
      const view = renderMenu(countingApi(1).api);
      expect(
        await screen.findByRole('link', { name: 'Boîte de réception, 1 non lu' }),
      ).toBeTruthy();
      view.unmount();
      renderMenu(countingApi(4).api);
      expect(
        await screen.findByRole('link', { name: 'Boîte de réception, 4 non lus' }),
      ).toBeTruthy();
    } finally {
      await changeLanguage('en');
    }
  });
});
