/**
 * Runs async tasks one at a time per key, in the order they were queued. A task starts when the
 * previous task of its key has settled, whether it resolved or rejected (one failure never blocks
 * the queue). Tasks of different keys run concurrently. Keys whose queue drains are forgotten.
 */
export class KeyedMutex<K = string> {
  readonly #tails = new Map<K, Promise<void>>();

  /** Queue `fn` behind the tasks already queued for `key`; resolves or rejects with its result. */
  run<T>(key: K, fn: () => T | Promise<T>): Promise<T> {
    const prev = this.#tails.get(key) ?? Promise.resolve();
    const result = prev.then(fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued for `key` so far has settled (never rejects). */
  idle(key: K): Promise<void> {
    return this.#tails.get(key) ?? Promise.resolve();
  }

  /** Resolves once every task queued so far, of every key, has settled (never rejects). */
  async idleAll(): Promise<void> {
    await Promise.allSettled([...this.#tails.values()]);
  }

  /** Whether a task of `key` is queued or running. */
  busy(key: K): boolean {
    return this.#tails.has(key);
  }
}
