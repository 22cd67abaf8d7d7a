import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the service worker of production builds (vite.config.ts: Workbox, generateSW):
 * the app shell is precached, lazy pages' chunks are kept once fetched, `/api` and the identity
 * server's `/realms` always go to the network. When a new version has taken over, the page
 * reloads once (registerType `autoUpdate`). Nothing is added to index.html: the CSP allows no
 * inline script.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // On the first visit the chunks were fetched before the worker took control: ask for them
  // again through it (from the browser's HTTP cache) so the page seen first opens offline too.
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener('controllerchange', keepLoadedChunks, { once: true });
  }
  registerSW({
    immediate: true,
    onRegisterError: (error: unknown) =>
      console.warn('[portal] the service worker could not be registered', error),
  });
}

function keepLoadedChunks(): void {
  const chunks = new Set(
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.href),
  );
  for (const chunk of chunks) void fetch(chunk).catch(() => undefined);
}
