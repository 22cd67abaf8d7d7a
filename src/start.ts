import { enableCompileCache } from 'node:module';

/**
 * The production entry (built as `dist/server/main.js`): turns on Node's module compile cache before
 * the server and its packages load, so a restart reuses the code V8 compiled the time before
 * instead of parsing and compiling every module again (NODE_COMPILE_CACHE names the folder;
 * by default one under the system's temporary folder). Then it runs the composition root.
 */
enableCompileCache();
await import('./main');
