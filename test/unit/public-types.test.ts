/**
 * An app can name every type it meets in public signatures. Each package: its own types, and the
 * ones of other Zerda packages that appear in its declarations (under pnpm an app that installs
 * only @zerda/browser, @zerda/ai-sdk or @zerda/sqlite cannot import @zerda/core), are exported by
 * one of the package's entries. @zerda/core: what its app entry exposes is exported by it or by
 * `@zerda/core/adapter`, so no internal (a tier class, the language layer) leaks through a
 * signature. Private constructors and members are not in the declarations, so not walked. Lists
 * what is missing, and the path that reaches it.
 */
import { describe, expect, test } from 'vitest';
import { publicTypeChecker } from '../support/unnamed-types.js';

/** Every public entry of every package (as typedoc.json lists them), grouped by package. */
const PACKAGES: Record<string, readonly string[]> = {
  sqlite: ['index', 'node', 'vite'],
  embeddings: ['index', 'worker', 'worker-client', 'node', 'vite'],
  browser: ['index', 'vite', 'worker'],
  'ai-sdk': ['index'],
  langchain: ['index'],
  mcp: ['index'],
  postgres: ['index'],
  sync: ['index', 'server/index'],
};
const entry = (pkg: string, name: string) => `packages/${pkg}/src/${name}.ts`;
const CORE = entry('core', 'index');
const CORE_ENTRIES = [CORE, entry('core', 'adapter'), entry('core', 'testing/index')];
const ZERDA_SOURCES = ['core', ...Object.keys(PACKAGES)].map((p) => `packages/${p}/src`);
const CASES = Object.entries(PACKAGES).flatMap(([pkg, names]) =>
  names.map((name) => ({
    entry: entry(pkg, name),
    companions: names.filter((n) => n !== name).map((n) => entry(pkg, n)),
  })),
);

describe('types an app meets are exported', () => {
  const unnamed = publicTypeChecker([...CASES.map((c) => c.entry), ...CORE_ENTRIES], ZERDA_SOURCES);
  test.each(CASES)('$entry', ({ entry, companions }) => {
    expect(unnamed(entry, companions)).toEqual([]);
  });
  test(CORE, () => {
    expect(unnamed(CORE, [entry('core', 'adapter')])).toEqual([]);
  });
  test(entry('core', 'testing/index'), () => {
    expect(unnamed(entry('core', 'testing/index'), [CORE, entry('core', 'adapter')])).toEqual([]);
  });
}, 300_000);
