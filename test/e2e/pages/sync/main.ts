// Test page of the sync specs (../../sync.spec.ts): one "device" — `@zerda/browser`'s memory
// (sql.js + IndexedDB, shared by the profile's tabs) synced by `@zerda/sync` with the server the
// spec mounts at /sync on this origin. Exposes `window.z`, driven by page.evaluate.
import { isZerdaError, openBrowserMemory } from '@zerda/browser';
import type { BrowserMemory } from '@zerda/browser';
import { startSync } from '@zerda/sync';
import type { SyncHandle, SyncReport } from '@zerda/sync';
import { sqlWasmUrl } from '@zerda/sqlite/vite';

interface OpenOptions {
  name: string;
  tenant: string;
  passphrase: string;
  token?: string;
  batchSize?: number;
  /** The sync server's URL when it is not this origin's /sync (the cross-origin test). */
  url?: string;
}

const USER = 'me';
let memory: BrowserMemory | undefined;
let sync: SyncHandle | undefined;
let tenant = '';
const errors: { code: string; message: string }[] = [];

function describeError(e: unknown): { code: string; message: string } {
  return { code: isZerdaError(e) ? e.code : 'UNKNOWN', message: e instanceof Error ? e.message : String(e) };
}

function need(): BrowserMemory {
  if (!memory) throw new Error('not open');
  return memory;
}

/** Reports each acknowledged write to `window.ack` when the spec exposed one. */
const ack = (id: string) => (globalThis as { ack?: (id: string) => void }).ack?.(id);

const z = {
  async open(o: OpenOptions) {
    try {
      tenant = o.tenant;
      memory = await openBrowserMemory({
        name: o.name,
        embedder: 'none',
        sqlWasmUrl,
        owner: USER,
        sqlite: { backups: { enabled: false } },
      });
      sync = startSync({
        // With several tabs on one database only the tab that owns it syncs (startSync's default).
        manager: memory.manager,
        url: o.url ?? `${location.origin}/sync`,
        tenantId: o.tenant,
        token: o.token ?? 'tok',
        passphrase: o.passphrase,
        iterations: 1000,
        allowWeakIterations: true,
        batchSize: o.batchSize ?? 200,
        // The spec drives cycles (syncNow, going back online): none at start, no timer cycle in between
        // (a follower tab still checks each second whether it now owns the database, to take over).
        autoStart: false,
        intervalMs: 600_000,
        backoff: { minMs: 100, maxMs: 400 },
      });
      sync.on((e) => {
        if (e.type === 'error') errors.push(describeError(e.error));
      });
      return { ok: true, owner: memory.isOwner };
    } catch (e) {
      return { ok: false, error: describeError(e) };
    }
  },
  /** Remember `n` memories `<prefix>-<i>`, one after the other; resolves to their ids. */
  async remember(prefix: string, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const { entry } = await need().manager.remember(USER, tenant, {
        id: `${prefix}-${i}`,
        title: prefix,
        text: `memory ${i} written by ${prefix}`,
        kind: 'fact',
      });
      ids.push(entry.id);
      ack(entry.id);
    }
    return ids;
  },
  async update(id: string, text: string) {
    return (await need().manager.updateMemory(USER, tenant, id, { text })).id;
  },
  async remove(id: string) {
    return need().manager.deleteMemory(USER, tenant, id);
  },
  /** Recall (reinforces what it finds: the per-device counters sync too). */
  async recall(query: string) {
    return (await need().manager.recall(USER, tenant, query, { topK: 3 })).map((h) => h.entry.id);
  },
  async ids() {
    return (await need().storage.query({ tenantId: tenant })).map((e) => e.id).sort();
  },
  async syncNow(): Promise<{ ok: true; report: SyncReport } | { ok: false; error: { code: string; message: string } }> {
    try {
      return { ok: true, report: await sync!.syncNow() };
    } catch (e) {
      return { ok: false, error: describeError(e) };
    }
  },
  status() {
    const s = sync!.status;
    return { ...s, lastError: s.lastError ? describeError(s.lastError) : null };
  },
  errors() {
    return [...errors];
  },
  /** The tenant's export without its time stamp (vectors are not exported). */
  async exported() {
    const { exportedAt: _at, ...doc } = await need().exportJson({ tenantId: tenant });
    return doc;
  },
  async close() {
    await sync?.stop();
    await memory?.close();
    memory = undefined;
  },
};

/** `window.z`, as ../../sync.spec.ts sees it. */
export type SyncPageApi = typeof z;

(globalThis as unknown as { z: SyncPageApi }).z = z;
document.getElementById('out')!.textContent = 'ready';
