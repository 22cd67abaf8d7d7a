import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the production service worker (vite.config.ts); `/api` and `/realms` always go to
 * the network, and the page reloads once when a new version takes over.
 */
let registered = false;

export function registerServiceWorker(): void {
  if (registered || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  registered = true;
  // The web manifest, for installing the portal as an app.
  const manifest = document.createElement('link');
  manifest.rel = 'manifest';
  manifest.href = '/manifest.webmanifest';
  document.head.append(manifest);
  // Chunks fetched before the worker took control are asked again through it, for offline.
  if (!navigator.serviceWorker.controller) keepChunksFetchedWithoutWorker();
  registerSW({
    // main.tsx calls this once the first page has shown: register at once.
    immediate: true,
    onRegisterError: (error: unknown) =>
      console.warn('[portal] the service worker could not be registered', error),
  });
}

/**
 * Fetches again through the worker every chunk loaded without it, observed rather than read
 * once (a chunk finishing after the change would be missed).
 */
function keepChunksFetchedWithoutWorker(): void {
  const waiting = new Set<string>();
  const kept = new Set<string>();
  let controlled = false;
  const keep = (href: string) => {
    if (kept.has(href)) return;
    kept.add(href);
    void fetch(href).catch(() => undefined);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      const url = new URL(entry.name);
      if (url.origin !== location.origin || !url.pathname.startsWith('/assets/')) continue;
      if (entry.workerStart > 0) continue;
      if (controlled) keep(url.href);
      else waiting.add(url.href);
    }
  }).observe({ type: 'resource', buffered: true });
  navigator.serviceWorker.addEventListener(
    'controllerchange',
    () => {
      controlled = true;
      for (const href of waiting) keep(href);
      waiting.clear();
    },
    { once: true },
  );
}
