import { invalid } from '../model/errors.js';

/**
 * A least-recently-used cache bounded to `max` entries. `get` and `set` refresh recency; adding
 * beyond `max` evicts the least recently used entry. `max` 0 caches nothing.
 */
export class LruCache<K, V> {
  readonly #max: number;
  // A Map iterates in insertion order, so re-inserting on access keeps the oldest entry first.
  readonly #map = new Map<K, V>();

  /** @param max the most entries kept (an integer >= 0). */
  constructor(max: number) {
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) invalid('max', 'an integer >= 0', max);
    this.#max = max;
  }

  /** Capacity. */
  get max(): number {
    return this.#max;
  }

  /** Number of cached entries. */
  get size(): number {
    return this.#map.size;
  }

  /** The cached value (refreshing its recency), or undefined. */
  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const value = this.#map.get(key) as V;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** Cache `value` under `key`, evicting the least recently used entry when full. */
  set(key: K, value: V): this {
    if (this.#max === 0) return this;
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value as K);
    return this;
  }

  /** True when `key` is cached. Does not refresh recency. */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Remove `key`. Returns true when it was cached. */
  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  /** Remove everything. */
  clear(): void {
    this.#map.clear();
  }
}
