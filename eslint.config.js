// Lint rules, including the one-way import rule of docs/architecture.md:
// core -> engine -> portal, and core -> server. A wrong import is a lint error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const forbid = (rooms, why) => ({
  'no-restricted-imports': [
    'error',
    {
      // Relative imports that climb out of the room and into a forbidden one.
      patterns: [{ regex: `^(\\.\\./)+(${rooms.join('|')})(/|$)`, message: why }],
    },
  ],
});

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'src/generated', 'test-results'] },
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
    files: ['src/core/**'],
    rules: forbid(['engine', 'portal', 'server'], 'core imports nothing of the other rooms'),
  },
  {
    files: ['src/engine/**'],
    rules: forbid(['portal', 'server'], 'engine imports only core'),
  },
  {
    files: ['src/portal/**'],
    rules: forbid(['server'], 'portal imports engine and core, never server'),
  },
  {
    files: ['src/server/**'],
    rules: forbid(['engine', 'portal'], 'server imports only core'),
  },
);
