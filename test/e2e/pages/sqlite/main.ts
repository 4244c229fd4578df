// Test page for the @zerda/sqlite Chromium specs: exposes `window.z`, driven by page.evaluate.
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import type { StorageAdapter } from '@zerda/core';
import { IndexedDbPersistence, SharedSqliteStorage, SqliteStorage } from '@zerda/sqlite';
import { sqlWasmUrl } from '@zerda/sqlite/vite';

interface OpenOptions {
  name: string;
  passphrase?: string;
  shared?: boolean;
}

let storage: (StorageAdapter & { isOwner?: boolean }) | undefined;
const TENANT = 'e2e';

function need(): StorageAdapter {
  if (!storage) throw new Error('not open');
  return storage;
}

function describeError(e: unknown): { code: string; message: string } {
  return { code: isZerdaError(e) ? e.code : 'UNKNOWN', message: e instanceof Error ? e.message : String(e) };
}

function idb<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

const z = {
  async open(o: OpenOptions) {
    try {
      const common = {
        locateFile: () => sqlWasmUrl,
        ...(o.passphrase ? { encryption: { passphrase: o.passphrase } } : {}),
        backups: { enabled: false },
      };
      if (o.shared) {
        storage = await SharedSqliteStorage.open({ name: o.name, ...common });
        return { ok: true, owner: (storage as SharedSqliteStorage).isOwner };
      }
      const s = await SqliteStorage.open({ persistence: new IndexedDbPersistence({ name: o.name }), ...common });
      storage = s;
      return { ok: true, report: s.openReport };
    } catch (e) {
      return { ok: false, error: describeError(e) };
    }
  },
  isOwner() {
    return storage?.isOwner ?? null;
  },
  /** Write `n` memories; `parallel` fires them all at once. Reports each acknowledged id to `window.ack` when present. */
  async write(n: number, prefix: string, parallel = false) {
    const s = need();
    const ack = (globalThis as { ack?: (id: string) => void }).ack;
    const one = async (i: number) => {
      const e = createEntry(
        TENANT,
        { id: `${prefix}-${i}`, content: { title: prefix, text: `memory ${i} from ${prefix}` } },
        Date.now(),
      );
      await s.put(e);
      ack?.(e.id);
    };
    if (parallel) await Promise.all(Array.from({ length: n }, (_, i) => one(i)));
    else for (let i = 0; i < n; i++) await one(i);
    return n;
  },
  /** Write memories of about `size` characters until a write fails (or `max` were written). */
  async fill(prefix: string, size: number, max: number) {
    const s = need();
    const acked: string[] = [];
    for (let i = 0; i < max; i++) {
      // Random letters: IndexedDB compresses values, so repeated text would hardly use any quota.
      const noise = Array.from(crypto.getRandomValues(new Uint8Array(size)), (b) =>
        String.fromCharCode(97 + (b % 26)),
      ).join('');
      const e = createEntry(
        TENANT,
        { id: `${prefix}-${i}`, content: { title: prefix, text: `filler ${i} ${noise}` } },
        Date.now(),
      );
      try {
        await s.put(e);
        acked.push(e.id);
      } catch (err) {
        return { acked, error: describeError(err) };
      }
    }
    return { acked, error: null };
  },
  async count() {
    return need().count({ tenantId: TENANT });
  },
  async ids() {
    return (await need().query({ tenantId: TENANT })).map((e) => e.id);
  },
  async search(q: string) {
    return (await need().lexicalSearch({ tenantId: TENANT, query: q, limit: 5 })).map((h) => h.id);
  },
  async close() {
    await storage?.close();
    storage = undefined;
  },
  /** Flip a byte in the last record of the main log (simulates a corrupt tail). */
  async corruptLastLog(name: string) {
    const db = await idb(indexedDB.open(name, 1));
    const store = db.transaction('main-log', 'readwrite').objectStore('main-log');
    const keys = (await idb(store.getAllKeys())) as number[];
    const last = keys.at(-1);
    if (last === undefined) throw new Error('empty log');
    const rec = (await idb(store.get(last))) as Uint8Array;
    rec[rec.length - 3]! ^= 0xff;
    await idb(store.put(rec, last));
    db.close();
    return keys.length;
  },
};

/** `window.z`, as the specs that drive this page (../../sqlite.spec.ts, ../../engines/engines.spec.ts) see it. */
export type SqlitePageApi = typeof z;

(globalThis as unknown as { z: SqlitePageApi }).z = z;
document.getElementById('out')!.textContent = 'ready';
