import '@mantine/core/styles.css';
import { StrictMode, useMemo, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { Alert, Center, Loader, MantineProvider } from '@mantine/core';
import { RouterProvider } from 'react-router-dom';
import { createApiClient, DEFAULT_BACKENDS } from '../core/api/client';
import type { DefinitionBundle } from '../core/definitions/types';
import { pickLanguage, translate, type TextTree } from '../core/i18n/translate';
import en from '../../translations/en.json';
import fr from '../../translations/fr.json';
import { fetchOrLastCopy, portalApiClient } from './api';
import { PortalContext, type Portal } from './context';
import { initI18n } from './i18n';
import { startSession, type SessionStore } from './keycloak';
import { createPortalRouter, preloadRoute, routeAtStart } from './router';
import { registerServiceWorker } from './serviceWorker';
import { cssVariablesResolver, theme } from './theme';
import { EngineModulesProvider } from '../engine/module';
import { portalModules } from '../modules/portal';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

function render(node: React.ReactNode) {
  root.render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        {node}
      </MantineProvider>
    </StrictMode>,
  );
}

render(
  <Center h="100vh">
    <Loader aria-label={bootText('messages.loading')} role="status" />
  </Center>,
);

/** Provides the portal to the pages; re-renders them when the session changes (sign-out, refresh). */
function PortalRoot({
  bundle,
  store,
  router,
}: {
  bundle: DefinitionBundle;
  store: SessionStore;
  router: ReturnType<typeof createPortalRouter>;
}) {
  const session = useSyncExternalStore(store.subscribe, store.current);
  // One client for the whole visit: it asks the store for the current token on every call.
  const api = useMemo(() => portalApiClient({ token: () => store.current().token() }), [store]);
  const portal = useMemo<Portal>(() => ({ bundle, session, api }), [bundle, session, api]);
  return (
    <PortalContext.Provider value={portal}>
      <EngineModulesProvider modules={portalModules}>
        <RouterProvider router={router} />
      </EngineModulesProvider>
    </PortalContext.Provider>
  );
}

async function start() {
  // The definitions are public; this client sends no token and the browser's language.
  const bootstrap = createApiClient({
    baseUrl: '/api',
    backends: DEFAULT_BACKENDS,
    locale: () => pickLanguage(navigator.language),
    // Offline, the definitions of the last visit (the browser's HTTP cache) start the shell.
    fetch: fetchOrLastCopy,
  });
  // Single sign-on starts alongside (it never fails: without it the portal starts signed out).
  // It must finish before the router reads the address: keycloak-js removes its parameters.
  // The page being opened starts loading as soon as the definitions say which page it is.
  const [[error, bundle], store] = await Promise.all([
    bootstrap.get<DefinitionBundle>('definitions', '').then((answer) => {
      if (!answer[0]) preloadRoute(answer[1], routeAtStart(globalThis.location));
      return answer;
    }),
    startSession(),
  ]);
  if (error) {
    render(
      <Center h="100vh" p="md">
        <Alert color="red" role="alert">
          {bootText('messages.unableToLoad')}
        </Alert>
      </Center>,
    );
    return;
  }
  await initI18n(bundle);
  const router = createPortalRouter(bundle);
  render(<PortalRoot bundle={bundle} store={store} router={router} />);
}

/**
 * Texts needed before the bundle arrives (or when it cannot): taken from the same translation
 * files at build time, so there is still one source for every text.
 */
function bootText(key: string): string {
  const texts: Record<string, TextTree> = { en, fr };
  return translate(texts, pickLanguage(navigator.languages?.join(','), navigator.language), key);
}

registerServiceWorker();
void start();
