import { engines } from '../package.json';
import { nodeVersionProblem } from './server/node-version';

/**
 * The production entry (built as `dist/server/main.js`). First the Node.js version: an older
 * one than `engines` gets one line naming both and exit code 1, instead of a SyntaxError from
 * the first module it cannot link; so this module imports nothing of Node's or of a package's
 * statically. Then it turns on Node's module compile cache before the server and its packages
 * load, so a restart reuses the code V8 compiled the time before instead of parsing and
 * compiling every module again (NODE_COMPILE_CACHE names the folder; by default one under the
 * system's temporary folder). Then it runs the composition root.
 */
const problem = nodeVersionProblem(process.versions.node, engines.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
const { enableCompileCache } = await import('node:module');
enableCompileCache();
await import('./main');
