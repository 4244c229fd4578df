/**
 * An app can name every type it meets in public signatures. @zerda/mcp, @zerda/postgres and
 * @zerda/browser: their own types, and the ones of other Zerda packages that appear in their
 * declarations (under pnpm an app that installs only @zerda/browser cannot import @zerda/core or
 * @zerda/sqlite), are exported by the package's entry. @zerda/core: what its app entry exposes is
 * exported by it or by `@zerda/core/adapter`, so no internal (a tier class, the language layer)
 * leaks through a signature. Lists what is missing.
 */
import { describe, expect, test } from 'vitest';
import { publicTypeChecker } from '../support/unnamed-types.js';

const ENTRIES = ['packages/mcp/src/index.ts', 'packages/postgres/src/index.ts', 'packages/browser/src/index.ts'];
const CORE = 'packages/core/src/index.ts';
const ZERDA_SOURCES = ['core', 'sqlite', 'postgres', 'embeddings'].map((p) => `packages/${p}/src`);

describe('types an app meets are exported', () => {
  const unnamed = publicTypeChecker([...ENTRIES, CORE], ZERDA_SOURCES);
  test.each(ENTRIES)('%s', (entry) => {
    expect(unnamed(entry)).toEqual([]);
  });
  test(CORE, () => {
    expect(unnamed(CORE, ['packages/core/src/adapter.ts'])).toEqual([]);
  });
}, 180_000);
