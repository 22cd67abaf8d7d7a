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
import { Box, Center, Loader, MantineProvider } from '@mantine/core';
import { pickLanguage, translate, type TextTree } from '../core/i18n/translate';
// Only the messages tree: the other texts come with the definitions.
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
import { ErrorAlert } from '../engine/ErrorAlert';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

/** Renders the page; `sliced`: as a transition, so no long task holds up input meanwhile. */
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

/** The frame index.html paints before any script runs, around the spinner or a start error. */
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

/** A store's value, changed in transitions: a new session re-renders much of the page. */
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

/** Provides the portal to the pages, following the session and the definitions. */
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
  // Single sign-on starts alongside, or on a public page once it has painted (sessionStart.ts).
  const publicStart = paintsBeforeSession(globalThis.location, portalModules);
  const returning = returningFromSignIn(globalThis.location);
  let shown: () => void = () => undefined;
  const firstPageShown = new Promise<void>((resolve) => (shown = resolve));
  const session = publicStart ? firstPageShown.then(startSession) : startSession();
  // Offline, the browser's cached copy of the index starts the shell.
  const index = await fetchDefinitionsIndex();
  if (!index) {
    render(
      <BootFrame>
        <ErrorAlert>{bootText('messages.unableToLoad')}</ErrorAlert>
      </BootFrame>,
    );
    return;
  }
  const definitions = definitionStore(index, addTexts);
  const bundle = definitions.current();
  portalDefinitionsWatch.expect(bundle.version);
  // After a sign-in the router waits for keycloak-js to clear the address; the page preloads.
  let router = returning ? undefined : createPortalRouter(bundle, definitions, portalModules);
  if (returning)
    preloadRoute(bundle, routeAtStart(globalThis.location), definitions, portalModules);
  await initI18n(bundle);
  const store = returning ? await session : pendingSessionStore(session);
  router ??= createPortalRouter(bundle, definitions, portalModules);
  // Registered late: it would compete with single sign-on on a slow network.
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

/** Texts needed before the bundle arrives, from the same translation files at build time. */
function bootText(key: string): string {
  const texts: Record<string, TextTree> = {
    en: { messages: enMessages },
    fr: { messages: frMessages },
  };
  return translate(texts, pickLanguage(navigator.languages?.join(','), navigator.language), key);
}

void start();
