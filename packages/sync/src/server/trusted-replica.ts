import { invalid } from '@zerda/core/adapter';
import type { MemoryManager, SyncTarget } from '@zerda/core';
import { startSync } from '../client.js';
import type { SyncHandle } from '../client.js';

/** Options of {@link trustedReplica}. */
export interface TrustedReplicaOptions {
  /** The server-side store the records are applied to (a `PostgresStorage`). One of `storage` or `manager`. */
  storage?: SyncTarget;
  /** A manager over that store: applied memories are then indexed for its recall. */
  manager?: MemoryManager;
  /** This sync server's base URL: the replica is one more device of each tenant. */
  url: string;
  /** Tenant id → its sync passphrase. Holding them is what makes this mode not end-to-end. */
  passphrases: Record<string, string>;
  /** A bearer token the server accepts for those tenants. */
  token: string;
  /** Time between background syncs of each tenant (default 10 s); {@link TrustedReplica.notify} syncs at once. */
  intervalMs?: number;
  /** PBKDF2 iterations of the tenants' keys: the devices' (default core's 600,000). */
  iterations?: number;
  /** Tests only: allow fewer than 100,000 iterations. */
  allowWeakIterations?: boolean;
  /** `fetch` to reach the sync server (default `globalThis.fetch`). */
  fetch?: typeof fetch;
}

/** A running replica: see {@link trustedReplica}. */
export interface TrustedReplica {
  /** Records of `tenantId` arrived: sync it soon (calls during a sync coalesce into one more). */
  notify(tenantId: string): void;
  /** Sync one tenant (or all) now. */
  syncNow(tenantId?: string): Promise<void>;
  /** Stop syncing every tenant (syncs in progress finish first). */
  stop(): Promise<void>;
}

/**
 * **Trusted-server mode** (not end-to-end): the sync server also keeps each listed tenant's memory
 * in a server-side store, so a server-side app or the MCP server on PostgreSQL recalls what the
 * devices wrote, and what it writes reaches the devices. The replica is one more device of each
 * tenant: it holds the tenant's passphrase, pulls and decrypts the records, applies them by the
 * same merge rules, and pushes its own changes. Records on the wire and in the records table stay
 * encrypted, but the server's operator can read everything in the replica's store — and, holding
 * the passphrase, every record. Pass `onAppend: (t) => replica.notify(t)` to `createSyncHandler`
 * so records are applied as they arrive.
 */
export function trustedReplica(options: TrustedReplicaOptions): TrustedReplica {
  if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
  if ((options.storage === undefined) === (options.manager === undefined))
    invalid('options', 'exactly one of storage or manager');
  const passphrases = options.passphrases;
  if (typeof passphrases !== 'object' || passphrases === null || Object.keys(passphrases).length === 0)
    invalid('passphrases', 'an object of tenant id → sync passphrase', passphrases);
  for (const [tenantId, passphrase] of Object.entries(passphrases))
    if (typeof passphrase !== 'string' || passphrase === '')
      invalid(`passphrases.${tenantId}`, 'a non-empty sync passphrase', passphrase);
  const handles = new Map<string, SyncHandle>();
  const runs = new Map<string, { running: Promise<void>; again: boolean }>();
  for (const [tenantId, passphrase] of Object.entries(passphrases))
    handles.set(
      tenantId,
      startSync({
        ...(options.manager ? { manager: options.manager } : { storage: options.storage! }),
        url: options.url,
        tenantId,
        token: options.token,
        passphrase,
        ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
        ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
        ...(options.allowWeakIterations === undefined ? {} : { allowWeakIterations: options.allowWeakIterations }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        backoff: { minMs: 200, maxMs: 30_000 },
      }),
    );
  // Records arriving during a sync ask for one more: it will see everything that came meanwhile.
  const run = (tenantId: string): Promise<void> => {
    const h = handles.get(tenantId);
    if (!h) return Promise.resolve();
    const current = runs.get(tenantId);
    if (current) {
      current.again = true;
      return current.running;
    }
    const state = { running: Promise.resolve(), again: false };
    state.running = (async () => {
      do {
        state.again = false;
        await h.syncNow().catch(() => undefined);
      } while (state.again);
      runs.delete(tenantId);
    })();
    runs.set(tenantId, state);
    return state.running;
  };
  return {
    notify(tenantId) {
      void run(tenantId);
    },
    async syncNow(tenantId) {
      if (tenantId !== undefined) {
        const h = handles.get(tenantId);
        if (!h) invalid('tenantId', `one of the replica's tenants (${[...handles.keys()].join(', ')})`, tenantId);
        await h.syncNow();
      } else for (const h of handles.values()) await h.syncNow();
    },
    async stop() {
      for (const h of handles.values()) await h.stop();
    },
  };
}
