import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { initialFiles, readManifest } from './scripts/vite-manifest.ts';

const root = fileURLToPath(new URL('./src/portal', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/portal', import.meta.url));
/** Where this build writes (`--outDir` may move it, e.g. a test build): set once resolved. */
let builtDir = outDir;

/** Service worker (vite-plugin-pwa, Workbox generateSW), registered by main.tsx in production. */
const serviceWorker = VitePWA({
  strategies: 'generateSW',
  registerType: 'autoUpdate',
  // No script added to index.html (the CSP allows no inline script): main.tsx registers it.
  injectRegister: null,
  manifest: {
    name: 'Immigration Service Portal',
    short_name: 'Immigration Portal',
    description: 'Apply for visas and permits, register sponsorships and pay fees.',
    theme_color: '#0C548C',
    background_color: '#ffffff',
    display: 'standalone',
    start_url: '/',
    scope: '/',
    icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  },
  workbox: {
    // The web manifest and its icon are added by the plugin.
    globPatterns: ['**/*.{js,css,html}'],
    // The app shell only: the top-level files (index.html, the silent sign-on page and its
    // script, the web manifest and icon) and the JavaScript and CSS index.html loads (its entry
    // and static imports, from Vite's manifest). A lazy page's chunk is kept the first time it is
    // fetched (runtimeCaching), so pages already seen open offline, the others show /offline.
    manifestTransforms: [
      (entries) => {
        const shell = new Set(initialFiles(readManifest(builtDir)));
        const kept = entries.filter(({ url }) => !url.startsWith('assets/') || shell.has(url));
        return { manifest: kept, warnings: [] };
      },
    ],
    // A new version takes over at once; main.tsx's registration then reloads the page once.
    skipWaiting: true,
    clientsClaim: true,
    cleanupOutdatedCaches: true,
    // The precached files never depend on the query (`/?code=...` after sign-in).
    ignoreURLParametersMatching: [/./],
    // The portal's routes are fragments: only the root is the single-page application.
    navigateFallback: 'index.html',
    navigateFallbackAllowlist: [/^\/(index\.html)?(\?.*)?$/],
    // The API and the identity server always go to the network, never through the worker.
    navigateFallbackDenylist: [/^\/api\//, /^\/realms\//, /^\/silent-check-sso/],
    runtimeCaching: [
      {
        // Lazy pages' chunks: hashed file names, so a cached copy is never stale.
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'portal-chunks',
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 200, maxAgeSeconds: 90 * 24 * 3600, purgeOnQuotaError: true },
        },
      },
    ],
  },
});

/**
 * Takes the web manifest's link out of index.html: serviceWorker.ts adds it when it registers
 * the service worker, once the first page has shown. Only installing the portal as an app
 * needs it (with the worker); in the page's head, the manifest and the icon it names took two
 * of the browser's six connections to the server while the portal's own scripts waited for
 * one on a slow network.
 */
function manifestLinkLater(): Plugin {
  return {
    name: 'portal-manifest-link-later',
    apply: 'build',
    // After vite-plugin-pwa's own post hook, which writes the link.
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace(/<link rel="manifest"[^>]*>/, ''),
    },
  };
}

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside each built text file over 1 kB, which
 * the server's static files plugin sends to browsers that take them (`preCompressed`): the
 * vendor chunk goes from 0.63 MB to about 0.16 MB, a document screen's from 0.43 MB to 0.12 MB.
 * Compressed once at build time, at the highest levels, never per request. The service worker
 * precaches only `.js`, `.css` and `.html` names, never these copies.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      builtDir = outDir;
    },
    // After every other plugin wrote its files (the service worker is written in closeBundle).
    closeBundle: {
      order: 'post',
      handler() {
        const walk = (dir: string): string[] =>
          fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
            const file = path.join(dir, entry.name);
            if (entry.isDirectory()) return entry.name === '.vite' ? [] : walk(file);
            return /\.(js|css|html|svg|webmanifest|json)$/.test(entry.name) ? [file] : [];
          });
        for (const file of walk(outDir)) {
          const raw = fs.readFileSync(file);
          if (raw.length < 1024) continue;
          fs.writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
          fs.writeFileSync(
            `${file}.br`,
            brotliCompressSync(raw, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: 11,
                [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
          );
        }
      },
    },
  };
}

/**
 * Builds the portal into dist/portal, which the server serves. The output has no inline script
 * (the CSP allows scripts from our origin only); in development, /api and the identity server's
 * /realms go to the local server.
 */
export default defineConfig({
  root,
  base: '/',
  // Copied as they are to the root of dist/portal: the silent sign-on page and its script, the
  // web manifest's icon.
  publicDir: 'public',
  plugins: [react(), serviceWorker, manifestLinkLater(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    // .vite/manifest.json: which files each entry and chunk loads (npm run bench, the precache).
    manifest: true,
    // The modulepreload polyfill would be fine (bundled, not inline), but modern browsers need none.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Libraries change less often than the portal: a separate hashed file stays cached.
        // Only those the first page needs ($initial): the others (RJSF, Ajv, the data table...)
        // stay with the lazy pages that import them.
        codeSplitting: {
          groups: [{ name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] }],
        },
      },
    },
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/api': process.env.PORTAL_API ?? 'http://localhost:8080',
      '/realms': process.env.PORTAL_API ?? 'http://localhost:8080',
    },
  },
});
