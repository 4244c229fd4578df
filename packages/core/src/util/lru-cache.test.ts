import { describe, expect, it } from 'vitest';
import { isZerdaError } from '../model/errors.js';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('evicts the least recently used entry, where get refreshes recency', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1).set('b', 2);
    expect(c.get('a')).toBe(1); // a is now newest
    c.set('c', 3); // evicts b
    expect(c.has('b')).toBe(false);
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    expect(c.size).toBe(2);
  });
  it('overwriting a key refreshes it without growing', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect(c.get('a')).toBe(10);
    expect(c.has('b')).toBe(false);
  });
  it('has() does not refresh recency', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1).set('b', 2);
    expect(c.has('a')).toBe(true);
    c.set('c', 3);
    expect(c.has('a')).toBe(false);
  });
  it('caches falsy values, deletes and clears', () => {
    const c = new LruCache<string, number | undefined>(3);
    c.set('zero', 0).set('u', undefined);
    expect(c.get('zero')).toBe(0);
    expect(c.has('u')).toBe(true);
    expect(c.delete('zero')).toBe(true);
    expect(c.delete('zero')).toBe(false);
    c.clear();
    expect(c.size).toBe(0);
  });
  it('max 0 caches nothing; bad max is VALIDATION', () => {
    const c = new LruCache<string, number>(0);
    c.set('a', 1);
    expect(c.size).toBe(0);
    for (const bad of [-1, 1.5, NaN]) {
      let err: unknown;
      try {
        new LruCache(bad);
      } catch (e) {
        err = e;
      }
      expect(isZerdaError(err, 'VALIDATION')).toBe(true);
    }
  });
});
