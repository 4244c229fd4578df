import type { StorageAdapter } from '@zerda/core';

/** A change to stored memories, made by this context or another tab/worker on the same database. */
export interface MemoryChange {
  /** Tenants whose data changed; `null` when any may have (restore, replace-import). */
  tenantIds: string[] | null;
  /** `local`: made through this `BrowserMemory`; `remote`: made by another tab or worker. */
  source: 'local' | 'remote';
}

/** Listener of the change feed (`BrowserMemory.onChange`). */
export type ChangeListener = (change: MemoryChange) => void;

const COALESCE_MS = 50;

/**
 * Announces writes to other contexts of the same origin (BroadcastChannel) and reports theirs.
 * Bursts are coalesced (one message per 50 ms) so a bulk import does not flood the channel.
 */
export class ChangeFeed {
  readonly #channel: BroadcastChannel | null;
  readonly #listeners = new Set<ChangeListener>();
  #pending: Set<string> | null | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(name: string | null) {
    this.#channel =
      name !== null && typeof BroadcastChannel === 'function' ? new BroadcastChannel(`zerda-browser:${name}`) : null;
    this.#channel?.addEventListener('message', (e: MessageEvent<{ tenantIds?: unknown }>) => {
      const ids = e.data?.tenantIds;
      const tenantIds = Array.isArray(ids) ? ids.filter((t): t is string => typeof t === 'string') : null;
      this.#emit({ tenantIds, source: 'remote' });
    });
  }

  /** Subscribe; returns the unsubscribe function. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Record a local change to `tenantIds` (`null`: possibly every tenant). */
  notify(tenantIds: string[] | null): void {
    if (this.#closed) return;
    if (tenantIds === null || this.#pending === null) this.#pending = null;
    else {
      this.#pending ??= new Set();
      for (const t of tenantIds) this.#pending.add(t);
    }
    this.#timer ??= setTimeout(() => this.#flush(), COALESCE_MS);
  }

  #flush(): void {
    this.#timer = undefined;
    const tenantIds = this.#pending === null ? null : [...(this.#pending ?? [])];
    this.#pending = undefined;
    this.#channel?.postMessage({ tenantIds });
    this.#emit({ tenantIds, source: 'local' });
  }

  #emit(change: MemoryChange): void {
    for (const l of this.#listeners) {
      try {
        l(change);
      } catch (err) {
        // A failing listener must not stop the others (nor the write that triggered it).
        setTimeout(() => {
          throw err;
        });
      }
    }
  }

  /** Stop announcing and listening. Pending local changes are announced first. */
  close(): void {
    if (this.#closed) return;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#flush();
    }
    this.#closed = true;
    this.#listeners.clear();
    this.#channel?.close();
  }
}

type TenantsOf = (args: unknown[]) => string[];
const tenantArg: TenantsOf = (a) => [a[0] as string];
const MUTATIONS: Partial<Record<keyof StorageAdapter, TenantsOf>> = {
  put: (a) => [(a[0] as { tenantId: string }).tenantId],
  putMany: (a) => [...new Set((a[0] as { tenantId: string }[]).map((e) => e.tenantId))],
  delete: tenantArg,
  deleteMany: tenantArg,
  putVectors: tenantArg,
  deleteVectors: tenantArg,
  putProfile: (a) => [(a[0] as { tenantId: string }).tenantId],
  clearTenant: tenantArg,
  // Records pulled by @zerda/sync: other tabs reload what they show.
  applyChanges: tenantArg,
};

/** The same adapter, announcing every successful write on `feed`. */
export function announceWrites(storage: StorageAdapter, feed: ChangeFeed): StorageAdapter {
  return new Proxy(storage, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const tenantsOf = typeof prop === 'string' ? MUTATIONS[prop as keyof StorageAdapter] : undefined;
      // Bound to the target: adapters keep their state in #private fields.
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (!tenantsOf) return method;
      return async (...args: unknown[]) => {
        const result = await method(...args);
        feed.notify(tenantsOf(args));
        return result;
      };
    },
  });
}
