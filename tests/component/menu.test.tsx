import fs from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import { PortalContext } from '../../src/portal/context';
import { initI18n } from '../../src/portal/i18n';
import { menuCategory } from '../../src/portal/menu';
import { PortalMenu } from '../../src/portal/PortalMenu';
import { signedInSession, signedOutSession, type Session } from '../../src/portal/session';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

/** The fake session: the `Session` interface is the seam (keycloak-js is exercised end to end). */
function fakeSession(roles?: string[]): Session {
  const login = vi.fn();
  if (!roles) return signedOutSession(login);
  return signedInSession(
    { groups: roles.map((role) => `/${role}`), name: 'Ana Officer', preferred_username: 'ana' },
    { token: async () => 'token', login, logout: vi.fn() },
  );
}

let bundle: DefinitionBundle;

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
    };
  }
  type Modules = { modules: DefinitionBundle['modules'] };
  const modules = [
    ...(await readJson<Modules>('modules.json')).modules,
    ...(await readJson<Modules>('tests/fixtures/definitions/modules.fixture.json')).modules,
  ];
  bundle = { modules, catalogs, workflows, schemas: [], translations, version: 'test' };
  await initI18n(bundle);
});

/** Renders the menu, opens every folder, and lists what it shows in order. */
function visibleEntries(session: Session): string[] {
  const view = render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session, api: {} as never }}>
        <MemoryRouter initialEntries={['/home']}>
          <nav aria-label="menu">
            <PortalMenu />
          </nav>
        </MemoryRouter>
      </PortalContext.Provider>
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
    ['profile roles', ['view-profile'], ['Home -> /home', ...DASHBOARDS, ...OWN_ACCOUNT]],
    [
      'manage-account alone opens the dashboards and the profile too',
      ['manage-account'],
      ['Home -> /home', ...DASHBOARDS, ...OWN_ACCOUNT],
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
        ...OWN_ACCOUNT,
      ]);
    } finally {
      bundle = full;
    }
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
        <PortalContext.Provider value={{ bundle, session: signedOut, api: {} as never }}>
          <MemoryRouter>
            <PortalMenu />
          </MemoryRouter>
        </PortalContext.Provider>
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(signedOut.login).toHaveBeenCalledWith();
    first.unmount();

    const signedIn = fakeSession(['view-profile']);
    render(
      <MantineProvider env="test">
        <PortalContext.Provider value={{ bundle, session: signedIn, api: {} as never }}>
          <MemoryRouter>
            <PortalMenu />
          </MemoryRouter>
        </PortalContext.Provider>
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(signedIn.logout).toHaveBeenCalled();
  });
});
