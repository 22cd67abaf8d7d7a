import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('./src/portal', import.meta.url));

/**
 * Builds the portal into dist/portal, which the server serves. The output has no inline script
 * (the CSP allows scripts from our origin only); in development, /api and the identity server's
 * /realms go to the local server.
 */
export default defineConfig({
  root,
  base: '/',
  // Copied as they are to the root of dist/portal: the silent sign-on page and its script.
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../../dist/portal',
    emptyOutDir: true,
    // The modulepreload polyfill would be fine (bundled, not inline), but modern browsers need none.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Libraries change less often than the portal: a separate hashed file stays cached.
        codeSplitting: { groups: [{ name: 'vendor', test: /node_modules/ }] },
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
