import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { lazyPage } from '../../src/portal/lazyPage';
import type { DocumentParts } from '../../src/portal/definitions';
import { createPortalRouter, preloadRoute } from '../../src/portal/router';
import { routeAtStart } from '../../src/portal/sessionStart';

const loads = vi.hoisted(() => ({ validators: [] as string[], screenPage: 0 }));

// What a document screen imports next: recorded instead of fetched.
vi.mock('../../src/engine/form/loadEntityValidators', () => ({
  entityValidators: (entityId: string) => ({
    loadSection: (sectionId: string) => {
      loads.validators.push(`${entityId}/${sectionId}`);
      return Promise.resolve({});
    },
  }),
}));
vi.mock('../../src/portal/pages/DocumentScreenPage', () => {
  loads.screenPage++;
  return { DocumentScreenPage: () => null };
});

/** A workflow with one list and one screen, enough for its routes. */
const workflow = {
  id: 'thing',
  document: 'thing-entity',
  prefix: '/thing',
  rolePrefix: 'thing-',
  seeAll: [],
  lists: [],
  screens: [
    { path: '/view/:id', mode: 'view', roles: ['read'], actions: [] },
    { path: '/edit/:id', mode: 'edit', roles: ['write'], actions: [] },
  ],
} as unknown as WorkflowDefinition;
const bundle = {
  modules: [],
  catalogs: [],
  schemas: [],
  workflows: [workflow],
  translations: { en: {}, fr: {} },
  version: 'test',
} as unknown as DefinitionBundle;

/** The definitions parts as the index describes them, none fetched. */
const parts = {
  sections: () => [{ id: 'officeUse', officer: true }, { id: 'applicant' }, { id: 'contact' }],
  loaded: () => false,
  load: vi.fn(async (_ids: readonly string[]) => undefined),
} satisfies DocumentParts;

beforeEach(() => {
  loads.validators.length = 0;
  parts.load.mockClear();
});

describe('a lazy page fetched before it is opened', () => {
  it('fetches its code once: preload() starts it, opening the page reuses it', async () => {
    const load = vi.fn(async () => () => <p>the page</p>);
    const Page = lazyPage(load);
    Page.preload();
    Page.preload();
    expect(load).toHaveBeenCalledTimes(1);
    render(
      <MantineProvider env="test">
        <Page />
      </MantineProvider>,
    );
    expect(await screen.findByText('the page')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('fetches again when opened after a failed preload', async () => {
    const load = vi
      .fn<() => Promise<() => React.JSX.Element>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(() => <p>back online</p>);
    const Page = lazyPage(load);
    Page.preload();
    await Promise.resolve();
    render(
      <MantineProvider env="test">
        <Page />
      </MantineProvider>,
    );
    expect(await screen.findByText('back online')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('the route being opened', () => {
  it('is the route a sign-in returns to, else the fragment', () => {
    expect(routeAtStart({ search: '?return_to=%2Fthing%2Fview%2F7&code=x', hash: '' })).toBe(
      '/thing/view/7',
    );
    expect(routeAtStart({ search: '', hash: '#/thing/view/7' })).toBe('/thing/view/7');
    expect(routeAtStart({ search: '', hash: '' })).toBe('/');
  });

  it("starts a document screen's code, its definitions and its open section's validators together, at start", async () => {
    preloadRoute(bundle, '/thing/edit/7', parts);
    // The first section the applicant fills in: not the officers' own.
    expect(loads.validators).toEqual(['thing-entity/applicant']);
    expect(parts.load).toHaveBeenCalledWith(['thing-entity']);
    await vi.waitFor(() => expect(loads.screenPage).toBe(1));
  });

  it('fetches no section validators for a screen that only reads', () => {
    preloadRoute(bundle, '/thing/view/7', parts);
    expect(loads.validators).toEqual([]);
    expect(parts.load).toHaveBeenCalledWith(['thing-entity']);
  });

  it('and on every navigation, before the page renders', () => {
    window.location.hash = '#/home';
    const router = createPortalRouter(bundle, parts);
    expect(loads.validators).toEqual([]);
    void router.navigate('/thing/edit/8');
    expect(loads.validators).toEqual(['thing-entity/applicant']);
    router.dispose();
  });
});
