import '@mantine/core/styles.css';
import 'mantine-datatable/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Alert, Center, Loader, MantineProvider } from '@mantine/core';
import { RouterProvider } from 'react-router-dom';
import { createApiClient, DEFAULT_BACKENDS } from '../core/api/client';
import type { DefinitionBundle } from '../core/definitions/types';
import { pickLanguage, translate, type TextTree } from '../core/i18n/translate';
import en from '../../translations/en.json';
import fr from '../../translations/fr.json';
import { portalApiClient } from './api';
import { PortalContext, type Portal } from './context';
import { initI18n } from './i18n';
import { createPortalRouter } from './router';
import { readSession } from './session';
import { theme } from './theme';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

function render(node: React.ReactNode) {
  root.render(
    <StrictMode>
      <MantineProvider theme={theme}>{node}</MantineProvider>
    </StrictMode>,
  );
}

render(
  <Center h="100vh">
    <Loader aria-label={bootText('messages.loading')} role="status" />
  </Center>,
);

async function start() {
  const session = readSession();
  // The definitions are public; this client sends no token and the browser's language.
  const bootstrap = createApiClient({
    baseUrl: '/api',
    backends: DEFAULT_BACKENDS,
    locale: () => pickLanguage(navigator.language),
  });
  const [error, bundle] = await bootstrap.get<DefinitionBundle>('definitions', '');
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
  const portal: Portal = { bundle, session, api: portalApiClient(session) };
  const router = createPortalRouter(bundle);
  render(
    <PortalContext.Provider value={portal}>
      <RouterProvider router={router} />
    </PortalContext.Provider>,
  );
}

/**
 * Texts needed before the bundle arrives (or when it cannot): taken from the same translation
 * files at build time, so there is still one source for every text.
 */
function bootText(key: string): string {
  const texts: Record<string, TextTree> = { en, fr };
  return translate(texts, pickLanguage(navigator.languages?.join(','), navigator.language), key);
}

void start();
