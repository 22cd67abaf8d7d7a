import '@mantine/core/styles.css';
// After Mantine's: the portal's focus ring on what Mantine's own rules leave faint.
import './focus.css';
import {
  startTransition,
  StrictMode,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { createRoot } from 'react-dom/client';
import { Alert, Box, Center, Loader, MantineProvider } from '@mantine/core';
import { pickLanguage, translate, type TextTree } from '../core/i18n/translate';
// Only the messages tree (Vite keeps a JSON file's top-level keys apart): the portal's first
// script carries none of the other texts, which come with the definitions.
import { messages as enMessages } from '../../translations/en.json';
import { messages as frMessages } from '../../translations/fr.json';
import { portalApiClient } from './api';
import { PortalContext, type Portal } from './context';
import { definitionStore, fetchDefinitionsIndex, type DefinitionStore } from './definitions';
import { addTexts, initI18n } from './i18n';
import { startSession, type SessionStore } from './keycloak';
import { pendingSessionStore } from './pendingSession';
import { portalDefinitionsWatch } from './definitionsWatch';
import { CurrentRouterProvider } from './CurrentRouterProvider';
import { createPortalRouter, preloadRoute } from './router';
import { registerServiceWorker } from './serviceWorker';
import {
  afterNextPaint,
  paintsBeforeSession,
  returningFromSignIn,
  routeAtStart,
} from './sessionStart';
import { cssVariablesResolver, theme } from './theme';
import { EngineModulesProvider } from '../engine/module';
import { portalModules } from '../modules/portal';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

/**
 * Renders the page. `sliced`: as a transition, which React renders in slices of a few
 * milliseconds, giving the browser its turn between them, instead of in one long task that
 * would hold up every input meanwhile; what is on screen (the spinner) stays until it is done.
 */
function render(node: React.ReactNode, sliced = false) {
  const page = (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        {node}
      </MantineProvider>
    </StrictMode>
  );
  if (sliced) startTransition(() => root.render(page));
  else root.render(page);
}

/**
 * The frame index.html paints before any script runs (the header's bar and the portal's icon),
 * around what shows until the pages render: the spinner, or why the portal cannot start.
 */
function BootFrame({ children }: { children: React.ReactNode }) {
  return (
    <>
      <Box
        h={64}
        px="md"
        display="flex"
        style={{
          alignItems: 'center',
          borderBottom: '1px solid var(--mantine-color-default-border)',
        }}
      >
        <img src="/icon.svg" alt="" width={32} height={32} />
      </Box>
      <Center h="calc(100vh - 64px)" p="md">
        {children}
      </Center>
    </>
  );
}

/**
 * A store's value, changed in transitions (rendered in slices, like the first render): when
 * single sign-on has started, or the session is refreshed, every page element that shows who
 * is signed in renders again, and that must not be one long task either.
 */
function useInTransitions<T>(store: { current(): T; subscribe(listener: () => void): () => void }) {
  const [value, setValue] = useState(store.current);
  useEffect(() => {
    const update = () => startTransition(() => setValue(store.current()));
    update();
    return store.subscribe(update);
  }, [store]);
  return value;
}

render(
  <BootFrame>
    <Loader aria-label={bootText('messages.loading')} role="status" />
  </BootFrame>,
);

/**
 * Provides the portal to the pages; re-renders them when the session changes (sign-out,
 * refresh) and when a document type's definitions arrive.
 */
function PortalRoot({
  definitions,
  store,
  router,
  onShown,
  onSessionShown,
}: {
  definitions: DefinitionStore;
  store: SessionStore;
  router: ReturnType<typeof createPortalRouter>;
  /** Called once the first page is on screen. */
  onShown: () => void;
  /** Called once the page is on screen as it shows with the session known. */
  onSessionShown: () => void;
}) {
  useEffect(() => {
    void afterNextPaint().then(onShown);
  }, [onShown]);
  const bundle = useSyncExternalStore(definitions.subscribe, definitions.current);
  const session = useInTransitions(store);
  useEffect(() => {
    if (!session.pending) void afterNextPaint().then(onSessionShown);
  }, [session.pending, onSessionShown]);
  // One client for the whole visit: it asks the store for the current token on every call.
  const api = useMemo(
    () => portalApiClient({ token: () => store.current().token() }, portalModules),
    [store],
  );
  const portal = useMemo<Portal>(() => ({ bundle, session, api }), [bundle, session, api]);
  return (
    <PortalContext.Provider value={portal}>
      <EngineModulesProvider modules={portalModules}>
        <CurrentRouterProvider router={router} />
      </EngineModulesProvider>
    </PortalContext.Provider>
  );
}

async function start() {
  // Single sign-on starts alongside, or, on a public page, once that page has painted
  // (sessionStart.ts). It never fails: without it the portal starts signed out. The portal does
  // not wait for it to show a page, unless the identity server just sent the browser back: a
  // public page shows at once, a page behind roles waits (RequireRoles).
  const publicStart = paintsBeforeSession(globalThis.location, portalModules);
  const returning = returningFromSignIn(globalThis.location);
  let shown: () => void = () => undefined;
  const firstPageShown = new Promise<void>((resolve) => (shown = resolve));
  const session = publicStart ? firstPageShown.then(startSession) : startSession();
  // The definitions index is public (index.html preloads it). Offline, the copy of the last
  // visit (the browser's HTTP cache) starts the shell.
  const index = await fetchDefinitionsIndex();
  if (!index) {
    render(
      <BootFrame>
        <Alert color="red" role="alert">
          {bootText('messages.unableToLoad')}
        </Alert>
      </BootFrame>,
    );
    return;
  }
  const definitions = definitionStore(index, addTexts);
  const bundle = definitions.current();
  portalDefinitionsWatch.expect(bundle.version);
  // The router reads the address as it starts and preloads the page it opens, as soon as the
  // definitions say which page it is. After a sign-in it must wait: keycloak-js first takes
  // its parameters out of the address; the page is preloaded meanwhile.
  let router = returning ? undefined : createPortalRouter(bundle, definitions, portalModules);
  if (returning)
    preloadRoute(bundle, routeAtStart(globalThis.location), definitions, portalModules);
  await initI18n(bundle);
  const store = returning ? await session : pendingSessionStore(session);
  router ??= createPortalRouter(bundle, definitions, portalModules);
  // The service worker registers once the page shows as it does with the session known: it
  // downloads the whole app shell again into its cache, and the page then fetches its chunks
  // once more through it (serviceWorker.ts). Registered at the window's load event, which the
  // portal reaches before any of its pages has shown, it competed with single sign-on and the
  // page's own requests on a slow network.
  render(
    <PortalRoot
      definitions={definitions}
      store={store}
      router={router}
      onShown={shown}
      onSessionShown={registerServiceWorker}
    />,
    true,
  );
}

/**
 * Texts needed before the bundle arrives (or when it cannot): taken from the same translation
 * files at build time, so there is still one source for every text.
 */
function bootText(key: string): string {
  const texts: Record<string, TextTree> = {
    en: { messages: enMessages },
    fr: { messages: frMessages },
  };
  return translate(texts, pickLanguage(navigator.languages?.join(','), navigator.language), key);
}

void start();
