/** The manager's background vector indexing: a queue, one loop, catch-up, and awaitable errors. */
import { ZerdaError } from '../model/errors.js';
import type { MemoryEntry } from '../model/types.js';
import type { StorageAdapter } from '../storage/storage.js';
import type { SemanticMemory } from '../tiers/semantic-memory.js';

/**
 * How many queued entries one `SemanticMemory.add` call embeds (at most; a chat's saves queue one
 * at a time). Large enough for a bulk import to hand the embedder several of its batches at once,
 * which it orders by length so each batch pads little.
 */
const BATCH = 256;

/** What {@link IndexQueue.watch} reports: an entry of `tenantId` queued; `n` of them embedded (or failed: see `takeFailure`). */
export interface IndexWatcher {
  queued(tenantId: string): void;
  embedded(tenantId: string, n: number): void;
}

/**
 * Embeds saved memories in the background, in batches, one batch at a time. Everything it
 * starts is tracked: {@link IndexQueue.settle} waits for it and {@link IndexQueue.takeFailure}
 * hands over what failed (never swallowed). With no semantic tier every call is a no-op.
 */
export class IndexQueue {
  readonly #semantic: SemanticMemory | null;
  readonly #storage: StorageAdapter;
  readonly #pending = new Set<Promise<void>>();
  readonly #catchUps = new Map<string, Promise<void>>();
  #queue: MemoryEntry[] = [];
  #loop: Promise<void> | null = null;
  #errors: unknown[] = [];
  readonly #watchers = new Set<IndexWatcher>();

  constructor(semantic: SemanticMemory | null, storage: StorageAdapter) {
    this.#semantic = semantic;
    this.#storage = storage;
  }

  /** Queue `entry` for embedding (its current text; a later update queues it again). */
  enqueue(entry: MemoryEntry): void {
    if (!this.#semantic) return;
    this.#queue.push(entry);
    for (const w of this.#watchers) w.queued(entry.tenantId);
    this.#startLoop();
  }

  /** How many entries of `tenantId` wait to be embedded. */
  pending(tenantId: string): number {
    return this.#queue.filter((e) => e.tenantId === tenantId).length;
  }

  /** Drop a queued entry (it is being deleted). */
  drop(tenantId: string, id: string): void {
    this.#queue = this.#queue.filter((e) => !(e.tenantId === tenantId && e.id === id));
  }

  /** Drop everything queued for `tenantId` and wait until no indexing or catch-up of it runs. */
  async forgetTenant(tenantId: string): Promise<void> {
    this.#queue = this.#queue.filter((e) => e.tenantId !== tenantId);
    await this.drain();
    await this.#catchUps.get(tenantId);
    this.#catchUps.delete(tenantId);
  }

  /**
   * Tell `watcher` of each entry queued and of each batch embedded; returns the function that
   * stops it. For progress reports (see `MemoryManager.importHistory`).
   */
  watch(watcher: IndexWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Resolves when the indexing loop is idle. */
  async drain(): Promise<void> {
    while (this.#loop) await this.#loop;
  }

  /**
   * Run `fn` while no indexing runs: it holds the indexing slot, so saves meanwhile queue up and
   * are embedded right after. A reindex racing the index loop could otherwise drop from the
   * in-memory index a vector the loop had just added.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.#loop) await this.#loop;
    let release!: () => void;
    this.#loop = new Promise<void>((r) => (release = r));
    try {
      return await fn();
    } finally {
      this.#loop = null;
      release();
      this.#startLoop();
    }
  }

  /**
   * Once per tenant, on first recall: embed the memories that are stored but have no
   * vector — saved by a process that was killed before its background indexing ran, or imported
   * without vectors. Runs in the background (recall meanwhile works lexically); `settle()` awaits
   * it. A failed catch-up is retried on a later recall rather than reported: the failure that
   * left the vectors missing was reported when it happened (or by another process), and an
   * embedder that is down for a while must not turn every later `flush()` into an error.
   */
  catchUp(tenantId: string): void {
    const semantic = this.#semantic;
    if (!semantic || this.#catchUps.has(tenantId)) return;
    const task: Promise<void> = this.exclusive(async () => {
      const [stored, indexed] = await Promise.all([this.#storage.count({ tenantId }), semantic.vectorCount(tenantId)]);
      if (stored > indexed) await semantic.reindex(tenantId);
    })
      .catch(() => {
        if (this.#catchUps.get(tenantId) === task) this.#catchUps.delete(tenantId);
      })
      .finally(() => this.#pending.delete(task));
    this.#catchUps.set(tenantId, task);
    this.#pending.add(task);
  }

  /** Resolves when all background work started so far (and started meanwhile) has settled. */
  async settle(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }

  /**
   * The first background failure since the last call (as a `ZerdaError`, the others attached as
   * `suppressed`), or `undefined`. Each failure is handed over once.
   */
  takeFailure(): ZerdaError | undefined {
    if (!this.#errors.length) return undefined;
    const [first, ...rest] = this.#errors;
    this.#errors = [];
    const err =
      first instanceof ZerdaError ? first : new ZerdaError('INTERNAL', 'Background work failed', { cause: first });
    if (rest.length) (err as { suppressed?: unknown[] }).suppressed = rest;
    return err;
  }

  #startLoop(): void {
    if (this.#loop || !this.#queue.length) return;
    const loop = this.#run().finally(() => {
      this.#loop = null;
      this.#pending.delete(loop);
      // An entry queued after the last batch was taken, while this loop was finishing, found the
      // loop still set and did not start one: start it now, or it would wait for the next save.
      this.#startLoop();
    });
    this.#loop = loop;
    this.#pending.add(loop);
  }

  async #run(): Promise<void> {
    // Yield once so a burst of saves is embedded as one batch.
    await Promise.resolve();
    while (this.#queue.length) {
      const batch = this.#queue.splice(0, BATCH);
      try {
        await this.#semantic!.add(batch);
      } catch (err) {
        this.#errors.push(err);
      }
      if (this.#watchers.size) {
        const counts = new Map<string, number>();
        for (const e of batch) counts.set(e.tenantId, (counts.get(e.tenantId) ?? 0) + 1);
        for (const w of this.#watchers) for (const [t, n] of counts) w.embedded(t, n);
      }
    }
  }
}
