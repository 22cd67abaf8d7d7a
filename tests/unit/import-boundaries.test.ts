import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries of docs/architecture.md are lint rules (eslint.config.js). These tests
 * run ESLint with the project's own configuration on tests/fixtures/lint/src/, a miniature tree
 * whose files break each boundary on purpose (the configuration matches rooms in any `src/`
 * tree and ignores the fixtures only for `npm run lint`), then on the real src/.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'tests/fixtures/lint/src');
const BOUNDARY_RULES = new Set([
  'import-x/no-restricted-paths',
  'import-x/no-cycle',
  'import-x/no-nodejs-modules',
  'no-restricted-imports',
]);

/** Only the boundary rules run: the others are `npm run lint`'s, and cost the time. */
const onlyBoundaries = ({ ruleId }: { ruleId: string }) => BOUNDARY_RULES.has(ruleId);

interface Finding {
  rule: string;
  line: number;
  message: string;
}

/** Boundary findings per file (relative to the linted tree), unrelated rules left out. */
function boundaryFindings(results: ESLint.LintResult[], base: string): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const result of results) {
    const findings = result.messages
      .filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId))
      .map((m) => ({ rule: m.ruleId ?? '', line: m.line, message: m.message }));
    if (findings.length) byFile.set(path.relative(base, result.filePath), findings);
  }
  return byFile;
}

describe('import boundaries', () => {
  let fixtures: Map<string, Finding[]>;

  beforeAll(async () => {
    // ignore: false, because the configuration keeps these wrong files out of `npm run lint`.
    const eslint = new ESLint({ cwd: ROOT, ignore: false, ruleFilter: onlyBoundaries });
    fixtures = boundaryFindings(await eslint.lintFiles([FIXTURES]), FIXTURES);
  }, 120_000);

  const rulesOf = (file: string) => (fixtures.get(file) ?? []).map((f) => `${f.line} ${f.rule}`);

  it('reports an import from core into another room, whatever its spelling', () => {
    // '../portal/shell', './../portal/shell' and '../../src/portal/shell' are one file.
    expect(rulesOf('core/imports-portal.ts')).toEqual([
      '2 import-x/no-restricted-paths',
      '3 import-x/no-restricted-paths',
      '4 import-x/no-restricted-paths',
    ]);
  });

  it('reports engine importing portal (three spellings) but not core', () => {
    expect(rulesOf('engine/imports-portal.ts')).toEqual([
      '3 import-x/no-restricted-paths',
      '4 import-x/no-restricted-paths',
      '5 import-x/no-restricted-paths',
    ]);
  });

  it('reports a Node built-in and React in core', () => {
    expect(fixtures.get('core/uses-node.ts')).toEqual([
      expect.objectContaining({ rule: 'import-x/no-nodejs-modules', line: 2 }),
    ]);
    expect(fixtures.get('core/uses-react.ts')).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', line: 2 }),
    ]);
  });

  it('reports an engine file importing a business module', () => {
    expect(rulesOf('engine/imports-module.ts')).toEqual(['2 import-x/no-restricted-paths']);
  });

  it('reports both files of a two-file import cycle', () => {
    expect(rulesOf('core/cycle-a.ts')).toEqual(['2 import-x/no-cycle']);
    expect(rulesOf('core/cycle-b.ts')).toEqual(['2 import-x/no-cycle']);
  });

  it('keeps server off engine and modules, and portal off server', () => {
    expect(rulesOf('server/imports-engine.ts')).toEqual(['3 import-x/no-restricted-paths']);
    // Two zones: server imports only core, and only src/main.ts assembles the server modules.
    expect(rulesOf('server/imports-modules.ts')).toEqual([
      '2 import-x/no-restricted-paths',
      '2 import-x/no-restricted-paths',
    ]);
    expect(rulesOf('portal/imports-server.ts')).toEqual(['2 import-x/no-restricted-paths']);
  });

  it('lets the portal reach modules only through src/modules/portal.ts, from main.tsx', () => {
    const findings = fixtures.get('portal/imports-module.ts') ?? [];
    expect(findings.map((f) => f.line)).toEqual([3, 4]);
    expect(findings[0]?.message).toContain('only through src/modules/portal.ts');
    expect(findings[1]?.message).toContain('only src/portal/main.tsx');
  });

  it('keeps a module off the portal shell, its server side off engine, its portal side off server', () => {
    expect(rulesOf('modules/demo/imports-portal.ts')).toEqual(['2 import-x/no-restricted-paths']);
    expect(rulesOf('modules/demo/server.ts')).toEqual(['4 import-x/no-restricted-paths']);
    expect(rulesOf('modules/demo/portal.ts')).toEqual(['4 import-x/no-restricted-paths']);
  });

  it('lets a module reach the server and the portal shell only through their seams', () => {
    const findings = fixtures.get('modules/demo/server/imports-server-internals.ts') ?? [];
    expect(findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['2 import-x/no-restricted-paths']);
    expect(findings[0]?.message).toContain('only through src/server/module.ts');
  });

  it('accepts the allowed imports: the composition roots, the lists, core from anywhere', () => {
    for (const allowed of [
      'main.ts',
      'portal/main.tsx',
      'portal/shell.ts',
      'modules/server.ts',
      'modules/portal.ts',
      'modules/demo/portal/page.ts',
      'server/module.ts',
      'portal/module.ts',
      'engine/widget.ts',
      'server/api.ts',
      'core/text.ts',
    ]) {
      expect(fixtures.get(allowed), allowed).toBeUndefined();
    }
  });

  it('finds no boundary violation and no cycle in the real src/', async () => {
    const eslint = new ESLint({ cwd: ROOT, ruleFilter: onlyBoundaries });
    const findings = boundaryFindings(await eslint.lintFiles(['src']), ROOT);
    expect(Object.fromEntries(findings)).toEqual({});
    // The whole tree, on a machine busy with the rest of the suite: minutes, not seconds.
  }, 600_000);
});
