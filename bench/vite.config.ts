import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The form benchmark's pages (scripts/bench-form.ts), built apart from the portal into
 * dist/bench: ours.html (the form engine), stock.html (stock RJSF) and
 * floor.html (plain inputs: the floor of the measurement). Never served by the
 * product server.
 */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: '../dist/bench',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      input: {
        ours: fileURLToPath(new URL('./ours.html', import.meta.url)),
        stock: fileURLToPath(new URL('./stock.html', import.meta.url)),
        floor: fileURLToPath(new URL('./floor.html', import.meta.url)),
      },
    },
  },
});
