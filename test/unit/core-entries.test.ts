/**
 * `@zerda/core`'s public surface: the app API in the main entry, the adapter kit in
 * `@zerda/core/adapter`, each name in one of them only, and the internals in neither.
 */
import * as adapter from '@zerda/core/adapter';
import * as app from '@zerda/core';
import { describe, expect, test } from 'vitest';

const appNames = Object.keys(app);
const adapterNames = Object.keys(adapter);

describe('@zerda/core entries', () => {
  test('no runtime name is exported from both entries', () => {
    expect(appNames.filter((n) => adapterNames.includes(n))).toEqual([]);
  });

  test('the app API is in the main entry, the adapter kit is not', () => {
    for (const name of [
      'MemoryManager',
      'ZerdaError',
      'isZerdaError',
      'InMemoryStorage',
      'HashEmbedder',
      'PiiMasker',
    ]) {
      expect(appNames, name).toContain(name);
    }
    for (const name of [
      'BaseStorage',
      'invalid',
      'checkId',
      'checkOptionKeys',
      'mergeChange',
      'KeyedMutex',
      'ENTRY_COLUMNS',
    ]) {
      expect(appNames, name).not.toContain(name);
      expect(adapterNames, name).toContain(name);
    }
  });

  test('internals are in neither entry', () => {
    const internals = [
      'ShortTermMemory',
      'SemanticMemory',
      'VectorIndex',
      'OfflineExtractor',
      'readQuery',
      'scoreFusion',
    ];
    for (const name of internals) {
      expect(appNames, name).not.toContain(name);
      expect(adapterNames, name).not.toContain(name);
    }
  });
});
