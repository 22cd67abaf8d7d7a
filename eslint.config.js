// Lint rules, including the import boundaries of docs/architecture.md: which room of src/ may
// import which, and no import cycle. A wrong import is a lint error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';

// The rooms are matched wherever a `src/` tree sits, so that the deliberately wrong fixture tree
// of tests/unit/import-boundaries.test.ts (tests/fixtures/lint/src/, ignored below) is judged by
// exactly these rules. Zones compare resolved absolute paths: `../portal/x`, `./../portal/x`
// and `../../src/portal/x` are the same file.
const SRC = '**/src';
const room = (name) => `${SRC}/${name}/**`;
// A business module's browser side: `portal.ts(x)` of a module or the list, or its `portal/` folder.
const MODULE_PORTAL = [`${SRC}/modules/**/portal.{ts,tsx}`, `${SRC}/modules/*/portal/**`];
// A module's Node side: `server.ts` of a module or the list, or its `server/` folder.
const MODULE_SERVER = [`${SRC}/modules/**/server.ts`, `${SRC}/modules/*/server/**`];
// Whatever else a module holds is shared by both sides.
const MODULE_SHARED = [
  `${SRC}/modules/*/!(portal|server).{ts,tsx}`,
  `${SRC}/modules/*/!(portal|server)/**`,
];
// Resolved paths inside a package are never a room, even a package with its own src/server/.
const EXTERNAL = ['**/node_modules/**'];

const zone = (target, from, message) => ({ target, from, except: EXTERNAL, message });

const boundaryZones = [
  zone(
    room('core'),
    ['engine', 'portal', 'server', 'modules'].map(room).concat(`${SRC}/main.ts`),
    'core imports nothing of the other rooms (it runs in the browser and in Node).',
  ),
  zone(
    room('engine'),
    ['portal', 'server', 'modules'].map(room).concat(`${SRC}/main.ts`),
    'engine imports only core: it renders any module and knows none.',
  ),
  zone(
    room('server'),
    ['engine', 'portal', 'modules'].map(room).concat(`${SRC}/main.ts`),
    'server imports only core: the modules are handed to it by src/main.ts.',
  ),
  zone(
    room('portal'),
    [room('server'), `${SRC}/main.ts`],
    'portal never imports server code: it talks to the API over HTTP.',
  ),
  {
    target: room('portal'),
    from: [room('modules')],
    except: [...EXTERNAL, `${SRC}/modules/portal.ts`],
    message: 'portal reaches the business modules only through src/modules/portal.ts.',
  },
  zone(
    [`${SRC}/!(modules)/**`, `${SRC}/!(main.ts)`],
    [`${SRC}/modules/server.ts`],
    'only src/main.ts (the server process) assembles the server modules.',
  ),
  zone(
    [`${SRC}/!(modules|portal)/**`, `${SRC}/*`, `${SRC}/portal/!(main.tsx)`, `${SRC}/portal/*/**`],
    [`${SRC}/modules/portal.ts`],
    'only src/portal/main.tsx (the browser bootstrap) assembles the portal modules.',
  ),
  {
    target: room('modules'),
    from: [room('portal')],
    except: [...EXTERNAL, `${SRC}/portal/module.ts`],
    message: 'a business module reaches the portal shell only through src/portal/module.ts.',
  },
  {
    target: room('modules'),
    from: [room('server')],
    except: [...EXTERNAL, `${SRC}/server/module.ts`],
    message: 'a business module reaches the server only through src/server/module.ts.',
  },
  zone(
    [...MODULE_SERVER, ...MODULE_SHARED],
    [room('engine'), ...MODULE_PORTAL],
    'a module’s server code (and what it shares) never reaches the React engine.',
  ),
  zone(
    [...MODULE_PORTAL, ...MODULE_SHARED],
    [room('server'), ...MODULE_SERVER],
    'a module’s portal code (and what it shares) never reaches server code.',
  ),
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'src/generated',
      'test-results',
      'tests/fixtures/lint',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: [`${SRC}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    settings: {
      // Node's resolution with TypeScript's extensions (eslint-import-resolver-node: pure
      // JavaScript, so the install needs no platform binary).
      'import-x/resolver': {
        node: { extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'] },
      },
      // The files no-cycle opens to follow imports (parsed with typescript-eslint's parser).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      // Type-only imports are erased, so only runtime cycles count (the rule skips `import type`).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: [`${SRC}/core/**`],
    rules: {
      'import-x/no-nodejs-modules': ['error'],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^react', message: 'core runs without React: renderers belong in engine.' },
          ],
        },
      ],
    },
  },
);
