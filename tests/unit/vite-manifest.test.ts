import { describe, expect, it } from 'vitest';
import { initialFiles, lazyFiles, type ViteManifest } from '../../scripts/vite-manifest';

/**
 * A small build: index.html's entry imports vendor and a shared helper statically (the helper
 * imports vendor again: a diamond), and two lazy pages; the form page imports a chunk of its
 * own and the helper, and lazily a third page that imports the entry back (a cycle).
 */
const manifest: ViteManifest = {
  'index.html': {
    file: 'assets/index-A1.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_vendor-B2.js', '_helper-C3.js'],
    dynamicImports: ['src/pages/Form.tsx', 'src/pages/List.tsx'],
    css: ['assets/index-A1.css'],
  },
  '_vendor-B2.js': { file: 'assets/vendor-B2.js', css: ['assets/vendor-B2.css'] },
  '_helper-C3.js': { file: 'assets/helper-C3.js', imports: ['_vendor-B2.js'] },
  'src/pages/Form.tsx': {
    file: 'assets/Form-D4.js',
    src: 'src/pages/Form.tsx',
    isDynamicEntry: true,
    imports: ['_engine-E5.js', '_helper-C3.js', '_vendor-B2.js'],
    dynamicImports: ['src/pages/Wizard.tsx'],
    css: ['assets/Form-D4.css'],
  },
  '_engine-E5.js': { file: 'assets/engine-E5.js', css: ['assets/engine-E5.css'] },
  'src/pages/List.tsx': {
    file: 'assets/List-F6.js',
    src: 'src/pages/List.tsx',
    isDynamicEntry: true,
    imports: ['_engine-E5.js'],
  },
  'src/pages/Wizard.tsx': {
    file: 'assets/Wizard-G7.js',
    src: 'src/pages/Wizard.tsx',
    isDynamicEntry: true,
    imports: ['index.html'],
  },
};

describe('initialFiles (what index.html loads before any dynamic import)', () => {
  it('is the entry, its stylesheets and its static imports, recursively, each once', () => {
    expect(initialFiles(manifest)).toEqual([
      'assets/index-A1.js',
      'assets/index-A1.css',
      'assets/vendor-B2.js',
      'assets/vendor-B2.css',
      'assets/helper-C3.js',
    ]);
  });

  it('never follows dynamic imports', () => {
    const files = initialFiles(manifest);
    for (const lazy of ['Form-D4', 'List-F6', 'Wizard-G7', 'engine-E5']) {
      expect(files.some((file) => file.includes(lazy))).toBe(false);
    }
  });

  it('starts from any chunk, and survives import cycles', () => {
    expect(initialFiles(manifest, 'src/pages/Wizard.tsx')).toEqual([
      'assets/Wizard-G7.js',
      'assets/index-A1.js',
      'assets/index-A1.css',
      'assets/vendor-B2.js',
      'assets/vendor-B2.css',
      'assets/helper-C3.js',
    ]);
  });

  it('names a missing entry or chunk', () => {
    expect(() => initialFiles(manifest, 'main.html')).toThrow(/no entry main\.html/);
    const broken: ViteManifest = {
      'index.html': { file: 'assets/index.js', imports: ['_gone.js'] },
    };
    expect(() => initialFiles(broken)).toThrow(/no chunk _gone\.js \(imported by index\.html\)/);
  });
});

describe('lazyFiles (what only the lazy pages load)', () => {
  it('is every file reachable through dynamic imports and not loaded initially', () => {
    expect(lazyFiles(manifest)).toEqual([
      'assets/Form-D4.js',
      'assets/Form-D4.css',
      'assets/engine-E5.js',
      'assets/engine-E5.css',
      'assets/Wizard-G7.js',
      'assets/List-F6.js',
    ]);
  });
});
